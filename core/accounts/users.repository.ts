import { type Kysely, NoResultError, type SelectQueryBuilder, sql } from "kysely";
import type { Dialect } from "../../db/connect";
import { containsText, isUniqueViolation } from "../../db/queries";
import type { Database, NewUserRow, UserRow, UserUpdate } from "../../db/types";
import { AppError } from "../../lib/errors";
import { invalidInput } from "../../lib/validation";
import type { UserListQuery } from "./accounts.schema";
import { EMAIL_TAKEN } from "./profile.schema";

/**
 * A write that lost a race: the only unique index on users is the e-mail's (a
 * 422, not a 500), and a user deleted meanwhile is not found.
 */
function emailTakenOnRace(error: unknown): never {
  if (error instanceof NoResultError) throw new AppError("not_found", "User not found.");
  if (isUniqueViolation(error)) {
    throw invalidInput({ email: [EMAIL_TAKEN] });
  }
  throw error;
}

/** The user with when their invitation link stops working, if one can still be used. */
function withInvitation(query: SelectQueryBuilder<Database, "users", object>, now: string) {
  return (
    query
      .selectAll("users")
      .select((eb) =>
        eb
          .selectFrom("one_time_tokens")
          .select((t) => t.fn.max("one_time_tokens.expires_at").as("e"))
          .whereRef("one_time_tokens.user_id", "=", "users.id")
          .where("one_time_tokens.kind", "=", "invitation")
          .where("one_time_tokens.used_at", "is", null)
          .where("one_time_tokens.expires_at", ">", now)
          .as("invitation_expires_at"),
      )
      // Whether two-factor sign-in is on (decision 0075): the users screen offers its reset.
      .select((eb) =>
        eb
          .selectFrom("user_two_factor")
          .select("user_two_factor.enabled_at")
          .whereRef("user_two_factor.user_id", "=", "users.id")
          .as("two_factor_enabled_at"),
      )
  );
}

/** Reads and writes of users, on the database or inside a transaction. */
function userQueries(db: Kysely<Database>) {
  const filtered = (query: Omit<UserListQuery, "page">) => {
    let q = db.selectFrom("users");
    if (query.role) q = q.where("role", "=", query.role);
    if (query.status === "deactivated") q = q.where("is_active", "=", 0);
    if (query.status === "active") q = q.where("is_active", "=", 1).where("password_hash", "is not", null);
    if (query.status === "invited") q = q.where("is_active", "=", 1).where("password_hash", "is", null);
    if (query.search) {
      const search = query.search;
      q = q.where((eb) =>
        eb.or([
          containsText(eb.ref("email"), search),
          containsText(sql`${eb.ref("first_name")} || ' ' || ${eb.ref("last_name")}`, search),
        ]),
      );
    }
    return q;
  };

  return {
    async findById(id: number): Promise<UserRow | undefined> {
      return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    },
    /** E-mails are stored lower-cased; the unique index is on lower(email) too. */
    async findByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom("users").selectAll().where("email", "=", email.toLowerCase()).executeTakeFirst();
    },
    /** The active user whose private feed (calendar or library) has this token's hash (each column has its unique index). */
    async findByFeedToken(column: FeedTokenColumn, tokenHash: string): Promise<UserRow | undefined> {
      return db
        .selectFrom("users")
        .selectAll()
        .where(column, "=", tokenHash)
        .where("is_active", "=", 1)
        .executeTakeFirst();
    },
    async insert(row: NewUserRow): Promise<UserRow> {
      return db.insertInto("users").values(row).returningAll().executeTakeFirstOrThrow().catch(emailTakenOnRace);
    },
    async update(id: number, changes: UserUpdate): Promise<UserRow> {
      return db
        .updateTable("users")
        .set(changes)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow()
        .catch(emailTakenOnRace);
    },
    /** An invited user's first password; false when one was set meanwhile (say through a reset link). */
    async setFirstPassword(id: number, passwordHash: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable("users")
        .set({ password_hash: passwordHash, updated_at: now })
        .where("id", "=", id)
        .where("password_hash", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** A new password (a reset); the private calendar address the old one let anyone make ends with it. */
    async setPassword(id: number, passwordHash: string, now: string): Promise<void> {
      await db
        .updateTable("users")
        .set({ password_hash: passwordHash, calendar_token_hash: null, library_feed_token_hash: null, updated_at: now })
        .where("id", "=", id)
        .execute();
    },
    async remove(id: number): Promise<boolean> {
      const result = await db.deleteFrom("users").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
    /** One user as the users screen shows them. */
    async findForAdmin(id: number, now: string) {
      return withInvitation(db.selectFrom("users").where("id", "=", id), now).executeTakeFirst();
    },
    /** The users screen: filtered, by name. */
    async list(query: Omit<UserListQuery, "page">, offset: number, limit: number, now: string) {
      return withInvitation(filtered(query), now)
        .orderBy(sql`lower(last_name)`)
        .orderBy(sql`lower(first_name)`)
        .orderBy("id")
        .offset(offset)
        .limit(limit)
        .execute();
    },
    async count(query: Omit<UserListQuery, "page"> = { search: "" }): Promise<number> {
      const row = await filtered(query)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}
export type UserQueries = ReturnType<typeof userQueries>;

/** The columns that keep the hash of a private feed's secret address (issues 13 and 33). */
export type FeedTokenColumn = "calendar_token_hash" | "library_feed_token_hash";

export function createUsersRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    ...userQueries(db),
    /**
     * Runs `work` in a transaction with the admins who can sign in (active,
     * with a password) read and, on PostgreSQL, locked: two admins demoting
     * each other at once cannot leave the site without one.
     */
    async whileAdminsLocked<T>(
      work: (users: UserQueries, adminIds: number[], trx: Kysely<Database>) => Promise<T>,
    ): Promise<T> {
      return db.transaction().execute(async (trx) => {
        let admins = trx
          .selectFrom("users")
          .select("id")
          .where("role", "=", "admin")
          .where("is_active", "=", 1)
          .where("password_hash", "is not", null)
          .orderBy("id");
        // SQLite has no row locks; its one connection runs this transaction alone.
        if (dialect === "postgres") admins = admins.forUpdate();
        const ids = (await admins.execute()).map((r) => r.id);
        return work(userQueries(trx), ids, trx);
      });
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
