import type { AnyDb } from "./dialect";

/**
 * Audiences by working group (issue 36, decision 0083). A library category or a meeting that is
 * not public (`papers_categories.is_public = 0`, `meetings.visibility = 'members'`) and has rows
 * here is for those groups' members only (admins and editors see everything); without rows it is
 * for all members, as before. Sub-categories that inherit (`is_public` null) inherit the groups.
 *
 * A search entry of the members' audience with rows in `search_document_groups` is found only by
 * members of those groups: the audience column keeps its two values, so that nothing of the index
 * (FTS5's triggers, the GIN index) is rebuilt.
 *
 * A group cannot be deleted while a category or a meeting names it (restrict): the service says
 * which first. Deleting a category, a meeting or a search entry removes its rows (cascade).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("category_groups")
    .addColumn("category_id", "integer", (c) => c.notNull().references("paper_categories.id").onDelete("cascade"))
    .addColumn("group_id", "integer", (c) => c.notNull().references("working_groups.id").onDelete("restrict"))
    .addPrimaryKeyConstraint("category_groups_pk", ["category_id", "group_id"])
    .execute();
  await db.schema.createIndex("category_groups_group_idx").on("category_groups").column("group_id").execute();
  await db.schema
    .createTable("meeting_groups")
    .addColumn("meeting_id", "integer", (c) => c.notNull().references("meetings.id").onDelete("cascade"))
    .addColumn("group_id", "integer", (c) => c.notNull().references("working_groups.id").onDelete("restrict"))
    .addPrimaryKeyConstraint("meeting_groups_pk", ["meeting_id", "group_id"])
    .execute();
  await db.schema.createIndex("meeting_groups_group_idx").on("meeting_groups").column("group_id").execute();
  await db.schema
    .createTable("search_document_groups")
    .addColumn("document_id", "integer", (c) => c.notNull().references("search_documents.id").onDelete("cascade"))
    .addColumn("group_id", "integer", (c) => c.notNull().references("working_groups.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("search_document_groups_pk", ["document_id", "group_id"])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("search_document_groups").execute();
  await db.schema.dropTable("meeting_groups").execute();
  await db.schema.dropTable("category_groups").execute();
}
