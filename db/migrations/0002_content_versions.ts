import type { AnyDb } from "./dialect";

/**
 * A counter that moves whenever published content may have changed. Every
 * process compares it with the version its in-memory page cache was built
 * from, so a change made through any process is seen on the next request.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("content_versions")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("version", "integer", (c) => c.notNull())
    .execute();
  await db.insertInto("content_versions").values({ name: "site", version: 1 }).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("content_versions").execute();
}
