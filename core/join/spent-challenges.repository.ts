import type { Executor } from "../../db/types";

/**
 * The proof-of-work challenges (ALTCHA) already solved once, by a hash of their signature, until
 * they expire (decision 0077): the table is shared by every process, so a solution is good once
 * across all of them.
 */

/**
 * Marks a challenge spent. True when this call did; false when it was spent already (a replay).
 * The primary key decides, so two processes sending the same solution at once cannot both pass.
 */
export async function spendChallenge(db: Executor, signatureHash: string, expiresAt: string): Promise<boolean> {
  const result = await db
    .insertInto("spent_challenges")
    .values({ signature_hash: signatureHash, expires_at: expiresAt })
    .onConflict((oc) => oc.column("signature_hash").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * Forgets the challenges that expired before `nowIso` (spent_challenges_expiry_idx): an expired
 * challenge is refused for its age, so its row no longer guards anything. For the retention job.
 */
export async function pruneSpentChallenges(db: Executor, nowIso: string): Promise<number> {
  const result = await db.deleteFrom("spent_challenges").where("expires_at", "<", nowIso).executeTakeFirst();
  return Number(result.numDeletedRows);
}
