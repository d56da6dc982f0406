import { sql } from "kysely";
import { type AnyDb, notNull, withId } from "./dialect";

/**
 * Outgoing mail waits in the database until it is sent: a visitor's request
 * is never lost to a mail server that is down, every process can deliver,
 * and the admin sees what was sent and what failed.
 */
export async function up(db: AnyDb): Promise<void> {
  const ts = (name: string) => [name, "text", notNull] as const;
  await withId(db, db.schema.createTable("mail_queue"))
    .addColumn("join_request_id", "integer", (c) => c.references("join_requests.id").onDelete("cascade"))
    .addColumn("purpose", "text", notNull)
    .addColumn("to_address", "text", notNull)
    .addColumn("reply_to", "text")
    .addColumn("subject", "text", notNull)
    .addColumn("body_text", "text", notNull)
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'sending', 'sent', 'failed')`))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn(...ts("next_attempt_at"))
    .addColumn("locked_until", "text")
    .addColumn("last_error", "text")
    .addColumn("sent_at", "text")
    .addColumn(...ts("created_at"))
    .execute();
  await db.schema.createIndex("mail_queue_due_idx").on("mail_queue").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("mail_queue_request_idx").on("mail_queue").column("join_request_id").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("mail_queue").execute();
}
