import { type Insertable, type Kysely, type SqlBool, sql } from "kysely";
import type { Dialect } from "../../db/connect";
import { groupIdsOfUser } from "../../db/queries";
import type { Database, NotificationBatchesTable, NotificationEventsTable } from "../../db/types";
import { currentFlag } from "../members/current";
import type { DigestFrequency, Follow, FollowKind } from "./notifications.schema";

/** An arbitrary key for PostgreSQL's advisory lock over the events' ids (see lockEvents). */
const EVENTS_LOCK = 330_065;

export type NoticeEvent = Pick<Insertable<NotificationEventsTable>, "kind" | "ref_id" | "category_id">;
export type Channel = NotificationBatchesTable["channel"];

export function createNotificationsRepository(db: Kysely<Database>) {
  return {
    preferencesOf(userId: number) {
      return db.selectFrom("notification_preferences").selectAll().where("user_id", "=", userId).executeTakeFirst();
    },
    followsOf(userId: number) {
      return db
        .selectFrom("follows")
        .select(["kind", "category_id", "delivery"])
        .where("user_id", "=", userId)
        .orderBy("id")
        .execute();
    },
    async savePreferences(userId: number, values: { digest: DigestFrequency; announcements: boolean }, now: string) {
      const row = { digest: values.digest, announcements: values.announcements ? 1 : 0, updated_at: now };
      await db
        .insertInto("notification_preferences")
        .values({ user_id: userId, ...row })
        .onConflict((oc) => oc.column("user_id").doUpdateSet(row))
        .execute();
    },
    async removeFollow(userId: number, kind: FollowKind, categoryId: number | null): Promise<boolean> {
      const result = await db
        .deleteFrom("follows")
        .where("user_id", "=", userId)
        .where("kind", "=", kind)
        .where((eb) => (categoryId === null ? eb("category_id", "is", null) : eb("category_id", "=", categoryId)))
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async removeInstantFollows(userId: number) {
      await db.deleteFrom("follows").where("user_id", "=", userId).where("delivery", "=", "instant").execute();
    },
    async accountExists(userId: number): Promise<boolean> {
      return (await db.selectFrom("users").select("id").where("id", "=", userId).executeTakeFirst()) !== undefined;
    },
    async removeFollows(userId: number) {
      await db.deleteFrom("follows").where("user_id", "=", userId).execute();
    },
    async addFollows(userId: number, follows: Follow[], now: string) {
      if (follows.length === 0) return;
      await db
        .insertInto("follows")
        .values(
          follows.map((f) => ({
            user_id: userId,
            kind: f.kind,
            category_id: f.kind === "category" ? (f.id ?? null) : null,
            delivery: f.delivery,
            created_at: now,
          })),
        )
        .execute();
    },

    // What happened (decision 0065) ------------------------------------------------------------

    /**
     * PostgreSQL hands out an event's id when it is inserted and shows the row when its transaction
     * commits, so ids can appear out of order: a writer holds this lock shared from before its
     * insert to its commit, and a batch takes it exclusively to read where the events end, so that
     * no event below that end is still to come (decision 0065). SQLite has one writer: nothing to do.
     */
    async lockEvents(dialect: Dialect, mode: "shared" | "exclusive") {
      if (dialect !== "postgres") return;
      if (mode === "shared") await sql`select pg_advisory_xact_lock_shared(${EVENTS_LOCK})`.execute(db);
      else await sql`select pg_advisory_xact_lock(${EVENTS_LOCK})`.execute(db);
    },
    async recordEvent(event: NoticeEvent, now: string) {
      await db
        .insertInto("notification_events")
        .values({ ...event, category_id: event.category_id ?? null, created_at: now })
        .execute();
    },
    /** Events after `afterId` up to `toId`, oldest first. */
    eventsBetween(afterId: number, toId: number) {
      return db
        .selectFrom("notification_events")
        .selectAll()
        .where("id", ">", afterId)
        .where("id", "<=", toId)
        .orderBy("id")
        .execute();
    },
    /** The first and last event after `afterId` recorded before `before`, and how many. */
    async pendingAfter(afterId: number, before: string) {
      const row = await db
        .selectFrom("notification_events")
        .select((eb) => [
          eb.fn.min("id").as("first_id"),
          eb.fn.max("id").as("last_id"),
          eb.fn.min("created_at").as("oldest"),
          eb.fn.max("created_at").as("newest"),
        ])
        .where("id", ">", afterId)
        .where("created_at", "<=", before)
        .executeTakeFirst();
      return row?.last_id == null
        ? null
        : { lastId: Number(row.last_id), oldest: String(row.oldest), newest: String(row.newest) };
    },
    /** The last event recorded before `before` (0: none): where a channel's first batch starts. */
    async lastEventBefore(before: string): Promise<number> {
      const row = await db
        .selectFrom("notification_events")
        .select((eb) => eb.fn.max("id").as("id"))
        .where("created_at", "<", before)
        .executeTakeFirst();
      return Number(row?.id ?? 0);
    },

    // Batches and who they have reached ---------------------------------------------------------

    /** The channel's batch that is not done, or else its last one. */
    async latestBatch(channel: Channel) {
      return db
        .selectFrom("notification_batches")
        .selectAll()
        .where("channel", "=", channel)
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
    },
    findBatch(channel: Channel, period: string) {
      return db
        .selectFrom("notification_batches")
        .selectAll()
        .where("channel", "=", channel)
        .where("period", "=", period)
        .executeTakeFirst();
    },
    /** Opens a batch; false when another process opened the same one first. */
    async openBatch(row: Omit<Insertable<NotificationBatchesTable>, "id" | "done_at">): Promise<boolean> {
      const inserted = await db
        .insertInto("notification_batches")
        .values({ ...row, done_at: null })
        .onConflict((oc) => oc.columns(["channel", "period"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      return inserted !== undefined;
    },
    async closeBatch(id: number, now: string) {
      await db.updateTable("notification_batches").set({ done_at: now }).where("id", "=", id).execute();
    },
    /** Marks members settled by a batch; answers those not settled before (another run may have been first). */
    async settle(batchId: number, rows: { user_id: number; items: number }[], now: string): Promise<Set<number>> {
      if (rows.length === 0) return new Set();
      const inserted = await db
        .insertInto("notification_deliveries")
        .values(rows.map((r) => ({ batch_id: batchId, ...r, created_at: now })))
        .onConflict((oc) => oc.columns(["batch_id", "user_id"]).doNothing())
        .returning("user_id")
        .execute();
      return new Set(inserted.map((r) => r.user_id));
    },
    async settledAmong(batchId: number, userIds: number[]): Promise<Set<number>> {
      if (userIds.length === 0) return new Set();
      const rows = await db
        .selectFrom("notification_deliveries")
        .select("user_id")
        .where("batch_id", "=", batchId)
        .where("user_id", "in", userIds)
        .execute();
      return new Set(rows.map((r) => r.user_id));
    },
    async deliveries(batchId: number) {
      const row = await db
        .selectFrom("notification_deliveries")
        .select((eb) => [eb.fn.countAll<number>().as("members"), eb.fn.sum<number>("items").as("items")])
        .where("batch_id", "=", batchId)
        .where("items", ">", 0)
        .executeTakeFirst();
      return { mails: Number(row?.members ?? 0), items: Number(row?.items ?? 0) };
    },

    // Who may hear ------------------------------------------------------------------------------

    /**
     * Active accounts after `afterId`, by id, with what the access decision needs (role, and
     * whether their company is current as of `cutoff`; core/access/access.ts).
     */
    accountsAfter(dialect: Dialect, afterId: number, limit: number, cutoff: string, only?: number[]) {
      let query = db
        .selectFrom("users")
        .leftJoin("company_representatives as representative", "representative.user_id", "users.id")
        .leftJoin("member_companies as company", "company.id", "representative.company_id")
        .select([
          "users.id",
          "users.email",
          "users.first_name",
          "users.last_name",
          "users.role",
          "company.id as company_id",
          currentFlag("company", cutoff).as("company_current"),
          groupIdsOfUser(dialect).as("group_ids"),
        ])
        .where("users.is_active", "=", 1)
        .where("users.id", ">", afterId);
      if (only) query = query.where("users.id", "in", only);
      return query.orderBy("users.id").limit(limit).execute();
    },
    /** Stored preferences and follows of these accounts (those without have the defaults). */
    async choicesOf(userIds: number[]) {
      if (userIds.length === 0) return { preferences: [], follows: [] };
      const [preferences, follows] = await Promise.all([
        db.selectFrom("notification_preferences").selectAll().where("user_id", "in", userIds).execute(),
        db
          .selectFrom("follows")
          .select(["user_id", "kind", "category_id", "delivery"])
          .where("user_id", "in", userIds)
          .orderBy("id")
          .execute(),
      ]);
      return { preferences, follows };
    },
    /** Accounts with an instant follow that these events reach, after `afterId`, by id. */
    async instantFollowersAfter(
      reach: { news: boolean; meetings: boolean; categories: number[] },
      afterId: number,
      limit: number,
    ): Promise<number[]> {
      const rows = await db
        .selectFrom("follows")
        .select("user_id")
        .distinct()
        .where("delivery", "=", "instant")
        .where("user_id", ">", afterId)
        .where((eb) =>
          eb.or([
            ...(reach.news ? [eb("kind", "=", "news")] : []),
            ...(reach.meetings ? [eb("kind", "=", "meetings")] : []),
            ...(reach.categories.length
              ? [eb.and([eb("kind", "=", "category"), eb("category_id", "in", reach.categories)])]
              : []),
            sql<SqlBool>`1 = 0`,
          ]),
        )
        .orderBy("user_id")
        .limit(limit)
        .execute();
      return rows.map((r) => r.user_id);
    },
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
