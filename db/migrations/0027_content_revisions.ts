import { sql } from "kysely";
import { type AnyDb, notNull, withId } from "./dialect";

/**
 * Revisions (issue 34, decision 0073): every save of a news post, a CMS page, a meeting's texts and
 * a library category keeps the fields as saved, who saved them and when. `entity_id` is the row's
 * id; the revisions go with their row (its service deletes them in the same transaction). The
 * author is kept by name too, so that a revision still says who after their account is deleted.
 * `restored_from`: the revision a restore copied.
 */
export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable("content_revisions"))
    .addColumn("entity", "text", (c) => c.notNull().check(sql`entity in ('news', 'page', 'meeting', 'category')`))
    .addColumn("entity_id", "integer", notNull)
    .addColumn("actor_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("actor_name", "text", notNull)
    .addColumn("fields", "text", notNull)
    .addColumn("restored_from", "integer")
    .addColumn("created_at", "text", notNull)
    .execute();
  await db.schema
    .createIndex("content_revisions_entity_idx")
    .on("content_revisions")
    .columns(["entity", "entity_id", "id"])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("content_revisions").execute();
}
