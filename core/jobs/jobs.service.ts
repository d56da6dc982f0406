import { randomBytes } from "node:crypto";
import os from "node:os";
import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import { addSeconds, type Clock, systemClock } from "../../lib/clock";
import { cronProblem, latestDue, nextDue } from "../../lib/cron";
import { AppError } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import type { Services } from "../services";
import type { JobDefinition } from "./job";
import { createJobsRepository } from "./jobs.repository";

/** A run's lease lasts this long and is renewed every quarter of it while the run goes on. */
export const LEASE_SECONDS = 60;
/** The longest a runner sleeps before it looks again (a changed time zone, a clock that jumped). */
const MAX_WAIT_MS = 10 * 60_000;
/** After an error reaching the database, a job's loop waits this long before it tries again. */
const ERROR_WAIT_MS = 30_000;
const SUMMARY_MAX = 500;
const ERROR_MAX = 1000;

export type RunResult = {
  runId: number;
  job: string;
  /** The due time it ran for; null when started by hand. */
  due: string | null;
  outcome: "ok" | "failed";
  summary: string | null;
  error: string | null;
};

export type JobStatus = {
  name: string;
  description: string;
  schedule: string;
  timeZone: string;
  lastRun: {
    due_at: string | null;
    started_at: string;
    finished_at: string | null;
    outcome: "ok" | "failed" | null;
    summary: string | null;
    error: string | null;
    runner: string;
  } | null;
  nextRun: Date | null;
  /** A live lease: the job is running now, in this process or another. */
  running: { by: string; until: string } | null;
};

/** Why the run stopped early, kept as its error: its due time stays owed. */
class Stopped extends Error {}

/** The name a runner takes its leases under: host, process and a random part (two runners of one process differ). */
export function runnerName(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

/**
 * Runs the site's scheduled jobs (decision 0045). Each job has its own loop: it sleeps until the
 * job's next due time (cron, in the site's time zone), then tries to take the job's lease for that
 * due time in one UPDATE; only the process that took it runs the job. A due time missed while no
 * process ran is run once when one starts; a run whose process died is run again once its lease
 * has expired. Every run is logged in job_runs and in one log line.
 */
export function createJobRunner(deps: {
  db: Kysely<Database>;
  services: Services;
  jobs: readonly JobDefinition[];
  /** The site's public address (BASE_URL's origin), given to each run for the links in its mail. */
  origin: string;
  /** Schedules that replace the declared ones, by job name (JOBS_SCHEDULES). */
  schedules?: Record<string, string>;
  logger: Logger;
  clock?: Clock;
  /** The name leases are taken under; unique per runner by default. */
  runner?: string;
  leaseSeconds?: number;
}) {
  const clock = deps.clock ?? systemClock;
  const repository = createJobsRepository(deps.db);
  const runner = deps.runner ?? runnerName();
  const leaseSeconds = deps.leaseSeconds ?? LEASE_SECONDS;
  const logger = deps.logger;

  const jobs = new Map<string, JobDefinition>();
  for (const job of deps.jobs) {
    if (jobs.has(job.name)) throw new Error(`Two jobs are named ${job.name}.`);
    jobs.set(job.name, job);
  }
  const schedules = new Map<string, string>();
  for (const [name, pattern] of Object.entries(deps.schedules ?? {})) {
    if (!jobs.has(name))
      throw new Error(`JOBS_SCHEDULES names no job "${name}"; the jobs are: ${[...jobs.keys()].join(", ")}.`);
    const problem = cronProblem(pattern);
    if (problem) throw new Error(`JOBS_SCHEDULES: "${pattern}" for ${name} is not a cron pattern (${problem}).`);
    schedules.set(name, pattern);
  }
  const scheduleOf = (job: JobDefinition) => schedules.get(job.name) ?? job.schedule;

  const timeZone = async () => (await deps.services.settings.getAll())["site.timezone"];

  let ensured: Promise<void> | null = null;
  /** The jobs' rows, made once per runner; a new job's latest due time before now counts as done. */
  const ensureRows = () => {
    ensured ??= (async () => {
      const zone = await timeZone();
      const now = clock();
      await repository.ensure(
        [...jobs.values()].map((job) => ({
          name: job.name,
          completedDue: latestDue(scheduleOf(job), zone, now)?.toISOString() ?? null,
        })),
        now.toISOString(),
      );
    })().catch((error) => {
      ensured = null;
      throw error;
    });
    return ensured;
  };

  /** Runs being carried out by this runner (and their job's name), so that stop() can wait for them. */
  const inFlight = new Map<Promise<unknown>, string>();
  const stopController = new AbortController();

  async function execute(job: JobDefinition, due: string | null): Promise<RunResult> {
    const startedAt = clock();
    const log = logger.child({ job: job.name });
    // The process it replaces stopped without saying how its run ended: say so now.
    await repository.endAbandonedRuns(
      job.name,
      runner,
      startedAt.toISOString(),
      "The process running it stopped before it finished; its lease expired.",
    );
    const runId = await repository.startRun({
      job_name: job.name,
      due_at: due,
      runner,
      started_at: startedAt.toISOString(),
    });
    const controller = new AbortController();
    const onStop = () => controller.abort(new Stopped("The process was stopping."));
    stopController.signal.addEventListener("abort", onStop, { once: true });
    if (stopController.signal.aborted) onStop();
    const heartbeat = setInterval(
      () => {
        repository
          .renew(job.name, runner, addSeconds(clock(), leaseSeconds).toISOString())
          .then((kept) => {
            if (!kept) controller.abort(new Stopped("Its lease was taken by another process."));
          })
          .catch((error) => log.warn({ err: error }, "job lease not renewed"));
      },
      (leaseSeconds * 1000) / 4,
    );
    heartbeat.unref();
    let outcome: "ok" | "failed" = "ok";
    let summary: string | null = null;
    let error: string | null = null;
    let stopped = false;
    try {
      summary = (
        await job.run({
          services: deps.services,
          origin: deps.origin,
          now: startedAt,
          due: due ? new Date(due) : null,
          signal: controller.signal,
          log,
        })
      ).slice(0, SUMMARY_MAX);
    } catch (thrown) {
      outcome = "failed";
      stopped = controller.signal.aborted;
      const reason = stopped ? controller.signal.reason : thrown;
      const message = reason instanceof Error ? reason.message : String(reason);
      error = (stopped ? `Stopped before it finished: ${message}` : message).slice(0, ERROR_MAX);
      if (!stopped) log.error({ err: thrown, due }, "job failed");
    } finally {
      clearInterval(heartbeat);
      stopController.signal.removeEventListener("abort", onStop);
    }
    const finishedAt = clock();
    await repository.finishRun(runId, { finished_at: finishedAt.toISOString(), outcome, summary, error });
    // A run that ended, well or not, settles its due time; one stopped early leaves it owed.
    const released = await repository.release(job.name, runner, due && !stopped ? due : undefined);
    if (!released) log.warn({ due }, "job lease was taken by another process before the run ended");
    await repository.pruneRuns(job.name);
    const idle = outcome === "ok" && summary !== null && (job.idle?.(summary) ?? false);
    log[idle ? "debug" : "info"](
      { due, outcome, summary, error, ms: finishedAt.getTime() - startedAt.getTime(), runner },
      stopped ? "job stopped" : "job finished",
    );
    return { runId, job: job.name, due, outcome, summary, error };
  }

  function track<T>(name: string, work: Promise<T>): Promise<T> {
    inFlight.set(work, name);
    void work.finally(() => inFlight.delete(work)).catch(() => {});
    return work;
  }

  const jobNamed = (name: string): JobDefinition => {
    const job = jobs.get(name);
    if (!job)
      throw new AppError("not_found", `There is no job named ${name}. The jobs are: ${[...jobs.keys()].join(", ")}.`);
    return job;
  };

  type Attempt =
    | { kind: "ran"; result: RunResult }
    | { kind: "nothing_due" }
    /** Done already, or running elsewhere (`leasedUntil`): another process has it. */
    | { kind: "taken"; completedDue: string | null; leasedUntil: string | null };

  /** One try at the job's latest due time: runs it when this runner takes the lease. */
  async function attemptDue(job: JobDefinition, zone: string): Promise<Attempt> {
    const now = clock();
    const due = latestDue(scheduleOf(job), zone, now)?.toISOString();
    // A stopping runner takes no new run: the next process to look takes it.
    if (!due || stopController.signal.aborted) return { kind: "nothing_due" };
    const taken = await repository.claimDue(
      job.name,
      due,
      now.toISOString(),
      addSeconds(now, leaseSeconds).toISOString(),
      runner,
    );
    if (taken) return { kind: "ran", result: await track(job.name, execute(job, due)) };
    const row = await repository.find(job.name);
    logger.debug(
      { job: job.name, due, runner, completedDue: row?.completed_due, leasedBy: row?.leased_by },
      "job due time taken by another runner",
    );
    if (row?.completed_due && row.completed_due >= due)
      return { kind: "taken", completedDue: row.completed_due, leasedUntil: null };
    return { kind: "taken", completedDue: row?.completed_due ?? null, leasedUntil: row?.leased_until ?? null };
  }

  // The loops: one per job, each sleeping until its job's next due time.
  let started = false;
  const loops: Promise<void>[] = [];
  const wakers = new Set<() => void>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopController.signal.aborted) return resolve();
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(0, Math.min(ms, MAX_WAIT_MS)));
      // What keeps a process alive is its server, not a job waiting for its hour.
      timer.unref();
      wakers.add(wake);
    });

  async function loop(job: JobDefinition) {
    // The latest due time known to be done (by this runner or another): not asked about again.
    let settled: string | null = null;
    while (!stopController.signal.aborted) {
      let wait = MAX_WAIT_MS;
      try {
        await ensureRows();
        const zone = await timeZone();
        const now = clock();
        const due = latestDue(scheduleOf(job), zone, now)?.toISOString() ?? null;
        if (due && (!settled || settled < due)) {
          const attempt = await attemptDue(job, zone);
          if (attempt.kind === "ran") {
            settled = attempt.result.due;
            continue; // a later due time may have come while it ran
          }
          if (attempt.kind === "taken") {
            if (attempt.completedDue && attempt.completedDue >= due) settled = attempt.completedDue;
            else if (attempt.leasedUntil) {
              // Running elsewhere: look again when that lease would expire, in case its process dies.
              wait = Math.min(wait, new Date(attempt.leasedUntil).getTime() - clock().getTime() + 100);
            }
          }
        }
        const next = nextDue(scheduleOf(job), zone, clock());
        if (next) wait = Math.min(wait, next.getTime() - clock().getTime() + 5);
      } catch (error) {
        logger.error({ err: error, job: job.name }, "job runner could not reach the database; trying again");
        wait = ERROR_WAIT_MS;
      }
      await sleep(wait);
    }
  }

  return {
    runner,
    names: () => [...jobs.keys()],

    /** Starts every job's loop (the server, unless JOBS=off). */
    start() {
      if (started) return;
      started = true;
      logger.info(
        { jobs: [...jobs.values()].map((job) => ({ name: job.name, schedule: scheduleOf(job) })), runner },
        "job runner started",
      );
      for (const job of jobs.values()) loops.push(loop(job));
    },

    /**
     * Stops the loops, tells running jobs to stop at their next step (JobContext.signal) and waits
     * for them to end: their run is logged before the database closes.
     */
    async stop() {
      stopController.abort();
      for (const wake of [...wakers]) wake();
      if (inFlight.size) logger.info({ jobs: [...inFlight.values()] }, "waiting for running jobs to finish");
      await Promise.allSettled([...inFlight.keys()]);
      await Promise.allSettled(loops);
    },

    /** One try at a job's latest due time, as the loop makes it: what ran, or why nothing did. */
    async runDue(name: string): Promise<Attempt> {
      const job = jobNamed(name);
      await ensureRows();
      return attemptDue(job, await timeZone());
    },

    /**
     * Runs a job now, outside its schedule (`npm run jobs -- run NAME`): under its lease, so never
     * beside a run of the same job elsewhere (409 then); its due times are left as they were.
     */
    async runNow(name: string): Promise<RunResult> {
      const job = jobNamed(name);
      await ensureRows();
      const now = clock();
      const taken = await repository.claimManual(
        job.name,
        now.toISOString(),
        addSeconds(now, leaseSeconds).toISOString(),
        runner,
      );
      if (!taken) {
        const row = await repository.find(job.name);
        throw new AppError(
          "conflict",
          `${job.name} is running in another process (${row?.leased_by ?? "unknown"}, lease until ${row?.leased_until ?? "unknown"}); try again when it has finished.`,
        );
      }
      return track(job.name, execute(job, null));
    },

    /** Each job with its schedule, last run and next run. */
    async list(): Promise<JobStatus[]> {
      await ensureRows();
      const zone = await timeZone();
      const now = clock();
      const statuses: JobStatus[] = [];
      for (const job of jobs.values()) {
        const row = await repository.find(job.name);
        const last = await repository.lastRun(job.name);
        statuses.push({
          name: job.name,
          description: job.description,
          schedule: scheduleOf(job),
          timeZone: zone,
          lastRun: last
            ? {
                due_at: last.due_at,
                started_at: last.started_at,
                finished_at: last.finished_at,
                outcome: last.outcome,
                summary: last.summary,
                error: last.error,
                runner: last.runner,
              }
            : null,
          nextRun: nextDue(scheduleOf(job), zone, now),
          running:
            row?.leased_by && row.leased_until && row.leased_until > now.toISOString()
              ? { by: row.leased_by, until: row.leased_until }
              : null,
        });
      }
      return statuses;
    },

    /** The newest runs of a job, newest first (tests, and a later admin screen). */
    runs: (name: string, limit = 20) => repository.runs(jobNamed(name).name, limit),
  };
}
export type JobRunner = ReturnType<typeof createJobRunner>;
