import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { dateIn } from "../../lib/time-zones";
import type { MailService, NewMail } from "../mail/mail.service";
import { meetingUrl } from "../meetings/meetings.values";
import { addDays, formatDay } from "../members/members.values";
import type { SiteSettings } from "../settings/settings.schema";
import type { SettingsService } from "../settings/settings.service";
import { createMeetingRemindersRepository, type DueRegistration } from "./meeting-reminders.repository";
import { NOT_QUOTED } from "./registration-mails";

/** Registrations read per query; each is then settled in its own transaction. */
const BATCH = 100;
export const DEFAULT_MEETING_REMINDER_DAYS = 2;

export type MeetingReminders = { sent: number; meetings: number };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The run's line in the job log: "3 meeting reminders queued (2 meetings)." */
export function describeReminders(result: MeetingReminders): string {
  return `${plural(result.sent, "meeting reminder", "meeting reminders")} queued (${plural(result.meetings, "meeting", "meetings")}).`;
}

/** The setting `meetings.reminder_days`: 0 switches reminders off. */
export function meetingReminderDays(site: SiteSettings): number {
  const days = Number(site["meetings.reminder_days"]);
  return Number.isInteger(days) && days >= 0 && days <= 60 ? days : DEFAULT_MEETING_REMINDER_DAYS;
}

/**
 * Meeting reminders (issue 32): every confirmed registration is mailed once, `meetings.reminder_days`
 * days before its meeting starts (by the meeting's own calendar), or on a later run before the start
 * if a run was missed. "Once" is the unique key of meeting_reminders (registration, start date),
 * inserted in the same transaction as the mail: two processes or two runs cannot both queue it, and
 * a run that dies leaves both or neither. A meeting moved to a new date is owed one for that date.
 */
export function createMeetingRemindersService(deps: {
  db: Kysely<Database>;
  clock: Clock;
  settings: Pick<SettingsService, "getAll">;
  mail: Pick<MailService, "enqueue" | "deliverSoon">;
}) {
  const { db, clock } = deps;
  const repository = createMeetingRemindersRepository(db);

  function reminderMail(registration: DueRegistration, site: SiteSettings, origin: string): NewMail {
    const name = site["site.name"];
    const page = `${origin}${meetingUrl(registration.slug, registration.visibility === "members" ? "members" : "public")}`;
    const start = formatDay(registration.start_date);
    const end =
      registration.end_date && registration.end_date !== registration.start_date
        ? ` to ${formatDay(registration.end_date)}`
        : "";
    const place = registration.location ? `\nWhere: ${registration.location}` : "";
    return {
      join_request_id: registration.id,
      purpose: "meeting_reminder",
      to_address: registration.email,
      reply_to: site["site.email"] || null,
      subject: `Reminder: ${registration.title} starts on ${start}`,
      body_text: `Hello,\n\nThis is a reminder that ${registration.title} starts soon, and your registration is confirmed.\n\nWhen: ${start}${end}${place}\nThe programme and the practical details: ${page}\n\nIf you can no longer come, please tell us by replying to this e-mail, so that your place can go to someone on the waiting list.\n\nYou receive this e-mail because you registered for this meeting on ${name} (${origin}). ${NOT_QUOTED}\n\nKind regards,\n${name}`,
    };
  }

  /**
   * Settles one registration in one transaction: the reminder recorded first (on SQLite a
   * transaction that writes first waits for the lock instead of failing to upgrade a read), then
   * the registration still confirmed and its meeting still starting that day, then the mail.
   */
  async function settle(registration: DueRegistration, site: SiteSettings, origin: string): Promise<boolean> {
    return db
      .transaction()
      .execute(async (trx) => {
        const repo = createMeetingRemindersRepository(trx);
        if (!(await repo.record(registration.id, registration.start_date, clock().toISOString()))) return false;
        const now = await repo.state(registration.id);
        if (now?.registration_status !== "confirmed" || now.start_date !== registration.start_date) {
          // Cancelled or moved since the batch was read: nothing recorded, nothing sent.
          throw new Rollback();
        }
        await deps.mail.enqueue([reminderMail(registration, site, origin)], trx);
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof Rollback) return false;
        throw error;
      });
  }

  return {
    /**
     * Queues the reminders owed now. Idempotent: run it as often as you like. `origin` is the site's
     * public address (BASE_URL) for the links; `signal` is checked between registrations.
     */
    async sendReminders(options: { origin: string; signal?: AbortSignal }): Promise<MeetingReminders> {
      const site = await deps.settings.getAll();
      const days = meetingReminderDays(site);
      const result: MeetingReminders = { sent: 0, meetings: 0 };
      if (days === 0) return result;
      const origin = options.origin.replace(/\/+$/, "");
      const now = clock();
      // Days in UTC, widened by one on each side: each meeting is then judged by its own zone's today.
      const utcToday = dateIn(now, "UTC");
      const meetings = new Set<number>();
      let afterId = 0;
      for (;;) {
        const batch = await repository.due(addDays(utcToday, -1), addDays(utcToday, days + 1), afterId, BATCH);
        for (const registration of batch) {
          options.signal?.throwIfAborted();
          const today = dateIn(now, registration.timezone || "UTC");
          if (registration.start_date <= today || registration.start_date > addDays(today, days)) continue;
          if (await settle(registration, site, origin)) {
            result.sent += 1;
            meetings.add(registration.meeting_id);
          }
        }
        if (batch.length < BATCH) break;
        afterId = batch[batch.length - 1].id;
      }
      result.meetings = meetings.size;
      if (result.sent > 0) deps.mail.deliverSoon();
      return result;
    },

    /** The reminders recorded for a registration, oldest first. */
    sentTo: (registrationId: number) => repository.sentTo(registrationId),
  };
}
export type MeetingRemindersService = ReturnType<typeof createMeetingRemindersService>;

/** Why a reminder's transaction was rolled back without sending. */
class Rollback extends Error {
  constructor() {
    super("not sent");
  }
}
