import type { Executor } from "../../db/types";

/** A user's passkeys (migration 0030); runs on the executor it is given: the database, or a write's transaction. */
export function createPasskeysRepository(db: Executor) {
  return {
    async list(userId: number) {
      return db.selectFrom("user_passkeys").selectAll().where("user_id", "=", userId).orderBy("id").execute();
    },
    async count(userId: number): Promise<number> {
      const row = await db
        .selectFrom("user_passkeys")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", userId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async find(userId: number, credentialId: string) {
      return db
        .selectFrom("user_passkeys")
        .selectAll()
        .where("user_id", "=", userId)
        .where("credential_id", "=", credentialId)
        .executeTakeFirst();
    },
    async insert(values: {
      user_id: number;
      credential_id: string;
      public_key: string;
      counter: number;
      transports: string | null;
      name: string;
      created_at: string;
    }) {
      return db
        .insertInto("user_passkeys")
        .values({ ...values, last_used_at: null })
        .returning(["id", "name", "created_at", "last_used_at"])
        .executeTakeFirstOrThrow();
    },
    async remove(userId: number, id: number) {
      return db
        .deleteFrom("user_passkeys")
        .where("user_id", "=", userId)
        .where("id", "=", id)
        .returning(["id", "name"])
        .executeTakeFirst();
    },
    /** After a sign-in: the counter the authenticator reported, and when. */
    async used(id: number, counter: number, now: string) {
      await db.updateTable("user_passkeys").set({ counter, last_used_at: now }).where("id", "=", id).execute();
    },
    /** Keeps the challenge of a passkey being added (on the user's two-factor row, which exists once it is on). */
    async setAddChallenge(userId: number, challenge: string, expiresAt: string) {
      const row = await db
        .updateTable("user_two_factor")
        .set({ passkey_challenge: challenge, passkey_challenge_expires_at: expiresAt })
        .where("user_id", "=", userId)
        .where("enabled_at", "is not", null)
        .returning("user_id")
        .executeTakeFirst();
      return row !== undefined;
    },
    /** Takes the challenge of a passkey being added, once: null when there is none, or another request took it. */
    async takeAddChallenge(userId: number): Promise<{ challenge: string; expires_at: string } | null> {
      const row = await db
        .selectFrom("user_two_factor")
        .select(["passkey_challenge", "passkey_challenge_expires_at"])
        .where("user_id", "=", userId)
        .executeTakeFirst();
      if (!row?.passkey_challenge || !row.passkey_challenge_expires_at) return null;
      const taken = await db
        .updateTable("user_two_factor")
        .set({ passkey_challenge: null, passkey_challenge_expires_at: null })
        .where("user_id", "=", userId)
        .where("passkey_challenge", "=", row.passkey_challenge)
        .returning("user_id")
        .executeTakeFirst();
      return taken ? { challenge: row.passkey_challenge, expires_at: row.passkey_challenge_expires_at } : null;
    },
  };
}
