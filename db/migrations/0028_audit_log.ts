import { type AnyDb, notNull, withId } from "./dialect";

/**
 * The audit log (issue 34, decision 0074): one row for every write by an admin or a company's
 * primary contact and every security event (sign-in, failed sign-in, lockout, refused access,
 * password and e-mail changes): who (id, and name kept as text), when, from which address, what
 * (action, entity type and id, a short summary), and the changed fields before and after (JSON,
 * never a secret). Append-only: nothing but the retention job deletes a row.
 */
export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable("audit_log"))
    .addColumn("created_at", "text", notNull)
    .addColumn("actor_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("actor_name", "text", notNull)
    .addColumn("ip", "text")
    .addColumn("action", "text", notNull)
    .addColumn("entity", "text", notNull)
    .addColumn("entity_id", "text")
    .addColumn("summary", "text", notNull)
    .addColumn("changes", "text")
    .execute();
  // The list is read newest first, whole or by who, by what, by which entity; the retention job by date.
  await db.schema.createIndex("audit_log_created_idx").on("audit_log").column("created_at").execute();
  await db.schema.createIndex("audit_log_actor_idx").on("audit_log").columns(["actor_id", "id"]).execute();
  await db.schema.createIndex("audit_log_entity_idx").on("audit_log").columns(["entity", "entity_id", "id"]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("audit_log").execute();
}
