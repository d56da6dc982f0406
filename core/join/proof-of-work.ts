import { createHash, createHmac } from "node:crypto";
import { type Challenge, createChallenge, type Payload, randomInt, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { spendChallenge } from "./spent-challenges.repository";

/**
 * The public forms' proof-of-work challenge (ALTCHA, decision 0077), served from our own origin:
 * the browser derives PBKDF2 keys until one starts with the prefix the server chose, which costs a
 * person's device about a second and a spammer's farm that second per request. Deterministic mode:
 * the server picks the counter, so the effort is predictable, and signs the expected key, so that
 * checking a solution is one HMAC. The challenge is signed with the site's own key (core/secrets:
 * the same in every process), expires after CHALLENGE_TTL_SECONDS (the expiry is part of what is
 * signed) and is good once (spent_challenges).
 */
export const POW_ALGORITHM = "PBKDF2/SHA-256";
/** PBKDF2 iterations per attempt. */
export const POW_COST = 1000;
/**
 * The counter the solver must reach, drawn per challenge: on average 2 000 attempts × 1 000
 * iterations. Measured in Chromium on a loaded two-core machine: 4 700 attempts took 2 s, so
 * about a second on average; a phone's WebCrypto in its workers is of the same order.
 */
export const POW_COUNTER = { min: 1000, max: 3000 } as const;
/** Long enough to fill in the form after the widget solved on the first focus. */
export const CHALLENGE_TTL_SECONDS = 600;

/** Why a proof of work is not a pass. */
export type ProofRefusal = "unsolved" | "invalid" | "expired" | "replayed";

/** The payload the widget writes into its hidden field: base64 of `{ challenge, solution }`. */
function parsePayload(value: string): Payload | null {
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64").toString("utf8")) as unknown;
    if (typeof parsed !== "object" || parsed === null) return null;
    const { challenge, solution } = parsed as Partial<Payload>;
    if (typeof challenge !== "object" || challenge === null || typeof challenge.parameters !== "object") return null;
    if (typeof challenge.signature !== "string" || typeof solution !== "object" || solution === null) return null;
    return { challenge, solution } as Payload;
  } catch {
    return null;
  }
}

export function createProofOfWork(deps: {
  db: Kysely<Database>;
  clock: Clock;
  /** The site's key for the challenges (core/secrets). */
  key: () => Promise<Buffer>;
}) {
  /** The challenge's signing secret and, derived from it, the one that signs the expected key. */
  async function secrets(): Promise<{ signature: string; keySignature: string }> {
    const key = await deps.key();
    return {
      signature: key.toString("base64url"),
      keySignature: createHmac("sha256", key).update("altcha-key-signature").digest("base64url"),
    };
  }

  return {
    /** Makes (or reads) the key at start, as the forms' key is (join.service `prepare`). */
    prepare: async (): Promise<void> => {
      await deps.key();
    },

    /** A new challenge for the widget: signed, expiring, its counter drawn at random. */
    async issue(): Promise<Challenge> {
      const secret = await secrets();
      return createChallenge({
        algorithm: POW_ALGORITHM,
        cost: POW_COST,
        counter: randomInt(POW_COUNTER.max, POW_COUNTER.min),
        deriveKey,
        expiresAt: Math.floor(deps.clock().getTime() / 1000) + CHALLENGE_TTL_SECONDS,
        hmacSignatureSecret: secret.signature,
        hmacKeySignatureSecret: secret.keySignature,
      });
    },

    /**
     * Null when `value` is a solution of a challenge this site issued, unexpired and not used
     * before (it is then spent); otherwise why not. The expiry is judged on the site's clock.
     */
    async check(value: string): Promise<ProofRefusal | null> {
      if (!value.trim()) return "unsolved";
      const payload = parsePayload(value);
      if (!payload) return "invalid";
      const expiresAt = payload.challenge.parameters.expiresAt;
      // Every challenge of ours expires; one without an expiry was not made here.
      if (typeof expiresAt !== "number") return "invalid";
      const secret = await secrets();
      let result: Awaited<ReturnType<typeof verifySolution>>;
      try {
        result = await verifySolution({
          challenge: payload.challenge,
          solution: payload.solution,
          deriveKey,
          hmacSignatureSecret: secret.signature,
          hmacKeySignatureSecret: secret.keySignature,
        });
      } catch {
        // A payload shaped to make the library throw (an unknown algorithm, a broken hex string).
        return "invalid";
      }
      if (result.expired || expiresAt * 1000 < deps.clock().getTime()) {
        // Expired and signed by us, or expired and forged: either way, a fresh check is the answer.
        return "expired";
      }
      if (!result.verified) return "invalid";
      const signatureHash = createHash("sha256")
        .update(payload.challenge.signature ?? "")
        .digest("base64url");
      const spent = await spendChallenge(deps.db, signatureHash, new Date(expiresAt * 1000).toISOString());
      return spent ? null : "replayed";
    },
  };
}
export type ProofOfWork = ReturnType<typeof createProofOfWork>;
