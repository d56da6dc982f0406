import type { Kysely } from "kysely";
import type { Database } from "../../db/types";

/** How many runs of each job the log keeps; older ones are removed as new ones finish. */
export const RUNS_KEPT_PER_JOB = 200;

/**
 * Leases and the run log of scheduled jobs (decision 0045). Every take of a lease is one UPDATE
 * whose WHERE says when it may be taken, and whose row count says whether it was: two processes
 * (or two runners of one process) can never both take it, on SQLite or PostgreSQL.
 */
export function createJobsRepository(db: Kysely<Database>) {
  return {
    /**
     * Adds the rows of jobs that have none; a new job counts `completedDue` (its latest due time
     * before now) as done, so it first runs at its next due time rather than at once.
     */
    async ensure(rows: { name: string; completedDue: string | null }[], now: string) {
      for (const row of rows) {
        await db
          .insertInto("jobs")
          .values({ name: row.name, claimed_due: row.completedDue, completed_due: row.completedDue, created_at: now })
          .onConflict((oc) => oc.column("name").doNothing())
          .execute();
      }
    },

    /**
     * Takes the lease to run `name` for the due time `due`: only while that due time's run has
     * not ended and nobody's lease is alive. True when this call took it.
     */
    async claimDue(name: string, due: string, now: string, leasedUntil: string, runner: string): Promise<boolean> {
      const result = await db
        .updateTable("jobs")
        .set({ claimed_due: due, leased_until: leasedUntil, leased_by: runner })
        .where("name", "=", name)
        .where((eb) => eb.or([eb("completed_due", "is", null), eb("completed_due", "<", due)]))
        .where((eb) => eb.or([eb("leased_until", "is", null), eb("leased_until", "<=", now)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Takes the lease for a run started by hand: whenever nobody's lease is alive. */
    async claimManual(name: string, now: string, leasedUntil: string, runner: string): Promise<boolean> {
      const result = await db
        .updateTable("jobs")
        .set({ leased_until: leasedUntil, leased_by: runner })
        .where("name", "=", name)
        .where((eb) => eb.or([eb("leased_until", "is", null), eb("leased_until", "<=", now)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Keeps a running job's lease alive; false when it is no longer this runner's. */
    async renew(name: string, runner: string, leasedUntil: string): Promise<boolean> {
      const result = await db
        .updateTable("jobs")
        .set({ leased_until: leasedUntil })
        .where("name", "=", name)
        .where("leased_by", "=", runner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Gives the lease back; with `completedDue`, that due time's run has ended (ok or failed) and
     * is not owed any more. False when the lease was not this runner's any more.
     */
    async release(name: string, runner: string, completedDue?: string): Promise<boolean> {
      const result = await db
        .updateTable("jobs")
        .set({ leased_until: null, leased_by: null, ...(completedDue ? { completed_due: completedDue } : {}) })
        .where("name", "=", name)
        .where("leased_by", "=", runner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async find(name: string) {
      return db.selectFrom("jobs").selectAll().where("name", "=", name).executeTakeFirst();
    },

    async startRun(run: { job_name: string; due_at: string | null; runner: string; started_at: string }) {
      const row = await db.insertInto("job_runs").values(run).returning("id").executeTakeFirstOrThrow();
      return row.id;
    },

    async finishRun(
      id: number,
      end: { finished_at: string; outcome: "ok" | "failed"; summary: string | null; error: string | null },
    ) {
      await db.updateTable("job_runs").set(end).where("id", "=", id).execute();
    },

    /**
     * Runs of `name` that another runner left unfinished: taken over with its lease, so their
     * runner stopped (or stalled past its lease) before it could say how they ended.
     */
    async endAbandonedRuns(name: string, runner: string, now: string, error: string) {
      await db
        .updateTable("job_runs")
        .set({ finished_at: now, outcome: "failed", error })
        .where("job_name", "=", name)
        .where("finished_at", "is", null)
        .where("runner", "!=", runner)
        .execute();
    },

    /** Removes all but the newest RUNS_KEPT_PER_JOB runs of a job. */
    async pruneRuns(name: string) {
      const oldestKept = await db
        .selectFrom("job_runs")
        .select("id")
        .where("job_name", "=", name)
        .orderBy("id", "desc")
        .offset(RUNS_KEPT_PER_JOB - 1)
        .limit(1)
        .executeTakeFirst();
      if (oldestKept)
        await db.deleteFrom("job_runs").where("job_name", "=", name).where("id", "<", oldestKept.id).execute();
    },

    async lastRun(name: string) {
      return db
        .selectFrom("job_runs")
        .selectAll()
        .where("job_name", "=", name)
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
    },

    /** The newest runs of a job, newest first. */
    async runs(name: string, limit: number) {
      return db
        .selectFrom("job_runs")
        .selectAll()
        .where("job_name", "=", name)
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
    },
  };
}
export type JobsRepository = ReturnType<typeof createJobsRepository>;
