import { type AnyDb, notNull, withId } from "./dialect";

/**
 * Meeting reminders sent (issue 32): one row per registration and meeting start date, inserted in
 * the same transaction as the reminder's mail. The unique key is what makes "once" hold across
 * processes and repeated runs of the meeting-reminders job, as membership_notices does for renewals
 * (decision 0049): a second insert for the same registration and start does nothing, and then no
 * mail is queued. A meeting moved to another date is owed a reminder for its new date. Rows go
 * with their registration.
 */
export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable("meeting_reminders"))
    .addColumn("join_request_id", "integer", (c) => c.notNull().references("join_requests.id").onDelete("cascade"))
    .addColumn("meeting_start", "text", notNull)
    .addColumn("created_at", "text", notNull)
    .addUniqueConstraint("meeting_reminders_once", ["join_request_id", "meeting_start"])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("meeting_reminders").execute();
}
