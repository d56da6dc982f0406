import { type AnyDb, notNull, withId } from "./dialect";

/**
 * The links that let a registrant see and cancel their registration without an account (issue 32):
 * `/registrations/{token}`. Only the token's SHA-256 is kept, as for password links; every mail to
 * the registrant carries a link of its own (so that a link in an earlier mail keeps working), each
 * valid until the meeting has ended (the day after its last day begins, in its zone). Rows go with
 * their registration.
 */
export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable("registration_links"))
    .addColumn("join_request_id", "integer", (c) => c.notNull().references("join_requests.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("expires_at", "text", notNull)
    .addColumn("created_at", "text", notNull)
    .execute();
  await db.schema
    .createIndex("registration_links_request_idx")
    .on("registration_links")
    .column("join_request_id")
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("registration_links").execute();
}
