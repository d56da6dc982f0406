import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import type { MailService, NewMail } from "../mail/mail.service";
import type { SiteSettings } from "../settings/settings.schema";
import type { SettingsService } from "../settings/settings.service";
import { addDays, DEFAULT_REMINDER_DAYS, formatDay, LAPSE_NOTICE_DAYS } from "./members.values";
import type { MembershipDay } from "./membership-day";
import { createRenewalsRepository, type DueCompany, type NoticeKind } from "./renewals.repository";

/** Companies read per query; each is then settled in its own transaction. */
const BATCH = 100;

export type RenewalNotices = {
  /** Companies reminded, and the mails queued for them. */
  reminders: number;
  reminderMails: number;
  /** Companies told of their lapse, and the mails queued for them. */
  lapses: number;
  lapseMails: number;
  /** Companies owed a notice that have no primary contact with an active account: nothing sent, asked again next run. */
  withoutContact: number;
};

/** Why a company's transaction was rolled back without sending. */
class NotSent extends Error {
  constructor(readonly outcome: "changed" | "no_contact") {
    super(outcome);
  }
}

type Contact = { email: string; first_name: string; last_name: string };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The run's line in the job log: "2 renewal reminders (3 mails), 1 lapse notice (1 mail) queued." */
export function describeNotices(result: RenewalNotices): string {
  const line =
    `${plural(result.reminders, "renewal reminder", "renewal reminders")} (${plural(result.reminderMails, "mail", "mails")}), ` +
    `${plural(result.lapses, "lapse notice", "lapse notices")} (${plural(result.lapseMails, "mail", "mails")}) queued.`;
  return result.withoutContact
    ? `${line} ${plural(result.withoutContact, "company is", "companies are")} owed one but ${result.withoutContact === 1 ? "has" : "have"} no primary contact to mail.`
    : line;
}

/**
 * Renewal reminders and lapse notices (issue 31, decision 0049): the primary contacts of an active
 * company are mailed once when its renews_on is `members.reminder_days` away (or nearer, while it
 * is still current), and once when it lapses by the date (renews_on + grace passed). "Once" is the
 * unique key of membership_notices (company, kind, renews_on), inserted in the same transaction as
 * the mails: two processes or two runs cannot both queue it, and a run that dies leaves either both
 * or neither. A renewal moves renews_on, so the next reminder is owed again.
 */
export function createRenewalsService(deps: {
  db: Kysely<Database>;
  clock: Clock;
  /** Today and the current-ness cutoff (membership-day.ts). */
  day: () => Promise<MembershipDay>;
  settings: Pick<SettingsService, "getAll">;
  mail: Pick<MailService, "enqueue" | "deliverSoon">;
}) {
  const { db, clock } = deps;
  const repository = createRenewalsRepository(db);

  function reminderDays(site: SiteSettings): number {
    const days = Number(site["members.reminder_days"]);
    return Number.isInteger(days) && days >= 1 && days <= 365 ? days : DEFAULT_REMINDER_DAYS;
  }

  /** Where to turn: the secretariat's address when the site has one, and the contact form, absolute. */
  function contactLine(site: SiteSettings, origin: string): string {
    const form = `${origin}/message`;
    return site["site.email"] ? `write to ${site["site.email"]} or through ${form}` : `write to us through ${form}`;
  }

  function mailFor(
    kind: NoticeKind,
    contact: Contact,
    company: DueCompany,
    context: { site: SiteSettings; day: MembershipDay; origin: string },
  ): NewMail {
    const { site, day, origin } = context;
    const name = site["site.name"];
    const dear = `Dear ${contact.first_name || contact.email},`;
    const due = formatDay(company.renews_on);
    const contact_ = contactLine(site, origin);
    const why = `You receive this message as a primary contact of ${company.name} in the members area of ${name} (${origin}).`;
    const common = { join_request_id: null, to_address: contact.email, reply_to: site["site.email"] || null };
    if (kind === "reminder") {
      const lastDay = formatDay(addDays(company.renews_on, day.graceDays));
      const when = company.renews_on >= day.today ? `is due for renewal on ${due}` : `was due for renewal on ${due}`;
      return {
        ...common,
        purpose: "renewal_reminder",
        subject: `${company.name}: your ${name} membership is due for renewal on ${due}`,
        body_text: `${dear}\n\nThe membership of ${company.name} in ${name} ${when}.\n\nTo renew it, please contact the secretariat: ${contact_}.\n\nIf it is not renewed, the membership lapses after ${lastDay}, and your company's representatives then no longer see the members' area.\n\n${why}\n\nKind regards,\n${name}`,
      };
    }
    return {
      ...common,
      purpose: "membership_lapsed",
      subject: `${company.name}: your ${name} membership has lapsed`,
      body_text: `${dear}\n\nThe membership of ${company.name} in ${name} was due for renewal on ${due} and has lapsed: your company's representatives now see the site as visitors do, without the members' area.\n\nTo renew it, please contact the secretariat: ${contact_}. Once it is renewed, the members' area opens again at once.\n\n${why}\n\nKind regards,\n${name}`,
    };
  }

  /**
   * Settles one company in one transaction: the notice recorded (or found recorded already), the
   * company still owed (not renewed, ended or suspended since it was read), its primary contacts
   * and their mails. The record comes first: on SQLite a transaction that reads before it writes
   * cannot take the write lock once another connection has written meanwhile, while one that
   * writes first waits for it (busy_timeout); on PostgreSQL the insert waits for a concurrent
   * one's commit and then finds the key taken.
   */
  async function settle(
    kind: NoticeKind,
    company: DueCompany,
    context: { site: SiteSettings; day: MembershipDay; origin: string },
  ): Promise<"changed" | "no_contact" | "sent_before" | number> {
    try {
      return await db.transaction().execute(async (trx) => {
        const repo = createRenewalsRepository(trx);
        if (!(await repo.record(company.id, kind, company.renews_on, clock().toISOString()))) return "sent_before";
        const state = await repo.state(company.id);
        if (state?.status !== "active" || state.renews_on !== company.renews_on) throw new NotSent("changed");
        const contacts = await repo.primaryContacts(company.id);
        if (contacts.length === 0) throw new NotSent("no_contact");
        await repo.setRecipients(company.id, kind, company.renews_on, contacts.length);
        await deps.mail.enqueue(
          contacts.map((contact) => mailFor(kind, contact, company, context)),
          trx,
        );
        return contacts.length;
      });
    } catch (error) {
      // Rolled back: nothing recorded, so the company is looked at again on the next run.
      if (error instanceof NotSent) return error.outcome;
      throw error;
    }
  }

  return {
    /**
     * Queues what is owed today: reminders to the active companies whose renews_on is within
     * `members.reminder_days` and that are still current; notices to the active companies that
     * lapsed by the date within the last LAPSE_NOTICE_DAYS days. Idempotent: run it as often as you
     * like. `origin` is the site's public address (BASE_URL) for the links; `signal` is checked
     * between companies (each one is settled, or not, in its own transaction).
     */
    async sendNotices(options: { origin: string; signal?: AbortSignal }): Promise<RenewalNotices> {
      const [day, site] = await Promise.all([deps.day(), deps.settings.getAll()]);
      const context = { site, day, origin: options.origin.replace(/\/+$/, "") };
      const result: RenewalNotices = { reminders: 0, reminderMails: 0, lapses: 0, lapseMails: 0, withoutContact: 0 };
      const windows: { kind: NoticeKind; from: string; to: string }[] = [
        // Still current (renews_on ≥ cutoff), and the renewal date is near.
        { kind: "reminder", from: day.cutoff, to: addDays(day.today, reminderDays(site)) },
        // Lapsed by the date (renews_on < cutoff), recently.
        { kind: "lapse", from: addDays(day.cutoff, -LAPSE_NOTICE_DAYS), to: addDays(day.cutoff, -1) },
      ];
      for (const { kind, from, to } of windows) {
        let after: DueCompany | null = null;
        for (;;) {
          const batch = await repository.due(kind, from, to, after, BATCH);
          for (const company of batch) {
            options.signal?.throwIfAborted();
            const outcome = await settle(kind, company, context);
            if (outcome === "no_contact") result.withoutContact += 1;
            else if (typeof outcome === "number" && kind === "reminder") {
              result.reminders += 1;
              result.reminderMails += outcome;
            } else if (typeof outcome === "number") {
              result.lapses += 1;
              result.lapseMails += outcome;
            }
          }
          if (batch.length < BATCH) break;
          after = batch[batch.length - 1];
        }
      }
      if (result.reminderMails + result.lapseMails > 0) deps.mail.deliverSoon();
      return result;
    },

    /** The notices recorded for a company, oldest first. */
    noticesOf: (companyId: number) => repository.noticesOf(companyId),
  };
}
export type RenewalsService = ReturnType<typeof createRenewalsService>;
