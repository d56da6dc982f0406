import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import type { NewMailAttachment } from "../mail/mail.schema";
import { invitationAttachment } from "../meetings/invitation";
import type { CalendarMeeting } from "../meetings/meetings.calendar";
import type { SiteSettings } from "../settings/settings.schema";

/** The registrant a calendar invitation is for. */
type Invitee = { id: number; representative_name: string; email: string };

/** `Masthead <noreply@example.org>` → `noreply@example.org`. */
const addressOf = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();

/**
 * Calendar invitations in registrants' mails (issue 32, decision 0053): a confirmation carries the
 * meeting as METHOD:REQUEST, a cancellation or decline of a confirmed registration METHOD:CANCEL,
 * with the registration's UID and a SEQUENCE that rises with every invitation sent
 * (join_requests.invitation_sequence, raised in the mail's transaction). The meeting is read
 * before the change's transaction opens (on SQLite its one connection is the transaction's).
 */
export function createRegistrationInvitations(deps: {
  /** The meeting as the calendar files describe it (meetings.service invitationEntry). */
  entry: (meetingId: number, origin: string) => Promise<CalendarMeeting | null>;
  origin: string;
  /** MAIL_FROM: the organizer's address when the site has no e-mail of its own (setting site.email). */
  mailFrom: string;
  clock: Clock;
  /** Where a mail that goes without its invitation is told (one warning per mail). */
  logger?: Pick<Logger, "warn">;
}) {
  const origin = deps.origin.replace(/\/+$/, "");
  const host = new URL(origin).hostname;
  return {
    /** The meeting an invitation would describe, read before a transaction. */
    prepare: (meetingId: number | null) => (meetingId === null ? Promise.resolve(null) : deps.entry(meetingId, origin)),

    /** The invitation (or its cancellation) to attach, its sequence raised in `trx`; none without a meeting. */
    async attachment(
      trx: Kysely<Database>,
      calendar: CalendarMeeting | null,
      invitee: Invitee,
      method: "REQUEST" | "CANCEL",
      site: SiteSettings,
    ): Promise<NewMailAttachment | null> {
      if (!calendar) return null;
      const row = await trx
        .updateTable("join_requests")
        .set((eb) => ({ invitation_sequence: eb("invitation_sequence", "+", 1) }))
        .where("id", "=", invitee.id)
        .returning("invitation_sequence")
        .executeTakeFirst();
      if (!row) return null;
      const organizer = site["site.email"] || addressOf(deps.mailFrom);
      // Without an address to send it from (no site e-mail, no MAIL_FROM) there is no invitation: the
      // mail goes without it, and the operator hears why, once per mail.
      if (!organizer.includes("@")) {
        deps.logger?.warn(
          { registration: invitee.id, meeting: calendar.id, method },
          "calendar invitation not attached: no organizer address (set site.email or MAIL_FROM)",
        );
        return null;
      }
      try {
        return invitationAttachment(
          calendar,
          { id: invitee.id, name: invitee.representative_name, email: invitee.email },
          {
            host,
            organizer: { name: site["site.name"], email: organizer },
            sequence: Number(row.invitation_sequence),
            method,
            now: deps.clock(),
          },
        );
      } catch (error) {
        // An address the calendar format cannot carry (quotes, spaces): the mail goes without the invitation.
        deps.logger?.warn(
          { err: error, registration: invitee.id, meeting: calendar.id, method },
          "calendar invitation not attached: an address the calendar cannot carry",
        );
        return null;
      }
    },
  };
}
export type RegistrationInvitations = ReturnType<typeof createRegistrationInvitations>;
