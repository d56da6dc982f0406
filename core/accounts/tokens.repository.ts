import type { Kysely } from "kysely";
import type { Database } from "../../db/types";

export type TokenKind = "password_reset" | "invitation";

/** Single-use, time-limited tokens (password reset, invitation); only hashes are stored. */
export function createTokensRepository(db: Kysely<Database>) {
  return {
    async insert(row: {
      user_id: number;
      kind: TokenKind;
      token_hash: string;
      expires_at: string;
      created_at: string;
    }) {
      await db.insertInto("one_time_tokens").values(row).execute();
    },
    async findUsable(tokenHash: string, kind: TokenKind, now: string) {
      return db
        .selectFrom("one_time_tokens")
        .innerJoin("users", "users.id", "one_time_tokens.user_id")
        .select(["one_time_tokens.id", "one_time_tokens.user_id", "users.email", "users.first_name", "users.is_active"])
        .select((eb) => eb("users.password_hash", "is not", null).as("has_password"))
        .where("one_time_tokens.token_hash", "=", tokenHash)
        .where("one_time_tokens.kind", "=", kind)
        .where("one_time_tokens.used_at", "is", null)
        .where("one_time_tokens.expires_at", ">", now)
        .executeTakeFirst();
    },
    /** Uses a token up; false when it was already used (two requests racing with one link). */
    async consume(id: number, now: string): Promise<boolean> {
      const result = await db
        .updateTable("one_time_tokens")
        .set({ used_at: now })
        .where("id", "=", id)
        .where("used_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /**
     * A user's open links of one kind stop working (a new one is sent), or of
     * every kind when none is named (the account is deactivated).
     */
    async retireForUser(userId: number, kind: TokenKind | null, now: string) {
      let query = db
        .updateTable("one_time_tokens")
        .set({ used_at: now })
        .where("user_id", "=", userId)
        .where("used_at", "is", null);
      if (kind) query = query.where("kind", "=", kind);
      await query.execute();
    },
  };
}
export type TokensRepository = ReturnType<typeof createTokensRepository>;
