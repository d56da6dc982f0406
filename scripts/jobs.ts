import type { JobStatus } from "../core/jobs/jobs.service";
import { ConfigError, loadConfig } from "../lib/env";
import { isAppError } from "../lib/errors";
import { createLogger } from "../lib/logger";
import { createMailTransport } from "../lib/mail";
import { isoInZone } from "../lib/time-zones";
import { createSiteJobRunner } from "../server/runtime";
import { openCliServices } from "./cli-services";

const USAGE = `Usage:
  npm run jobs -- list        each job: its schedule, last run and next run
  npm run jobs -- run NAME    runs the job now and prints what it did`;

/**
 * `npm run jobs`: the scheduled jobs (decision 0045) on the configured database, with the server's
 * configuration (DATABASE_URL, DATA_DIR, STORAGE, SMTP_URL…). Exit codes: 0 done, 1 the run failed
 * or could not start, 2 a wrong command or an unknown job (the names are printed).
 */
async function main(argv: string[]): Promise<number> {
  const [command, name, ...rest] = argv;
  if (!((command === "list" && !name) || (command === "run" && name && rest.length === 0))) {
    console.error(USAGE);
    return 2;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
  const logger = createLogger(config.logLevel, { stderr: true });
  const { database, services } = await openCliServices(config, {
    logger,
    // A job that queues mail sends it from here as the server would (SMTP_URL, or the outbox).
    mailTransport: createMailTransport({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: config.outboxDir }),
  });
  try {
    const jobs = createSiteJobRunner({ config, database, services, logger });
    if (command === "list") {
      for (const job of await jobs.list()) console.log(describe(job));
      return 0;
    }
    if (!jobs.names().includes(name)) {
      console.error(
        `There is no job named ${name}. The jobs are:\n${jobs
          .names()
          .map((n) => `  ${n}`)
          .join("\n")}`,
      );
      return 2;
    }
    const result = await jobs.runNow(name);
    // Mail the job queued leaves before the process does (what fails stays queued for the server).
    await services.mail.deliverDue();
    if (result.outcome === "ok") {
      console.log(`${name}: ${result.summary ?? "done"}`);
      return 0;
    }
    console.error(`${name} failed: ${result.error}`);
    return 1;
  } catch (error) {
    if (isAppError(error)) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.destroy();
    logger.flush();
  }
}

/** One job as `list` prints it: times in the site's time zone. */
function describe(job: JobStatus): string {
  const at = (iso: string | Date) => isoInZone(new Date(iso), job.timeZone);
  const last = job.lastRun;
  let lastLine = "never";
  if (last && !last.finished_at) lastLine = `${at(last.started_at)}, running (${last.runner})`;
  else if (last) {
    const how = last.outcome === "ok" ? `ok: ${last.summary ?? ""}` : `failed: ${last.error ?? ""}`;
    lastLine = `${at(last.started_at)}${last.due_at ? "" : " (started by hand)"}, ${how}`;
  }
  return [
    `${job.name}  ${job.schedule}  (${job.timeZone})`,
    `  ${job.description}`,
    `  last run: ${lastLine}`,
    `  next run: ${job.nextRun ? at(job.nextRun) : "none"}`,
    ...(job.running ? [`  running now in ${job.running.by}, lease until ${at(job.running.until)}`] : []),
  ].join("\n");
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
