import { sql } from "kysely";
import { type AnyDb, notNull, withId } from "./dialect";

/**
 * Scheduled jobs (decision 0045).
 * - jobs: one row per job name, its lease. A process runs a job for a due time only if one UPDATE
 *   takes the row (the due time not completed yet and no live lease); `completed_due` moves on when
 *   the run ends, so a run whose process died is taken again once `leased_until` has passed.
 * - job_runs: what each run did: when, for which due time (null: started by hand), by which process,
 *   its outcome (null while it runs) and a short summary or the error.
 * Times are ISO 8601 text in UTC, as everywhere (decision 0001).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("jobs")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("claimed_due", "text")
    .addColumn("completed_due", "text")
    .addColumn("leased_until", "text")
    .addColumn("leased_by", "text")
    .addColumn("created_at", "text", notNull)
    .execute();
  await withId(db, db.schema.createTable("job_runs"))
    .addColumn("job_name", "text", notNull)
    .addColumn("due_at", "text")
    .addColumn("runner", "text", notNull)
    .addColumn("started_at", "text", notNull)
    .addColumn("finished_at", "text")
    .addColumn("outcome", "text", (c) => c.check(sql`outcome in ('ok', 'failed')`))
    .addColumn("summary", "text")
    .addColumn("error", "text")
    .execute();
  await db.schema.createIndex("job_runs_job_idx").on("job_runs").columns(["job_name", "id"]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("job_runs").execute();
  await db.schema.dropTable("jobs").execute();
}
