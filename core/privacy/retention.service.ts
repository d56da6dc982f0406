import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { dateIn } from "../../lib/time-zones";
import { anonymiseRequests } from "./anonymise.repository";
import { createRetentionRepository } from "./retention.repository";

/** Sent mail (the queue's rows and the outbox's files) is kept this long (issue 35). */
export const SENT_MAIL_DAYS = 90;
/** A used one-time token or two-factor step is kept this long after its use: it opens nothing, but says when it was used. */
const USED_KEPT_DAYS = 1;
/** Rows per statement: short writes, so that SQLite's one writer is never held for long. */
const BATCH = 500;
const DAY_MS = 86_400_000;

/** What one run of the retention job did. */
export type RetentionResult = {
  /** The setting privacy.retention_months the run used. */
  months: number;
  /** Join requests, registrations and messages whose person was erased now. */
  requests: number;
  mails: number;
  outboxFiles: number;
  sessions: number;
  tokens: number;
  twoFactorChallenges: number;
  registrationLinks: number;
  rateLimits: number;
  spentChallenges: number;
  bounces: number;
};

/** `date` (YYYY-MM-DD) `months` calendar months earlier; a day the earlier month lacks is its last (31 March → 28/29 February). */
export function monthsBeforeDay(date: string, months: number): string {
  const [year, month, day] = date.split("-").map(Number);
  const target = new Date(Date.UTC(year, month - 1 - months, 1));
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return target.toISOString().slice(0, 10);
}

/** An instant `months` calendar months earlier (UTC), the time of day kept. */
export function monthsBefore(instant: Date, months: number): Date {
  const iso = instant.toISOString();
  return new Date(`${monthsBeforeDay(iso.slice(0, 10), months)}${iso.slice(10)}`);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The run's summary, kept in the job's run log. */
export function describeRetention(r: RetentionResult): string {
  return (
    `${plural(r.requests, "request", "requests")} erased (older than ${r.months} months); ` +
    `${plural(r.mails, "sent mail", "sent mails")} and ${plural(r.outboxFiles, "outbox file", "outbox files")} older than ${SENT_MAIL_DAYS} days removed; ` +
    `removed when past their time: ${plural(r.sessions, "session", "sessions")}, ${plural(r.tokens, "token", "tokens")}, ` +
    `${plural(r.twoFactorChallenges, "two-factor step", "two-factor steps")}, ${plural(r.registrationLinks, "registration link", "registration links")}, ` +
    `${plural(r.rateLimits, "rate limit", "rate limits")}, ${plural(r.spentChallenges, "spent challenge", "spent challenges")}, ` +
    `${plural(r.bounces, "bounce mark", "bounce marks")}.`
  );
}

/**
 * Keeps personal data only as long as it serves its purpose (issue 35, decision 0078): the daily
 * `retention` job erases the person from requests past privacy.retention_months, removes sent mail
 * after 90 days, and what has expired. Every step asks the database what is left to do, so a run
 * stopped half way (the job's signal, between batches) is finished by the next.
 */
export function createRetentionService(deps: {
  db: Kysely<Database>;
  clock: Clock;
  settings: () => Promise<{ "privacy.retention_months": string; "site.timezone": string }>;
  /** Forgets the proof-of-work challenges expired before the time given (the forms' ALTCHA, decision 0077); answers how many. */
  pruneSpentChallenges?: (nowIso: string) => Promise<number>;
  /** The outbox's files (lib/mail.ts); an SMTP transport has none. */
  outbox?: { pruneOutbox?(before: Date): Promise<number> };
}) {
  const { db, clock } = deps;
  const repository = createRetentionRepository(db);

  /** Repeats a batched delete until a batch comes back short; answers the rows removed. */
  async function drain(step: () => Promise<number>, signal?: AbortSignal): Promise<number> {
    let total = 0;
    for (;;) {
      signal?.throwIfAborted();
      const removed = await step();
      total += removed;
      if (removed < BATCH) return total;
    }
  }

  return {
    async run(options: { signal?: AbortSignal } = {}): Promise<RetentionResult> {
      const { signal } = options;
      const settings = await deps.settings();
      const months = Number(settings["privacy.retention_months"]) || 24;
      const now = clock();
      const nowIso = now.toISOString();
      const before = monthsBefore(now, months).toISOString();
      // A meeting's days are dates in its own calendar; today is the site's.
      const beforeDay = monthsBeforeDay(dateIn(now, settings["site.timezone"]), months);

      let requests = 0;
      let afterId = 0;
      for (;;) {
        signal?.throwIfAborted();
        const ids = await repository.requestsPastRetention({ before, beforeDay, afterId, limit: BATCH });
        if (ids.length === 0) break;
        // Each batch in its own transaction: the person's fields, their links and mails go together.
        requests += await db.transaction().execute((trx) => anonymiseRequests(trx, ids, nowIso));
        afterId = ids[ids.length - 1];
        if (ids.length < BATCH) break;
      }

      const mailBefore = new Date(now.getTime() - SENT_MAIL_DAYS * DAY_MS);
      const mails = await drain(() => repository.deleteOldMail(mailBefore.toISOString(), BATCH), signal);
      signal?.throwIfAborted();
      const outboxFiles = (await deps.outbox?.pruneOutbox?.(mailBefore)) ?? 0;

      const usedBefore = new Date(now.getTime() - USED_KEPT_DAYS * DAY_MS).toISOString();
      const sessions = await drain(() => repository.deleteExpiredSessions(nowIso, BATCH), signal);
      const tokens = await drain(() => repository.deleteSpentTokens(nowIso, usedBefore, BATCH), signal);
      const twoFactorChallenges = await drain(
        () => repository.deleteSpentTwoFactorChallenges(nowIso, usedBefore, BATCH),
        signal,
      );
      const registrationLinks = await drain(() => repository.deleteExpiredRegistrationLinks(nowIso, BATCH), signal);
      const rateLimits = await drain(() => repository.deletePastRateLimits(nowIso, BATCH), signal);
      signal?.throwIfAborted();
      const spentChallenges = (await deps.pruneSpentChallenges?.(nowIso)) ?? 0;
      // An address that refused mail long ago may work again, and is personal data: the mark lasts the retention.
      const bounces = await drain(() => repository.deleteOldBounces(before, BATCH), signal);

      return {
        months,
        requests,
        mails,
        outboxFiles,
        sessions,
        tokens,
        twoFactorChallenges,
        registrationLinks,
        rateLimits,
        spentChallenges,
        bounces,
      };
    },
  };
}
export type RetentionService = ReturnType<typeof createRetentionService>;
