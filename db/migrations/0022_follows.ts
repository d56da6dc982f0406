import { sql } from "kysely";
import { type AnyDb, notNull, withId } from "./dialect";

/**
 * What members follow and how they hear of it (issue 33). `notification_preferences` holds a
 * member's choices once they have made any (until then the defaults apply: news and meetings in
 * the weekly digest, announcements on). `follows` holds one row per thing followed: a library
 * category (with its sub-categories), the news or the meetings, delivered at once or in the digest.
 * A member follows a thing once: the unique index treats "no category" as one value on both
 * dialects. Rows go with their user and with their category.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("notification_preferences")
    .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("digest", "text", notNull)
    .addColumn("announcements", "integer", notNull)
    .addColumn("updated_at", "text", notNull)
    .execute();
  await withId(db, db.schema.createTable("follows"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", notNull)
    .addColumn("category_id", "integer", (c) => c.references("paper_categories.id").onDelete("cascade"))
    .addColumn("delivery", "text", notNull)
    .addColumn("created_at", "text", notNull)
    .execute();
  await sql`create unique index follows_once_idx on follows (user_id, kind, coalesce(category_id, 0))`.execute(db);
  await db.schema.createIndex("follows_category_idx").on("follows").columns(["kind", "category_id"]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("follows").execute();
  await db.schema.dropTable("notification_preferences").execute();
}
