import { sql } from "kysely";
import { type AnyDb, notNull } from "./dialect";

/**
 * Personal data (issue 35):
 * - `join_requests.privacy_revision` / `privacy_shown_at`: which revision of the Privacy Policy page
 *   the form showed beside its send button, and when (the record of consent); `anonymised_at`: when
 *   the person's details were erased (on request, or by the retention job), the rest kept for counts.
 * - `spent_challenges`: the proof-of-work challenges already solved once (ALTCHA), by a hash of their
 *   signature, until they expire: a solution is good once, in every process.
 * - `mail_bounces`: addresses a mail server refused for good (a 5xx answer): nothing is sent to them
 *   again until the secretariat lifts the mark.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("join_requests").addColumn("privacy_revision", "integer").execute();
  await db.schema.alterTable("join_requests").addColumn("privacy_shown_at", "text").execute();
  await db.schema.alterTable("join_requests").addColumn("anonymised_at", "text").execute();
  await db.schema
    .createTable("spent_challenges")
    .addColumn("signature_hash", "text", (c) => c.primaryKey())
    .addColumn("expires_at", "text", notNull)
    .execute();
  await db.schema.createIndex("spent_challenges_expiry_idx").on("spent_challenges").column("expires_at").execute();
  await db.schema
    .createTable("mail_bounces")
    .addColumn("address", "text", (c) => c.primaryKey())
    .addColumn("reason", "text", notNull)
    .addColumn("mail_id", "integer")
    .addColumn("created_at", "text", notNull)
    .execute();
  // The retention job reads sent mail by its age, and requests by theirs.
  await db.schema.createIndex("mail_queue_sent_at_idx").on("mail_queue").column("sent_at").execute();
  // A person's data is found by their address, whatever its case.
  await db.schema
    .createIndex("mail_queue_to_address_idx")
    .on("mail_queue")
    .expression(sql`lower(to_address)`)
    .execute();
  await db.schema.createIndex("join_requests_email_idx").on("join_requests").expression(sql`lower(email)`).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex("join_requests_email_idx").execute();
  await db.schema.dropIndex("mail_queue_to_address_idx").execute();
  await db.schema.dropIndex("mail_queue_sent_at_idx").execute();
  await db.schema.dropTable("mail_bounces").execute();
  await db.schema.dropIndex("spent_challenges_expiry_idx").execute();
  await db.schema.dropTable("spent_challenges").execute();
  await db.schema.alterTable("join_requests").dropColumn("anonymised_at").execute();
  await db.schema.alterTable("join_requests").dropColumn("privacy_shown_at").execute();
  await db.schema.alterTable("join_requests").dropColumn("privacy_revision").execute();
}
