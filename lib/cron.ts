import { Cron } from "croner";

/**
 * Cron timing for scheduled jobs, through croner (decision 0045): five fields (minute hour
 * day-of-month month day-of-week), or six with seconds first, read in an IANA time zone, so that
 * "30 3 * * *" is half past three on the site's clock on both sides of a daylight-saving change.
 */

/** Why a pattern is not a cron pattern, or null when it is one. */
export function cronProblem(pattern: string): string | null {
  try {
    const cron = new Cron(pattern);
    // A pattern such as "0 0 30 2 *" parses but never comes.
    return cron.nextRun() ? null : "never comes";
  } catch (error) {
    return error instanceof Error ? error.message.replace(/^CronPattern: /, "") : String(error);
  }
}

function schedule(pattern: string, timeZone: string): Cron {
  return new Cron(pattern, { timezone: timeZone });
}

/** The latest time the pattern names at or before `now` (null if none ever was). */
export function latestDue(pattern: string, timeZone: string, now: Date): Date | null {
  // croner counts a run earlier in the reference's own second as before it: one millisecond on,
  // a due time that is exactly now is included.
  return schedule(pattern, timeZone).previousRuns(1, new Date(now.getTime() + 1))[0] ?? null;
}

/** The first time the pattern names after `now` (null if none will). */
export function nextDue(pattern: string, timeZone: string, now: Date): Date | null {
  return schedule(pattern, timeZone).nextRun(now);
}
