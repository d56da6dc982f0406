import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import { addSeconds, type Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { type MailTransport, permanentRecipientRefusal } from "../../lib/mail";
import { createMailRepository, type MailRepository, type NewMail, storedAttachments } from "./mail.repository";
import type { MailStatus } from "./mail.schema";

export type { NewMail } from "./mail.repository";

/** Waits before each retry: 1 min, 5 min, 30 min, 2 h, 12 h; then the mail is marked failed. */
export const RETRY_DELAYS_SECONDS = [60, 300, 1800, 7200, 43200];
const SEND_LOCK_SECONDS = 120;
const BATCH = 20;
/** How far ahead the sender looks for a mail set to leave later, to wake for it. */
const WAKE_WITHIN_SECONDS = 60;

/** How an address is kept in mail_bounces: lower-cased, as mail servers compare the domain (and, in practice, the rest). */
export const bounceAddress = (address: string): string => address.trim().toLowerCase();

/** Why a mail to an address marked as refusing mail was not handed to the mail server (the inbox shows it). */
function notSentMessage(to: string, bounce: { reason: string; created_at: string }): string {
  return (
    `Not sent: ${to} refused mail permanently on ${bounce.created_at.slice(0, 10)} (${bounce.reason.slice(0, 200)}). ` +
    "Resend once the address works again: that lifts the mark."
  );
}

/**
 * The outgoing mail queue. `queue` stores and returns at once; `deliverDue`
 * sends what is due (called right after queueing, without waiting, and by a
 * timer in the server), so nobody's answer waits on the mail server.
 */
export function createMailService(deps: {
  repository: MailRepository;
  transport: MailTransport;
  clock: Clock;
  onError?: (error: unknown, mailId: number) => void;
  /** The database, for the writes that go together (a refusal and its mark, a resend and the mark lifted); without it, one by one. */
  db?: Kysely<Database>;
  /** Both parts of a mail as it is sent: its text with the footer, and HTML made from it (core/mail/mail-html.tsx). */
  parts?: (mail: {
    subject: string;
    body_text: string;
    purpose: string;
    list_unsubscribe: string | null;
  }) => Promise<{ text: string; html: string }>;
}) {
  const { repository, transport, clock } = deps;
  const inTransaction = <T>(work: (repository: MailRepository) => Promise<T>): Promise<T> =>
    deps.db ? deps.db.transaction().execute((trx) => work(createMailRepository(trx))) : work(repository);
  let running: Promise<number> | null = null;
  let following: Promise<number> | null = null;
  /** Set when the process stops: no further mail is taken, the one being sent is finished. */
  let stopping = false;
  /** A wake-up for the next mail that becomes due soon (paced announcements), rather than the 30 s timer. */
  let wake: NodeJS.Timeout | null = null;
  /** Waits before each mail for a moment when the server answers no request (`yieldTo`); none: send at once. */
  let quiet: (() => Promise<void>) | null = null;

  /**
   * Mails set to leave later (an announcement leaves at its pace, decision 0066) are sent when
   * they become due, not in a burst at the server's next 30 s round: wake at the next one.
   */
  async function wakeForNext(): Promise<void> {
    const now = clock();
    const next = await repository.nextDue(now.toISOString(), addSeconds(now, WAKE_WITHIN_SECONDS).toISOString());
    if (next === null || stopping) return;
    if (wake) clearTimeout(wake);
    wake = setTimeout(
      () => {
        wake = null;
        void deliverDue().catch(() => {});
      },
      Math.max(0, Date.parse(next) - now.getTime()),
    );
    wake.unref();
  }

  async function deliverOnce(): Promise<number> {
    let sent = 0;
    for (;;) {
      if (stopping) return sent;
      const batch = await repository.due(clock().toISOString(), BATCH);
      sent += await deliverBatch(batch);
      // A full batch may have more behind it (say, mail queued by another process): read on until none is left.
      if (batch.length < BATCH) {
        await wakeForNext();
        return sent;
      }
    }
  }

  async function deliverBatch(batch: Awaited<ReturnType<MailRepository["due"]>>): Promise<number> {
    let sent = 0;
    // Addresses that refused mail for good are not handed to the mail server again (decision 0078).
    const bounced = new Map(
      (await repository.bouncesAmong(batch.map((mail) => bounceAddress(mail.to_address)))).map((b) => [b.address, b]),
    );
    for (const mail of batch) {
      if (quiet) await quiet();
      // What is not taken stays pending for the next start (or another process) to send.
      if (stopping) break;
      const claimed = await repository.claim(mail, addSeconds(clock(), SEND_LOCK_SECONDS).toISOString());
      if (!claimed) continue;
      const bounce = bounced.get(bounceAddress(mail.to_address));
      if (bounce) {
        await repository.markFailed(mail.id, mail.attempts, notSentMessage(mail.to_address, bounce), null);
        continue;
      }
      const attempts = mail.attempts + 1;
      try {
        const parts = (await deps.parts?.(mail)) ?? { text: mail.body_text };
        await transport.send({
          to: mail.to_address,
          subject: mail.subject,
          ...parts,
          replyTo: mail.reply_to,
          attachments: storedAttachments(mail.attachments),
          listUnsubscribe: mail.list_unsubscribe,
        });
        await repository.markSent(mail.id, attempts, clock().toISOString());
        sent += 1;
      } catch (error) {
        const refusal = permanentRecipientRefusal(error);
        if (refusal) {
          // Refused for good: retrying changes nothing, and mailing the address again harms the site's standing.
          const mark = { address: bounceAddress(mail.to_address), reason: refusal, created_at: clock().toISOString() };
          await inTransaction(async (repo) => {
            await repo.recordBounce({ ...mark, mail_id: mail.id });
            await repo.markFailed(
              mail.id,
              attempts,
              `${mail.to_address} refused this mail permanently (${refusal.slice(0, 200)}); nothing more is sent to this address until a mail to it is resent.`,
              null,
            );
          });
          bounced.set(mark.address, mark);
          deps.onError?.(error, mail.id);
          continue;
        }
        const delay = RETRY_DELAYS_SECONDS[attempts - 1];
        const next = delay === undefined ? null : addSeconds(clock(), delay).toISOString();
        await repository.markFailed(mail.id, attempts, error instanceof Error ? error.message : String(error), next);
        deps.onError?.(error, mail.id);
      }
    }
    return sent;
  }

  function deliverDue(): Promise<number> {
    if (stopping) return Promise.resolve(0);
    if (!running) {
      running = deliverOnce().finally(() => {
        running = null;
      });
      return running;
    }
    following ??= running
      .catch(() => 0)
      .then(() => {
        following = null;
        return deliverDue();
      });
    return following;
  }

  return {
    /** Stores the mails and starts sending them in the background (nobody waits on the mail server). */
    /**
     * Stores the mails inside the caller's transaction, so that they exist exactly
     * when what they announce does; call deliverSoon() once it has committed.
     */
    async enqueue(mails: NewMail[], trx: Kysely<Database>): Promise<void> {
      await createMailRepository(trx).enqueue(mails, clock().toISOString());
    },

    /**
     * Requests first (decision 0069): before each mail the sender waits for `whenQuiet`, a moment
     * when the server answers no request (at most its bound), so that composing and handing over
     * mail, a millisecond or more each, never stands in front of a person's request. Under a
     * sustained load the mail still leaves, one per bound; once the load passes, at full speed.
     */
    yieldTo(whenQuiet: () => Promise<void>): void {
      quiet = whenQuiet;
    },

    /** Starts sending what is due, in the background. */
    deliverSoon(): void {
      void deliverDue().catch(() => {});
    },

    async queue(mails: NewMail[]): Promise<void> {
      await repository.enqueue(mails, clock().toISOString());
      void deliverDue().catch(() => {});
    },
    /**
     * Sends every mail that is due. One run at a time: a call during a run gets
     * the run after it (which sees mail queued meanwhile); calls during that
     * wait share it. Answers how many were sent.
     */
    deliverDue,
    /** Stops taking mail and waits for the one being sent (the database is about to close). */
    async stop(): Promise<void> {
      stopping = true;
      if (wake) clearTimeout(wake);
      await running?.catch(() => 0);
    },
    forJoinRequests: (ids: number[]): Promise<MailStatus[]> => repository.forJoinRequests(ids),
    /**
     * Sends a failed mail again from scratch. An address marked as refusing mail is unmarked: the
     * secretariat resends because they know it works again (decision 0078).
     */
    async resend(id: number): Promise<void> {
      const requeued = await inTransaction(async (repo) => {
        const address = await repo.failedAddress(id);
        if (address === null || !(await repo.requeue(id, clock().toISOString()))) return false;
        await repo.liftBounce(bounceAddress(address));
        return true;
      });
      if (!requeued) throw new AppError("not_found", "There is no failed mail with this id.");
      void deliverDue().catch(() => {});
    },
  };
}
export type MailService = ReturnType<typeof createMailService>;
