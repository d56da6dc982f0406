import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import type { Database, Executor } from "../../db/types";

/** An address as it is compared: whatever its case (the indexes of migration 0032 are on lower()). */
const folded = (email: string) => email.trim().toLowerCase();

/** Whose data is read: an address, and the account it belongs to when there is one. */
export type DataSubject = { email: string; userId: number | null };

/**
 * Everything the site holds about a person, found by their address or their account (issue 35):
 * the SQL of the export, the secretariat's search and the erasure.
 */
/** The audit rows about a person: made with their account, on their account, or on their requests. */
function auditAbout(
  eb: ExpressionBuilder<Database, "audit_log">,
  subject: DataSubject,
  requestIds: readonly number[],
): Expression<SqlBool> {
  const about: Expression<SqlBool>[] = [];
  if (subject.userId !== null) {
    about.push(eb("actor_id", "=", subject.userId));
    about.push(eb.and([eb("entity", "=", "user"), eb("entity_id", "=", String(subject.userId))]));
  }
  if (requestIds.length > 0) {
    about.push(eb.and([eb("entity", "=", "request"), eb("entity_id", "in", requestIds.map(String))]));
  }
  return about.length > 0 ? eb.or(about) : sql<SqlBool>`1 = 0`;
}

export function createPrivacyRepository(db: Executor) {
  const requestsWhere = (subject: DataSubject) =>
    db
      .selectFrom("join_requests")
      .where("join_requests.anonymised_at", "is", null)
      .where((eb) => {
        const byAddress: Expression<SqlBool> = eb(sql`lower(join_requests.email)`, "=", folded(subject.email));
        return subject.userId === null
          ? byAddress
          : eb.or([byAddress, eb("join_requests.user_id", "=", subject.userId)]);
      });

  return {
    async userByEmail(email: string) {
      return db.selectFrom("users").selectAll().where(sql`lower(email)`, "=", folded(email)).executeTakeFirst();
    },

    async userById(id: number) {
      return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    },

    /** Join requests, registrations and messages from this address or account, not yet erased; oldest first. */
    async requests(subject: DataSubject) {
      return requestsWhere(subject)
        .leftJoin("meetings", "meetings.id", "join_requests.meeting_id")
        .select([
          "join_requests.id",
          "join_requests.kind",
          "join_requests.meeting_id",
          "meetings.title as meeting_title",
          "meetings.start_date as meeting_start",
          "meetings.end_date as meeting_end",
          "join_requests.company_name",
          "join_requests.representative_name",
          "join_requests.email",
          "join_requests.phone_number",
          "join_requests.subject",
          "join_requests.message",
          "join_requests.note",
          "join_requests.status",
          "join_requests.registration_status",
          "join_requests.attended_at",
          "join_requests.handled_at",
          "join_requests.page_path",
          "join_requests.ip",
          "join_requests.spam_reason",
          "join_requests.user_id",
          "join_requests.privacy_revision",
          "join_requests.privacy_shown_at",
          "join_requests.created_at",
        ])
        .orderBy("join_requests.created_at")
        .orderBy("join_requests.id")
        .execute();
    },

    /** The mails to this address or about these requests: waiting, sent (the outbox) or failed. */
    async mails(email: string, requestIds: readonly number[]) {
      return db
        .selectFrom("mail_queue")
        .select([
          "id",
          "purpose",
          "to_address",
          "subject",
          "body_text",
          "status",
          "attempts",
          "last_error",
          "created_at",
          "sent_at",
          "join_request_id",
        ])
        .where((eb) => {
          const toAddress: Expression<SqlBool> = eb(sql`lower(to_address)`, "=", folded(email));
          return requestIds.length === 0 ? toAddress : eb.or([toAddress, eb("join_request_id", "in", [...requestIds])]);
        })
        .orderBy("created_at")
        .orderBy("id")
        .execute();
    },

    async bounce(email: string) {
      return db.selectFrom("mail_bounces").selectAll().where("address", "=", folded(email)).executeTakeFirst();
    },

    async sessions(userId: number) {
      return db
        .selectFrom("sessions")
        .select(["created_at", "last_seen_at", "expires_at", "ip", "user_agent", "remember"])
        .where("user_id", "=", userId)
        .orderBy("created_at")
        .execute();
    },

    /** The working groups the person is in (issue 36), and whether they chair each. */
    async groups(userId: number) {
      return db
        .selectFrom("group_members")
        .innerJoin("working_groups", "working_groups.id", "group_members.group_id")
        .select(["working_groups.id", "working_groups.name", "group_members.is_chair", "group_members.created_at"])
        .where("group_members.user_id", "=", userId)
        .orderBy("working_groups.name")
        .execute();
    },

    async companies(userId: number) {
      return db
        .selectFrom("company_representatives")
        .innerJoin("member_companies", "member_companies.id", "company_representatives.company_id")
        .select([
          "member_companies.id",
          "member_companies.name",
          "company_representatives.is_primary",
          "company_representatives.created_at",
        ])
        .where("company_representatives.user_id", "=", userId)
        .orderBy("member_companies.name")
        .execute();
    },

    async follows(userId: number) {
      return db
        .selectFrom("follows")
        .leftJoin("paper_categories", "paper_categories.id", "follows.category_id")
        .select(["follows.kind", "paper_categories.name as category", "follows.delivery", "follows.created_at"])
        .where("follows.user_id", "=", userId)
        .orderBy("follows.id")
        .execute();
    },

    async notificationPreferences(userId: number) {
      return db
        .selectFrom("notification_preferences")
        .select(["digest", "announcements", "updated_at"])
        .where("user_id", "=", userId)
        .executeTakeFirst();
    },

    async twoFactor(userId: number) {
      const [app, passkeys] = await Promise.all([
        db.selectFrom("user_two_factor").select(["enabled_at"]).where("user_id", "=", userId).executeTakeFirst(),
        db
          .selectFrom("user_passkeys")
          .select(["name", "created_at", "last_used_at"])
          .where("user_id", "=", userId)
          .orderBy("id")
          .execute(),
      ]);
      return { enabled_at: app?.enabled_at ?? null, passkeys };
    },

    /**
     * A page of the audit rows about the person or made by them (their account's own rows, rows on
     * their account, rows on their requests), oldest first, after `afterId`: read in pages, so that
     * an admin's thousands of rows are never in memory at once.
     */
    async auditPage(subject: DataSubject, requestIds: readonly number[], afterId: number, limit: number) {
      return db
        .selectFrom("audit_log")
        .select(["id", "created_at", "actor_name", "ip", "action", "entity", "entity_id", "summary", "changes"])
        .where("id", ">", afterId)
        .where((eb) => auditAbout(eb, subject, requestIds))
        .orderBy("id")
        .limit(limit)
        .execute();
    },

    async auditCount(subject: DataSubject, requestIds: readonly number[]): Promise<number> {
      const row = await db
        .selectFrom("audit_log")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where((eb) => auditAbout(eb, subject, requestIds))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** Removes the mails to this address (waiting ones are not sent); answers how many. */
    async removeMailsTo(email: string): Promise<number> {
      const result = await db
        .deleteFrom("mail_queue")
        .where(sql`lower(to_address)`, "=", folded(email))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async removeBounce(email: string): Promise<number> {
      const result = await db.deleteFrom("mail_bounces").where("address", "=", folded(email)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Deletes the account: its sessions, tokens, two-factor, passkeys, follows and company links go with it (cascades). */
    async removeUser(id: number): Promise<boolean> {
      const result = await db.deleteFrom("users").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
export type PrivacyRepository = ReturnType<typeof createPrivacyRepository>;
