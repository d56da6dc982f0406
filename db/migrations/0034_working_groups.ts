import { sql } from "kysely";
import { type AnyDb, notNull, withId } from "./dialect";

/**
 * Working groups (issue 36): committees, working groups, the board. A group has members (users),
 * some of whom chair it. What a group may see (library categories, meetings by audience) comes
 * with its own migration.
 */
export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable("working_groups"))
    .addColumn("name", "text", notNull)
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text", notNull)
    .addColumn("updated_at", "text", notNull)
    .execute();
  await db.schema.createIndex("working_groups_name_idx").on("working_groups").column("name").execute();
  await db.schema
    .createTable("group_members")
    .addColumn("group_id", "integer", (c) => c.notNull().references("working_groups.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("is_chair", "integer", (c) => c.notNull().defaultTo(0).check(sql`is_chair in (0, 1)`))
    .addColumn("created_at", "text", notNull)
    .addPrimaryKeyConstraint("group_members_pk", ["group_id", "user_id"])
    .execute();
  // A person's groups (every request of theirs that decides by group reads them).
  await db.schema.createIndex("group_members_user_idx").on("group_members").columns(["user_id", "group_id"]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("group_members").execute();
  await db.schema.dropTable("working_groups").execute();
}
