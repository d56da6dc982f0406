import type { AnyDb } from "./dialect";

/**
 * When a session was last used, for the idle timeout (decision 0017). Null
 * means "not since it was created": rows written before this migration, or by a
 * process still running the previous version during a rolling deploy, count
 * from their created_at instead of being ended at once.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("last_seen_at", "text").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("sessions").dropColumn("last_seen_at").execute();
}
