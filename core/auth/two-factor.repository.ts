import type { Executor } from "../../db/types";

/** Runs on the executor it is given: the database, or the transaction of a write. */
export function createTwoFactorRepository(db: Executor) {
  return {
    async find(userId: number) {
      return db.selectFrom("user_two_factor").selectAll().where("user_id", "=", userId).executeTakeFirst();
    },
    /** A new secret waiting for its first code (replacing one not confirmed); never over a confirmed one. */
    async setPending(userId: number, secret: string, now: string) {
      await db.deleteFrom("user_two_factor").where("user_id", "=", userId).where("enabled_at", "is", null).execute();
      const inserted = await db
        .insertInto("user_two_factor")
        .values({
          user_id: userId,
          totp_secret: secret,
          enabled_at: null,
          last_step: null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.column("user_id").doNothing())
        .returning("user_id")
        .executeTakeFirst();
      return inserted !== undefined;
    },
    async enable(userId: number, step: number, now: string) {
      const row = await db
        .updateTable("user_two_factor")
        .set({ enabled_at: now, last_step: step, updated_at: now })
        .where("user_id", "=", userId)
        .where("enabled_at", "is", null)
        .returning("user_id")
        .executeTakeFirst();
      return row !== undefined;
    },
    /** Takes a time step once: only a step after the last one accepted (a code is good once). */
    async takeStep(userId: number, step: number, now: string) {
      const row = await db
        .updateTable("user_two_factor")
        .set({ last_step: step, updated_at: now })
        .where("user_id", "=", userId)
        .where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", step)]))
        .returning("user_id")
        .executeTakeFirst();
      return row !== undefined;
    },
    /** Two-factor off: the app, its recovery codes, open sign-in steps and the passkeys beside it go. */
    async remove(userId: number) {
      await db.deleteFrom("user_passkeys").where("user_id", "=", userId).execute();
      await db.deleteFrom("two_factor_recovery_codes").where("user_id", "=", userId).execute();
      await db.deleteFrom("two_factor_challenges").where("user_id", "=", userId).execute();
      const row = await db
        .deleteFrom("user_two_factor")
        .where("user_id", "=", userId)
        .returning("user_id")
        .executeTakeFirst();
      return row !== undefined;
    },
    async replaceRecoveryCodes(userId: number, hashes: string[], now: string) {
      await db.deleteFrom("two_factor_recovery_codes").where("user_id", "=", userId).execute();
      await db
        .insertInto("two_factor_recovery_codes")
        .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null, created_at: now })))
        .execute();
    },
    /** Spends a recovery code once. */
    async spendRecoveryCode(userId: number, hash: string, now: string) {
      const row = await db
        .updateTable("two_factor_recovery_codes")
        .set({ used_at: now })
        .where("user_id", "=", userId)
        .where("code_hash", "=", hash)
        .where("used_at", "is", null)
        .returning("id")
        .executeTakeFirst();
      return row !== undefined;
    },
    async recoveryCodesLeft(userId: number): Promise<number> {
      const row = await db
        .selectFrom("two_factor_recovery_codes")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", userId)
        .where("used_at", "is", null)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async insertChallenge(values: {
      token_hash: string;
      user_id: number;
      remember: number;
      expires_at: string;
      passkey_challenge: string | null;
      created_at: string;
    }) {
      await db.deleteFrom("two_factor_challenges").where("expires_at", "<", values.created_at).execute();
      await db
        .insertInto("two_factor_challenges")
        .values({ ...values, used_at: null })
        .execute();
    },
    async findChallenge(tokenHash: string) {
      return db.selectFrom("two_factor_challenges").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
    },
    /** Spends a challenge once; false when it was used meanwhile. */
    async markChallengeUsed(id: number, now: string) {
      const row = await db
        .updateTable("two_factor_challenges")
        .set({ used_at: now })
        .where("id", "=", id)
        .where("used_at", "is", null)
        .returning("id")
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
export type TwoFactorRepository = ReturnType<typeof createTwoFactorRepository>;
