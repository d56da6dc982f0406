import { sql } from "kysely";
import { type AnyDb, notNull, withId } from "./dialect";

/**
 * Applications become members (issue 31, decision 0047).
 * - join_requests.status: a membership application's state, 'new', 'approved' or 'declined';
 *   null for the other kinds (registrations and messages keep their own flow). Existing
 *   applications become 'new' (whether one was approved or declined cannot be told from the row;
 *   the handled flag they have stays as it is). Indexed with (created_at, id) for the inbox's filter.
 * - join_request_events: a request's history after it arrived (its arrival is the row's
 *   created_at; its mails are mail_queue rows with its id): who approved or declined it and when,
 *   the company it was approved into and the reason it was declined. The actor's and the
 *   company's names are kept as they were, so the history still reads after either is deleted.
 */
const STATUSES = sql`status in ('new', 'approved', 'declined')`;
const EVENTS = sql`event in ('approved', 'declined')`;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("join_requests")
    .addColumn("status", "text", (c) => c.check(STATUSES))
    .execute();
  await sql`update join_requests set status = 'new' where kind = 'join'`.execute(db);
  await db.schema
    .createIndex("join_requests_status_idx")
    .on("join_requests")
    .columns(["status", "created_at", "id"])
    .execute();
  await withId(db, db.schema.createTable("join_request_events"))
    .addColumn("join_request_id", "integer", (c) => c.notNull().references("join_requests.id").onDelete("cascade"))
    .addColumn("event", "text", (c) => c.notNull().check(EVENTS))
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("user_name", "text", notNull)
    .addColumn("company_id", "integer", (c) => c.references("member_companies.id").onDelete("set null"))
    .addColumn("company_name", "text")
    .addColumn("reason", "text")
    .addColumn("created_at", "text", notNull)
    .execute();
  await db.schema
    .createIndex("join_request_events_request_idx")
    .on("join_request_events")
    .columns(["join_request_id", "id"])
    .execute();
}

/**
 * Back to the inbox without states. Decisions are not dropped in silence: while any application
 * is approved or declined, undoing is refused with how many there are.
 */
export async function down(db: AnyDb): Promise<void> {
  const { rows } = await sql<{ n: number | string }>`
    select count(*) as n from join_requests where status in ('approved', 'declined')`.execute(db);
  const decided = Number(rows[0]?.n ?? 0);
  if (decided > 0) {
    throw new Error(
      `Migration 0016 cannot be undone: ${decided} ${decided === 1 ? "application was" : "applications were"} approved or declined, and the inbox as it was cannot hold that. Export and delete them first.`,
    );
  }
  await db.schema.dropTable("join_request_events").execute();
  await db.schema.dropIndex("join_requests_status_idx").execute();
  await db.schema.alterTable("join_requests").dropColumn("status").execute();
}
