import type { AnyDb } from "./dialect";

/**
 * One row that /readyz rewrites: a real write, so that a database that still
 * answers reads but cannot write (a full disk) is reported as not ready.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("write_probe")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("written_at", "text", (c) => c.notNull())
    .execute();
  await db
    .insertInto("write_probe")
    .values({ id: 1, written_at: new Date(0).toISOString() })
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("write_probe").execute();
}
