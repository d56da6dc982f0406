import { cronProblem } from "../../lib/cron";
import type { Logger } from "../../lib/logger";
import type { Services } from "../services";

/** What a job's run is given. */
export type JobContext = {
  /** The site's services: a job only translates a due time into a service call (the rules live there). */
  services: Services;
  /** The site's public address (BASE_URL's origin, no trailing slash): links in what a job mails are absolute. */
  origin: string;
  /** When this run started (the runner's clock; tests move it). */
  now: Date;
  /** The due time this run is for; null when it was started by hand (`npm run jobs -- run NAME`). */
  due: Date | null;
  /**
   * Aborted when the process stops (SIGTERM) or the lease was lost. A job of many steps checks it
   * between them (`signal.throwIfAborted()`): the run is then logged as stopped and its due time
   * stays owed, so the next process to look runs it again. A job that ignores it is waited for.
   */
  signal: AbortSignal;
  /** The process's logger, with `job` set. */
  log: Logger;
};

/**
 * A scheduled job: declared once in core/jobs/site-jobs.ts. Its run must be idempotent (ask the
 * database what is left to do, mark each step done in the step's own transaction): a run whose
 * process dies is run again once its lease has expired.
 */
export type JobDefinition = {
  /** Lower-case words joined by hyphens: `npm run jobs -- run NAME`, JOBS_SCHEDULES, the log. */
  name: string;
  /** A cron pattern (croner) in the site's time zone (setting site.timezone); JOBS_SCHEDULES may replace it. */
  schedule: string;
  /** One line for `npm run jobs -- list`. */
  description: string;
  /** Does the work and answers a short summary of what it did ("3 files removed"), kept in the run log. */
  run: (context: JobContext) => Promise<string>;
  /**
   * Whether a run with this summary did nothing worth an operator's eye: it is kept in the run log
   * as any other, but logged at debug level, not info. A job that runs every minute would otherwise
   * write 1 440 lines a day that say nothing happened.
   */
  idle?: (summary: string) => boolean;
};

export const JOB_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** A job's declaration, checked when the module loads: a bad name or pattern fails every test at once. */
export function defineJob(job: JobDefinition): JobDefinition {
  if (!JOB_NAME.test(job.name)) throw new Error(`Job name "${job.name}": use lower-case words joined by hyphens.`);
  const problem = cronProblem(job.schedule);
  if (problem) throw new Error(`Job ${job.name}: its schedule "${job.schedule}" is not a cron pattern (${problem}).`);
  return job;
}
