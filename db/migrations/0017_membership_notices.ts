import { sql } from "kysely";
import { type AnyDb, notNull, withId } from "./dialect";

/**
 * Renewal reminders and lapse notices sent (decision 0049): one row per company, kind and renews_on,
 * inserted in the same transaction as the notice's mails. The unique key is what makes "once" hold
 * across processes and repeated runs: a second insert for the same company, kind and date does
 * nothing, and then no mail is queued. A renewal moves renews_on, so the next reminder is a new key.
 * Rows go with their company.
 */
export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable("membership_notices"))
    .addColumn("company_id", "integer", (c) => c.notNull().references("member_companies.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('reminder', 'lapse')`))
    .addColumn("renews_on", "text", notNull)
    .addColumn("recipients", "integer", notNull)
    .addColumn("created_at", "text", notNull)
    .addUniqueConstraint("membership_notices_once", ["company_id", "kind", "renews_on"])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("membership_notices").execute();
}
