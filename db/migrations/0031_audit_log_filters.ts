import type { AnyDb } from "./dialect";

/**
 * The audit log's filters at scale (issue 34; measured with 100 000 rows in BENCHMARKS.md): a kind
 * of entity, an action, or both, each newest first from its own index, and counted from it, not by
 * reading every row of the kind to check its action.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex("audit_log_entity_kind_idx").on("audit_log").columns(["entity", "id"]).execute();
  await db.schema.createIndex("audit_log_action_idx").on("audit_log").columns(["action", "id"]).execute();
  await db.schema
    .createIndex("audit_log_entity_action_idx")
    .on("audit_log")
    .columns(["entity", "action", "id"])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex("audit_log_entity_action_idx").execute();
  await db.schema.dropIndex("audit_log_action_idx").execute();
  await db.schema.dropIndex("audit_log_entity_kind_idx").execute();
}
