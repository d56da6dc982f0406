import type { Insertable, Kysely } from "kysely";
import { compiledOnce } from "../../db/compiled-once";
import type { Dialect } from "../../db/connect";
import { groupIdsOfUser } from "../../db/queries";
import type { Database, SessionsTable } from "../../db/types";
import { currentFlag } from "../members/current";

/** Credentials and sessions: what signing in reads and writes. */
export function createAuthRepository(db: Kysely<Database>, dialect: Dialect) {
  // The person's working groups, read with the session (issue 36).
  const groupIds = groupIdsOfUser(dialect);
  const chairedIds = groupIdsOfUser(dialect, true);
  // Every signed-in request runs it: compiled once per repository (db/compiled-once.ts).
  // The user's company comes with it, current or not as of `cutoff` (core/members/current.ts).
  const activeSession = compiledOnce(
    (tokenHash, now, cutoff) =>
      db
        .selectFrom("sessions")
        .innerJoin("users", "users.id", "sessions.user_id")
        .leftJoin("company_representatives as representative", "representative.user_id", "users.id")
        .leftJoin("member_companies as company", "company.id", "representative.company_id")
        .selectAll("users")
        .select([
          "sessions.id as session_id",
          "sessions.expires_at as session_expires_at",
          "sessions.remember as session_remember",
          "sessions.created_at as session_created_at",
          "sessions.last_seen_at as session_last_seen_at",
          "company.id as company_id",
          "company.name as company_name",
          "representative.is_primary as company_primary",
          currentFlag("company", cutoff).as("company_current"),
          groupIds.as("group_ids"),
          chairedIds.as("chaired_group_ids"),
        ])
        .where("sessions.token_hash", "=", tokenHash)
        .where("sessions.expires_at", ">", now)
        .where("users.is_active", "=", 1),
    3,
  );
  return {
    dialect,
    /** The account behind an e-mail, password hash included (never leaves the auth area). */
    async findUserByEmail(email: string) {
      return db.selectFrom("users").selectAll().where("email", "=", email.toLowerCase()).executeTakeFirst();
    },
    async findUserById(id: number) {
      return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    },
    async insertSession(row: Insertable<SessionsTable>) {
      return db.insertInto("sessions").values(row).returningAll().executeTakeFirstOrThrow();
    },
    /** The session and its user (with their company, current as of `cutoff`), if the token is known, unexpired and the user active. */
    async findActive(tokenHash: string, now: string, cutoff: string) {
      const { rows } = await db.executeQuery(activeSession(tokenHash, now, cutoff));
      return rows[0];
    },
    /** Moves last_seen_at forward; a concurrent request that already moved it further is left alone. */
    async touch(sessionId: number, now: string) {
      await db
        .updateTable("sessions")
        .set({ last_seen_at: now })
        .where("id", "=", sessionId)
        .where((eb) => eb.or([eb("last_seen_at", "is", null), eb("last_seen_at", "<", now)]))
        .execute();
    },
    async deleteById(sessionId: number) {
      await db.deleteFrom("sessions").where("id", "=", sessionId).execute();
    },
    async deleteByTokenHash(tokenHash: string) {
      await db.deleteFrom("sessions").where("token_hash", "=", tokenHash).execute();
    },
    async deleteForUser(userId: number, exceptSessionId?: number) {
      let query = db.deleteFrom("sessions").where("user_id", "=", userId);
      if (exceptSessionId !== undefined) query = query.where("id", "!=", exceptSessionId);
      await query.execute();
    },
    /** Ends the user's sessions that are past their expiry or idle since before the cut-offs. */
    async deleteExpiredForUser(userId: number, now: string, idleSince: { short: string; remembered: string }) {
      await db
        .deleteFrom("sessions")
        .where("user_id", "=", userId)
        .where((eb) =>
          eb.or([
            eb("expires_at", "<=", now),
            eb.and([eb("remember", "=", 0), eb(eb.fn.coalesce("last_seen_at", "created_at"), "<=", idleSince.short)]),
            eb.and([
              eb("remember", "=", 1),
              eb(eb.fn.coalesce("last_seen_at", "created_at"), "<=", idleSince.remembered),
            ]),
          ]),
        )
        .execute();
    },
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;
