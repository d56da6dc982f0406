import fs from "node:fs";
import { createJobRunner, type JobRunner } from "../core/jobs/jobs.service";
import { SITE_JOBS } from "../core/jobs/site-jobs";
import { captchaCheckFor } from "../core/join/captcha";
import { movePublicPaperFiles } from "../core/library/paper-files";
import { createServices } from "../core/services";
import { openDatabase } from "../db/connect";
import { migrateToLatest } from "../db/migrate";
import type { Config } from "../lib/env";
import { createLogger } from "../lib/logger";
import { createMailTransport, permanentRecipientRefusal } from "../lib/mail";
import { sweepSpooled } from "../lib/spool";
import { createStorages } from "../lib/storages";
import type { Runtime } from "./env";

const MAIL_INTERVAL_MS = 30_000;

/**
 * Opens the database, applies migrations, creates the configured first admin
 * and wires the services: the start-up every entry point shares.
 */
export async function createRuntime(config: Config): Promise<Runtime> {
  const logger = createLogger(config.logLevel);
  const storage = createStorages(config);
  if (storage.kind === "local") {
    fs.mkdirSync(config.uploadsDir, { recursive: true });
    fs.mkdirSync(config.privateDir, { recursive: true, mode: 0o700 });
  }
  fs.mkdirSync(config.tmpDir, { recursive: true, mode: 0o700 });
  // A bucket that does not answer stops the start with its reason, not the first upload.
  await storage.check();
  logger.info({ storage: storage.describe }, "file storage");
  const database = openDatabase(config);
  try {
    const migrated = await migrateToLatest(database.db);
    for (const result of migrated.results ?? []) logger.info({ migration: result.migrationName }, "migration applied");
    const mailTransport = createMailTransport({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: config.outboxDir,
      onWritten: (file, mail) =>
        logger.info({ file, to: mail.to, subject: mail.subject }, "mail written to the outbox"),
    });
    const services = createServices({
      mailFrom: config.mailFrom,
      origin: config.baseUrl.origin,
      db: database.db,
      dialect: database.dialect,
      sqlite: database.sqlite,
      notifications: database.notifications,
      storage: storage.uploads,
      privateStorage: storage.private,
      sessionTtlSeconds: config.sessionTtlSeconds,
      sessionIdleSeconds: config.sessionIdleSeconds,
      logger,
      mailTransport,
      joinRatePerHour: config.joinRatePerHour,
      notifyBatchSeconds: config.notifyBatchSeconds,
      captcha: config.recaptcha ? captchaCheckFor(config.recaptcha, { logger }) : undefined,
      // A permanent refusal of the address is not retried (decision 0078); anything else is, until the retries run out.
      onMailError: (error, mailId) =>
        logger.warn(
          { err: error, mailId },
          permanentRecipientRefusal(error)
            ? "mail not sent: the address refused it for good; not retried"
            : "mail not sent; retried later unless its retries are spent",
        ),
    });
    logger.info({ mail: mailTransport.describe }, "mail transport");
    await services.join.prepare();
    // PostgreSQL: hear the other processes' changes from the start (decision 0031).
    services.contentVersion.listen();
    // Queued mail is sent right after it is queued; this timer picks up retries and
    // anything another process queued while its sender was down.
    const mailTimer = setInterval(() => {
      services.mail.deliverDue().catch((error) => logger.error({ err: error }, "mail delivery failed"));
    }, MAIL_INTERVAL_MS);
    mailTimer.unref();
    const destroy = database.destroy.bind(database);
    database.destroy = async () => {
      clearInterval(mailTimer);
      // A backlog of mail must not run into a closed database: the mail being sent is finished, the rest waits.
      await services.mail.stop();
      await services.contentVersion.stop();
      await destroy();
    };
    // Paper files once lived under the public uploads: moved to the private root before anyone is served
    // (decision 0024). Local disk only: a bucket is filled from a site that has already moved them (decision 0030).
    if (storage.kind === "local") {
      const movedPapers = await movePublicPaperFiles(database.db, config.uploadsDir, config.privateDir);
      if (movedPapers.moved.length || movedPapers.removedPublicCopies.length)
        logger.info(
          { moved: movedPapers.moved.length, removedPublicCopies: movedPapers.removedPublicCopies.length },
          "paper files moved out of the public uploads",
        );
    }
    const createdPages = await services.pages.ensureFixedPages();
    if (createdPages > 0) logger.info({ pages: createdPages }, "fixed pages created, waiting for their text");
    if (config.admin) {
      const outcome = await services.accounts.ensureAdmin(config.admin);
      if (outcome === "created") logger.info({ email: config.admin.email }, "first admin created");
    }
    // Papers stored before their file's type and text were recorded (migration 0009): in the background.
    services.libraryAdmin
      .completeEarlierPapers()
      .then((completed) => {
        if (completed > 0) logger.info({ papers: completed }, "earlier papers' file types and text recorded");
      })
      .catch((error) => logger.warn({ err: error }, "earlier papers not completed"));
    // Spooled uploads of requests a crash or a kill cut short; an hour is longer than any upload runs.
    sweepSpooled(config.tmpDir)
      .then((removed) => {
        if (removed.length) logger.info({ removed: removed.length }, "stale temporary upload files removed");
      })
      .catch((error) => logger.warn({ err: error }, "temporary upload sweep failed"));
    return { config, database, services, logger, storage };
  } catch (error) {
    await database.destroy();
    throw error;
  }
}

/**
 * The site's scheduled jobs over a runtime's database and services (decision 0045): started by the
 * server unless JOBS=off, and used by `npm run jobs`. Throws when JOBS_SCHEDULES names no job.
 */
export function createSiteJobRunner(runtime: Pick<Runtime, "config" | "database" | "services" | "logger">): JobRunner {
  return createJobRunner({
    db: runtime.database.db,
    services: runtime.services,
    jobs: SITE_JOBS,
    origin: runtime.config.baseUrl.origin,
    schedules: runtime.config.jobs.schedules,
    logger: runtime.logger,
  });
}
