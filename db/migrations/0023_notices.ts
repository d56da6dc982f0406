import { type AnyDb, notNull, withId } from "./dialect";

/**
 * Notices and digests of what members follow (issue 33, decision 0065).
 *
 * `notification_events`: one row per thing worth telling (a new paper or revision in a category, a
 * news post, a new meeting, a meeting's new time or place), written in the transaction of the
 * write it reports. Only ids: what a mail says is read when it is sent, for the member it goes to.
 *
 * `notification_batches`: a run of one channel (instant notices, the daily or the weekly digest)
 * over a range of events, (from_event_id, to_event_id], one per channel and period; done_at is set
 * once every member's mail is queued. `notification_deliveries`: the members a batch has queued a
 * mail for (or found nothing for), written with the mail, so that a batch taken up again after a
 * crash neither repeats nor loses one.
 *
 * `mail_queue.list_unsubscribe`: the one-click unsubscribe address of a notice, digest or
 * announcement (RFC 8058), sent as its List-Unsubscribe header.
 *
 * `users.library_feed_token_hash`: SHA-256 of the secret in the member's private feed of the
 * categories they follow (as calendar_token_hash, migration 0008).
 *
 * `announcements`: a news post sent to the members by e-mail (to all, or to one membership type),
 * by whom and when, and to how many; its mails carry `mail_queue.announcement_id`, so that its
 * progress (queued, sent, failed) is counted from the queue itself.
 */
export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable("notification_events"))
    .addColumn("kind", "text", notNull)
    .addColumn("ref_id", "integer", notNull)
    .addColumn("category_id", "integer")
    .addColumn("created_at", "text", notNull)
    .execute();
  await withId(db, db.schema.createTable("notification_batches"))
    .addColumn("channel", "text", notNull)
    .addColumn("period", "text", notNull)
    .addColumn("from_event_id", "integer", notNull)
    .addColumn("to_event_id", "integer", notNull)
    .addColumn("created_at", "text", notNull)
    .addColumn("done_at", "text")
    .addUniqueConstraint("notification_batches_once", ["channel", "period"])
    .execute();
  await db.schema
    .createTable("notification_deliveries")
    .addColumn("batch_id", "integer", (c) => c.notNull().references("notification_batches.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("items", "integer", notNull)
    .addColumn("created_at", "text", notNull)
    .addPrimaryKeyConstraint("notification_deliveries_pk", ["batch_id", "user_id"])
    .execute();
  await db.schema.alterTable("mail_queue").addColumn("list_unsubscribe", "text").execute();
  await db.schema.alterTable("users").addColumn("library_feed_token_hash", "text").execute();
  await withId(db, db.schema.createTable("announcements"))
    .addColumn("post_id", "integer", (c) => c.notNull().references("news_posts.id").onDelete("cascade"))
    .addColumn("audience", "text", notNull)
    .addColumn("recipients", "integer", notNull)
    .addColumn("sent_by", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", notNull)
    .execute();
  await db.schema.createIndex("announcements_post_idx").on("announcements").column("post_id").execute();
  // No foreign key: SQLite cannot drop a column that has one (down), and a mail outlives its record.
  await db.schema.alterTable("mail_queue").addColumn("announcement_id", "integer").execute();
  await db.schema
    .createIndex("mail_queue_announcement_idx")
    .on("mail_queue")
    .columns(["announcement_id", "status"])
    .execute();
  await db.schema
    .createIndex("users_library_feed_token_idx")
    .on("users")
    .column("library_feed_token_hash")
    .unique()
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex("mail_queue_announcement_idx").execute();
  await db.schema.alterTable("mail_queue").dropColumn("announcement_id").execute();
  await db.schema.dropTable("announcements").execute();
  await db.schema.dropIndex("users_library_feed_token_idx").execute();
  await db.schema.alterTable("users").dropColumn("library_feed_token_hash").execute();
  await db.schema.alterTable("mail_queue").dropColumn("list_unsubscribe").execute();
  await db.schema.dropTable("notification_deliveries").execute();
  await db.schema.dropTable("notification_batches").execute();
  await db.schema.dropTable("notification_events").execute();
}
