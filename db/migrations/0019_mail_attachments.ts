import type { AnyDb } from "./dialect";

/**
 * Calendar invitations for meeting registrations (issue 32, decision 0053).
 * - mail_queue.attachments: a queued mail's attachments as JSON text, an array of
 *   { filename, contentType, content, encoding, method? } (content as UTF-8 text or base64; method set
 *   for the one calendar invitation part). Null for a mail without any, which every mail so far is.
 *   Written in the same insert as its mail and read only with it, so it lives in the row.
 * - join_requests.invitation_sequence: the SEQUENCE of the last calendar invitation sent for a
 *   registration; it rises with each update, so calendar apps replace the event instead of adding one.
 * Independent of 0018: it touches no column that migration adds.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("mail_queue").addColumn("attachments", "text").execute();
  await db.schema
    .alterTable("join_requests")
    .addColumn("invitation_sequence", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("join_requests").dropColumn("invitation_sequence").execute();
  await db.schema.alterTable("mail_queue").dropColumn("attachments").execute();
}
