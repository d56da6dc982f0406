import { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import { cleanTitle } from "../../lib/text";
import {
  type CalendarMeeting,
  dayValue,
  newCalendar,
  pageUrl,
  paragraphs,
  placeOf,
  spanOf,
  timeValue,
  uidHost,
  zoneOf,
} from "./meetings.calendar";

/**
 * A registration's calendar invitation (issue 32, decision 0053): an iTIP message (RFC 5546) that
 * mail clients show as an invitation and file in the attendee's calendar. Written with the same
 * helpers as the meeting's .ics file (meetings.calendar.ts): ical-generator for the text, the
 * meeting's VTIMEZONE from timezones-ical-library, wall-clock times as TZDate.
 *
 * One event per registration, under a UID of its own (`registration-{id}@{host}`), never the
 * meeting's UID: the attendee may also subscribe to the site's feed, and an invitation must not
 * replace or be replaced by the feed's event. Its times are those of the "add to calendar" links:
 * from the first timed session's start to the last one's end, or all-day over the meeting's dates
 * when no session has a time. An update is the same UID with a higher SEQUENCE; a cancellation
 * is METHOD:CANCEL, STATUS:CANCELLED with the same UID.
 */

export type InvitationRegistration = {
  id: number;
  /** The attendee's name, as registered. */
  name: string;
  email: string;
};

export type InvitationOptions = {
  /** The site's host name (example.org), the right-hand side of the UID. */
  host: string;
  /**
   * Who sends the invitation: the site's name and e-mail (settings site.name and site.email; the
   * mail's sender address when site.email is empty). Required: an invitation without one is refused.
   */
  organizer: { name: string; email: string };
  /** The registration's invitation_sequence: 0 for the first, one more for each update or the cancellation. */
  sequence: number;
  /** REQUEST invites (or updates), CANCEL withdraws the invitation. */
  method: "REQUEST" | "CANCEL";
  /** DTSTAMP, the time the invitation is written (default: now). */
  now?: Date;
};

export const INVITATION_FILENAME = "invite.ics";

/** The invitation's UID: the same for every message about one registration. */
export function invitationUid(registrationId: number, host: string): string {
  return `registration-${registrationId}@${uidHost(host)}`;
}

/** One plain address for a mailto: value (ical-generator escapes line breaks, but a mangled address still reaches the calendar). */
function mailAddress(role: string, email: string): void {
  if (!/^[^\s@:;,"<>]+@[^\s@:;,"<>]+$/.test(email)) {
    throw new Error(`Not an ${role} e-mail for an invitation: ${JSON.stringify(email)}`);
  }
}

/** The ICS text of a registration's calendar invitation (or its cancellation). */
export function invitationIcs(
  meeting: CalendarMeeting,
  registration: InvitationRegistration,
  options: InvitationOptions,
): string {
  // RFC 5546 wants an ORGANIZER on every REQUEST and CANCEL; with no site e-mail set, the caller
  // names the address the mail is sent from.
  mailAddress("organizer", options.organizer.email);
  mailAddress("attendee", registration.email);
  const zone = zoneOf(meeting);
  const span = spanOf(meeting);
  const cancel = options.method === "CANCEL";
  const url = pageUrl(meeting);
  const calendar = newCalendar(options.organizer.name || "Meetings");
  calendar.method(cancel ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST);
  calendar.createEvent({
    id: invitationUid(registration.id, options.host),
    sequence: Math.max(0, Math.trunc(options.sequence)),
    stamp: options.now ?? new Date(),
    summary: cleanTitle(meeting.title) || "Meeting",
    description: paragraphs(meeting.description, url) || null,
    location: placeOf(meeting),
    url,
    timezone: zone.ics,
    ...(span.allDay
      ? { allDay: true, start: dayValue(span.first, zone), end: dayValue(span.afterLast, zone) }
      : { start: timeValue(span.start, zone), end: timeValue(span.end, zone) }),
    status: cancel ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: cleanTitle(options.organizer.name) || options.organizer.email, email: options.organizer.email },
    attendees: [
      {
        name: cleanTitle(registration.name) || null,
        email: registration.email,
        role: ICalAttendeeRole.REQ,
        // The secretariat has confirmed the seat: nothing to answer, and no Accept/Decline reply
        // should go to the organizer's mailbox.
        rsvp: false,
        status: cancel ? null : ICalAttendeeStatus.ACCEPTED,
      },
    ],
  });
  return calendar.toString();
}

/**
 * What of a meeting an invitation shows and an attendee's calendar keeps: its time (the span above,
 * so dates, session times and the time zone), and its place.
 */
function invitationKey(meeting: CalendarMeeting): string {
  const span = spanOf(meeting);
  return JSON.stringify({
    timezone: meeting.timezone,
    span: span.allDay ? [span.first, span.afterLast] : [span.start.toISOString(), span.end.toISOString()],
    place: placeOf(meeting),
  });
}

/**
 * Whether an edit of a meeting changes the invitations its confirmed attendees hold (dates, times,
 * time zone or place), so that they are sent again with SEQUENCE + 1. A change of title, text or
 * programme that leaves the time and place as they were does not resend them.
 */
export function invitationChanged(before: CalendarMeeting, after: CalendarMeeting): boolean {
  return invitationKey(before) !== invitationKey(after);
}

/** What of an invitation changed, in plain words for the mail: the new time, the new place; absent when unchanged. */
export type InvitationChange = { when?: string; where?: string };

/** "Tuesday 8 December 2026", built from its parts: ICU versions differ on the comma after the weekday. */
const dayWords = (zone: string) => {
  const format = new Intl.DateTimeFormat("en-GB", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: zone,
  });
  return {
    format(instant: Date): string {
      const part = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
      return `${part.weekday} ${part.day} ${part.month} ${part.year}`;
    },
  };
};
const timeWords = (zone: string) =>
  new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone });

/** "Tuesday 8 December 2026 to Wednesday 9 December 2026", or with times: "…, 09:00 to 17:00 (Europe/Warsaw time)". */
export function invitationWhen(meeting: CalendarMeeting): string {
  const span = spanOf(meeting);
  if (span.allDay) {
    const days = dayWords("UTC");
    const first = new Date(`${span.first}T00:00:00Z`);
    const last = new Date(Date.parse(`${span.afterLast}T00:00:00Z`) - 86_400_000);
    return last > first ? `${days.format(first)} to ${days.format(last)}` : days.format(first);
  }
  const zone = zoneOf(meeting).name;
  const days = dayWords(zone);
  const times = timeWords(zone);
  const startDay = days.format(span.start);
  const endDay = days.format(span.end);
  const end = endDay === startDay ? times.format(span.end) : `${endDay}, ${times.format(span.end)}`;
  return `${startDay}, ${times.format(span.start)} to ${end} (${zone} time)`;
}

/**
 * What an edit changed of the invitations, in plain words (the new values), or null when nothing an
 * invitation shows changed (invitationChanged).
 */
export function invitationChanges(before: CalendarMeeting, after: CalendarMeeting): InvitationChange | null {
  if (!invitationChanged(before, after)) return null;
  const change: InvitationChange = {};
  const when = invitationWhen(after);
  // A new zone alone moves the instants: it counts as a new time.
  if (invitationWhen(before) !== when || before.timezone !== after.timezone) change.when = when;
  const place = placeOf(after);
  if (placeOf(before) !== place) change.where = place ?? "no place is given any more";
  if (!change.when && !change.where) change.when = when;
  return change;
}

/** The invitation as a queued mail's attachment (NewMail.attachments), sent as nodemailer's icalEvent. */
export function invitationAttachment(
  meeting: CalendarMeeting,
  registration: InvitationRegistration,
  options: InvitationOptions,
) {
  return {
    filename: INVITATION_FILENAME,
    contentType: "text/calendar",
    content: invitationIcs(meeting, registration, options),
    encoding: "utf8" as const,
    method: options.method,
  };
}
