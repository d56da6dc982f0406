import { type Insertable, type Kysely, sql } from "kysely";
import type { Dialect } from "../../db/connect";
import type { AnnouncementsTable, Database } from "../../db/types";
import { isCurrent } from "../members/current";

/** An arbitrary key for PostgreSQL's advisory lock: the announcements' pace is scheduled one at a time. */
const PACE_LOCK = 330_066;

export function createAnnouncementsRepository(db: Kysely<Database>, dialect: Dialect) {
  /**
   * Active accounts with members' access (core/access/access.ts: admins, members without a
   * company, representatives of a current company) who have not turned announcements off; for a
   * membership type, the representatives of current companies of that type.
   */
  function recipients(audience: string, cutoff: string) {
    let query = db
      .selectFrom("users")
      .leftJoin("company_representatives as representative", "representative.user_id", "users.id")
      .leftJoin("member_companies as company", "company.id", "representative.company_id")
      .leftJoin("notification_preferences as preferences", "preferences.user_id", "users.id")
      .where("users.is_active", "=", 1)
      .where((eb) => eb.or([eb("preferences.announcements", "is", null), eb("preferences.announcements", "=", 1)]));
    query =
      audience === "all"
        ? query.where((eb) =>
            eb.or([eb("users.role", "=", "admin"), eb("company.id", "is", null), isCurrent("company", cutoff)]),
          )
        : query.where("company.membership_type", "=", audience as "full").where(isCurrent("company", cutoff));
    return query;
  }

  return {
    /** Holds the pace's schedule for this transaction: another announcement waits for it to commit. */
    async lockPace(): Promise<void> {
      if (dialect === "postgres") await sql`select pg_advisory_xact_lock(${PACE_LOCK})`.execute(db);
      // SQLite: a write takes the database's one write lock at once (the statement changes nothing).
      else await db.updateTable("announcements").set({ recipients: 0 }).where("id", "=", -1).execute();
    },
    latestOf(postId: number) {
      return db
        .selectFrom("announcements")
        .selectAll()
        .where("post_id", "=", postId)
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
    },
    /** The last time an announcement's mail still waiting is set to leave: the pace goes on after it. */
    async lastPacedSlot(): Promise<string | null> {
      const row = await db
        .selectFrom("mail_queue")
        .select((eb) => eb.fn.max("next_attempt_at").as("last"))
        .where("status", "=", "pending")
        .where("announcement_id", "is not", null)
        // First sends only: a mail waiting to be retried (up to 12 h on) holds no slot of the pace.
        .where("attempts", "=", 0)
        .executeTakeFirst();
      return (row?.last as string | null | undefined) ?? null;
    },
    async insert(row: Omit<Insertable<AnnouncementsTable>, "id">): Promise<number> {
      const inserted = await db.insertInto("announcements").values(row).returning("id").executeTakeFirstOrThrow();
      return inserted.id;
    },
    async setRecipients(id: number, recipients: number) {
      await db.updateTable("announcements").set({ recipients }).where("id", "=", id).execute();
    },
    recipientsAfter(audience: string, afterId: number, limit: number, cutoff: string) {
      return recipients(audience, cutoff)
        .select(["users.id", "users.email", "users.first_name"])
        .where("users.id", ">", afterId)
        .orderBy("users.id")
        .limit(limit)
        .execute();
    },
    async countRecipients(audience: string, cutoff: string): Promise<number> {
      const row = await recipients(audience, cutoff)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** Each sending of the post, newest first, with its mails counted by where they are. */
    async progressOf(postId: number) {
      const rows = await db
        .selectFrom("announcements")
        .leftJoin("users", "users.id", "announcements.sent_by")
        .leftJoin("mail_queue", "mail_queue.announcement_id", "announcements.id")
        .select((eb) => [
          "announcements.id",
          "announcements.audience",
          "announcements.recipients",
          "announcements.created_at",
          "users.first_name",
          "users.last_name",
          eb.fn
            .count<number>("mail_queue.id")
            .filterWhere("mail_queue.status", "in", ["pending", "sending"])
            .as("pending"),
          eb.fn.count<number>("mail_queue.id").filterWhere("mail_queue.status", "=", "sent").as("sent"),
          eb.fn.count<number>("mail_queue.id").filterWhere("mail_queue.status", "=", "failed").as("failed"),
        ])
        .where("announcements.post_id", "=", postId)
        .groupBy([
          "announcements.id",
          "announcements.audience",
          "announcements.recipients",
          "announcements.created_at",
          "users.first_name",
          "users.last_name",
        ])
        .orderBy("announcements.id", "desc")
        .execute();
      return rows.map((r) => ({
        id: r.id,
        audience: r.audience,
        recipients: r.recipients,
        created_at: r.created_at,
        sent_by: r.first_name === null ? null : `${r.first_name} ${r.last_name ?? ""}`.trim(),
        pending: Number(r.pending),
        sent: Number(r.sent),
        failed: Number(r.failed),
      }));
    },
  };
}
export type AnnouncementsRepository = ReturnType<typeof createAnnouncementsRepository>;
