import { TZDate } from "@date-fns/tz";
import {
  ICalCalendar,
  ICalCalendarMethod,
  type ICalEventData,
  ICalEventTransparency,
  escape as icsText,
} from "ical-generator";
import { tzlib_get_ical_block, tzlib_get_timezones } from "timezones-ical-library";
import { cleanLines, cleanTitle } from "../../lib/text";
import { isTimeZone, zonedTime } from "../../lib/time-zones";
import { meetingTypeLabel } from "./meetings.schema";

/**
 * Calendars for meetings (issue 13): an .ics file for one meeting, a subscribable feed of many, and
 * "add to calendar" links for Google Calendar and Outlook. Pure: the caller reads the meetings and
 * serves the text.
 *
 * - ical-generator writes the iCalendar text (escaping, line folding, UTF-8-safe folds).
 * - timezones-ical-library gives each zone's VTIMEZONE from current tz data (vzic output); a calendar
 *   app that lacks the zone still reads "14:00 Europe/Amsterdam" right on both sides of a DST change.
 * - Wall-clock times reach ical-generator as TZDate (@date-fns/tz): given a plain Date and a zone,
 *   ical-generator writes the Date's hours in the *server's* zone, so the same meeting would come out
 *   differently on a server in Auckland. The instant itself is always lib/time-zones' `zonedTime`.
 *
 * The meeting's own event is always all-day over its dates (DTEND the day after the last day, as
 * RFC 5545 wants), whether or not it has timed sessions: its UID then never changes kind
 * (DATE ↔ DATE-TIME) when a programme is added later, which calendar apps handle badly. Where timed
 * sessions exist, each is an event of its own and the all-day one is TRANSPARENT (free), so the
 * sessions alone mark the time as busy. Sessions without a start time are covered by the all-day event.
 */

export type CalendarMeeting = {
  id: number;
  slug: string;
  title: string;
  type: string;
  start_date: string;
  end_date: string | null;
  timezone: string;
  location: string | null;
  online: boolean;
  /** Plain text. */
  description: string | null;
  /** The meeting page's absolute URL. */
  url: string;
  sequence: number;
  /** ISO 8601 (UTC). */
  updated_at: string;
  schedules: {
    id: number;
    meeting_date: string;
    start: string | null;
    finish: string | null;
    meeting_date_info: string | null;
    description: string | null;
  }[];
};

export type MeetingIcsOptions = {
  /** The site's host name (example.org), the right-hand side of every UID. */
  host: string;
  calendarName: string;
  /** DTSTAMP, the time the calendar is written (default: now). */
  now?: Date;
};

export type CalendarFeedOptions = MeetingIcsOptions & {
  /** How often subscribers should fetch the feed again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
  refreshMinutes?: number;
};

export const DEFAULT_REFRESH_MINUTES = 360;

const HOUR_MS = 3_600_000;
/** Links carry at most this much of a description: the whole URL has to stay well under 8 KB. */
const LINK_DETAILS_MAX = 1500;
const TIME = /^(\d{1,2}):(\d{2})(?::\d{2})?$/;

type Schedule = CalendarMeeting["schedules"][number];
type Session = { schedule: Schedule; start: Date; end: Date };
/** `ics`: the TZID times are written in, or null to write them in UTC. */
export type Zone = { name: string; ics: string | null };

let knownZones: Set<string> | null = null;
const vtimezones = new Map<string, string | null>();

/**
 * The VTIMEZONE for a zone, under the name asked for: the library answers links with their target
 * (Europe/Amsterdam → Europe/Brussels since tz 2022b, same rules), and the TZID of the block must be
 * the one the events name. Null for UTC and for a zone the library lacks.
 */
function vtimezone(zone: string): string | null {
  if (vtimezones.has(zone)) return vtimezones.get(zone) ?? null;
  knownZones ??= new Set(tzlib_get_timezones() as string[]);
  let found: string | null = null;
  if (zone !== "UTC" && zone !== "Etc/UTC" && knownZones.has(zone)) {
    const block = tzlib_get_ical_block(zone);
    if (Array.isArray(block) && block[0]?.startsWith("BEGIN:VTIMEZONE")) {
      found = block[0].replace(/^TZID:.*$/m, `TZID:${zone}`).replace(/^X-LIC-LOCATION:.*$/m, `X-LIC-LOCATION:${zone}`);
    }
  }
  vtimezones.set(zone, found);
  return found;
}

export function zoneOf(meeting: CalendarMeeting): Zone {
  if (!isTimeZone(meeting.timezone)) {
    throw new Error(`Meeting ${meeting.id} has an unknown time zone: ${JSON.stringify(meeting.timezone)}`);
  }
  return { name: meeting.timezone, ics: vtimezone(meeting.timezone) ? meeting.timezone : null };
}

function parts(date: string): [number, number, number] {
  const [year, month, day] = date.split("-").map(Number);
  return [year, month, day];
}

function dayAfter(date: string): string {
  const [year, month, day] = parts(date);
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

/** The meeting's days: the first, and the day after the last (exclusive, as DTEND;VALUE=DATE is). */
function daysOf(meeting: CalendarMeeting): { first: string; afterLast: string } {
  const last = meeting.end_date && meeting.end_date > meeting.start_date ? meeting.end_date : meeting.start_date;
  return { first: meeting.start_date, afterLast: dayAfter(last) };
}

function minutesOf(time: string | null): number | null {
  const match = time ? TIME.exec(time.trim()) : null;
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return Number(match[1]) < 24 ? minutes : null;
}

function hhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/**
 * The sessions with a start time, as instants, in time order. A session ends at its finish time
 * (on the next day where the finish is before the start: an evening running past midnight), or an
 * hour after its start where it has no finish.
 */
function sessionsOf(meeting: CalendarMeeting, zone: Zone): Session[] {
  const sessions: Session[] = [];
  for (const schedule of meeting.schedules) {
    const start = minutesOf(schedule.start);
    if (start === null) continue;
    const startAt = zonedTime(schedule.meeting_date, hhmm(start), zone.name);
    const finish = minutesOf(schedule.finish);
    let endAt = new Date(startAt.getTime() + HOUR_MS);
    if (finish !== null && finish !== start) {
      const finishDate = finish > start ? schedule.meeting_date : dayAfter(schedule.meeting_date);
      endAt = zonedTime(finishDate, hhmm(finish), zone.name);
    }
    sessions.push({ schedule, start: startAt, end: endAt });
  }
  return sessions.sort((a, b) => a.start.getTime() - b.start.getTime() || a.schedule.id - b.schedule.id);
}

/** A date for an all-day event; a TZDate where a TZID is written, so no server zone enters. */
export function dayValue(date: string, zone: Zone): Date {
  const [year, month, day] = parts(date);
  return zone.ics ? new TZDate(year, month - 1, day, 0, 0, zone.ics) : new Date(Date.UTC(year, month - 1, day));
}

/** An instant as ical-generator should write it: wall-clock in the TZID zone, or UTC. */
export function timeValue(instant: Date, zone: Zone): Date {
  return zone.ics ? new TZDate(instant.getTime(), zone.ics) : instant;
}

/** Text blocks as one plain-text description, blank lines between them. */
export function paragraphs(...blocks: (string | null | undefined)[]): string {
  return blocks
    .map((block) => (block ? cleanLines(block) : ""))
    .filter(Boolean)
    .join("\n\n");
}

export function placeOf(meeting: CalendarMeeting): string | null {
  const place = meeting.location ? cleanTitle(meeting.location) : "";
  if (place && meeting.online) return `${place} and online`;
  return place || (meeting.online ? "Online" : null);
}

/** Only an absolute http(s) address, as the URL parser writes it (no spaces or line breaks left). */
export function pageUrl(meeting: CalendarMeeting): string | null {
  try {
    const url = new URL(meeting.url);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The right-hand side of a UID: a host name (and port), nothing that could end the line. */
export function uidHost(host: string): string {
  const clean = host.trim().toLowerCase();
  if (!/^[a-z0-9.\-[\]:]+$/.test(clean)) throw new Error(`Not a host name for calendar UIDs: ${JSON.stringify(host)}`);
  return clean;
}

function sessionSummary(title: string, schedule: Schedule): string {
  const label =
    (schedule.description ? cleanLines(schedule.description).split("\n")[0] : "") ||
    (schedule.meeting_date_info ? cleanTitle(schedule.meeting_date_info) : "");
  return label ? `${title}: ${label}` : title;
}

export function newCalendar(name: string): ICalCalendar {
  const calendar = new ICalCalendar({
    prodId: { company: "Masthead", product: "Meetings", language: "EN" },
    // ical-generator writes NAME and X-WR-CALNAME as they are given: the escaping is ours.
    name: icsText(cleanTitle(name), false),
    // No calendar-wide zone (X-WR-TIMEZONE): each event names its own, and the generator gives one
    // VTIMEZONE per zone the events name.
    timezone: { name: null, generator: vtimezone },
  });
  calendar.method(ICalCalendarMethod.PUBLISH);
  return calendar;
}

function addMeeting(calendar: ICalCalendar, meeting: CalendarMeeting, options: MeetingIcsOptions): void {
  const zone = zoneOf(meeting);
  const host = uidHost(options.host);
  const title = cleanTitle(meeting.title) || "Meeting";
  const url = pageUrl(meeting);
  const updated = new Date(meeting.updated_at);
  const common: Partial<ICalEventData> = {
    sequence: Math.max(0, Math.trunc(meeting.sequence)),
    stamp: options.now ?? new Date(),
    lastModified: Number.isNaN(updated.getTime()) ? null : updated,
    location: placeOf(meeting),
    url,
    timezone: zone.ics,
    categories: [{ name: meetingTypeLabel(meeting.type) }],
  };
  const sessions = sessionsOf(meeting, zone);
  const days = daysOf(meeting);

  calendar.createEvent({
    ...common,
    id: `meeting-${meeting.id}@${host}`,
    summary: title,
    description: paragraphs(meeting.description, url) || null,
    allDay: true,
    start: dayValue(days.first, zone),
    end: dayValue(days.afterLast, zone),
    transparency: sessions.length > 0 ? ICalEventTransparency.TRANSPARENT : ICalEventTransparency.OPAQUE,
  });

  for (const { schedule, start, end } of sessions) {
    calendar.createEvent({
      ...common,
      id: `meeting-${meeting.id}-session-${schedule.id}@${host}`,
      summary: sessionSummary(title, schedule),
      description: paragraphs(schedule.description, schedule.meeting_date_info, url) || null,
      start: timeValue(start, zone),
      end: timeValue(end, zone),
    });
  }
}

/** One meeting as an iCalendar file: its all-day event and one event per timed session. */
export function meetingIcs(meeting: CalendarMeeting, options: MeetingIcsOptions): string {
  const calendar = newCalendar(options.calendarName);
  addMeeting(calendar, meeting, options);
  return calendar.toString();
}

/** Many meetings as one subscribable calendar, one VTIMEZONE per zone they use. */
export function calendarFeedIcs(meetings: CalendarMeeting[], options: CalendarFeedOptions): string {
  const calendar = newCalendar(options.calendarName);
  const minutes = Math.max(1, Math.round(options.refreshMinutes ?? DEFAULT_REFRESH_MINUTES));
  calendar.ttl(minutes * 60);
  for (const meeting of meetings) addMeeting(calendar, meeting, options);
  return calendar.toString();
}

export type Span = { allDay: true; first: string; afterLast: string } | { allDay: false; start: Date; end: Date };

/** What a link adds: the meeting's days, or from the first session's start to the last session's end. */
export function spanOf(meeting: CalendarMeeting): Span {
  const zone = zoneOf(meeting);
  const sessions = sessionsOf(meeting, zone);
  if (sessions.length === 0) return { allDay: true, ...daysOf(meeting) };
  const end = Math.max(...sessions.map((s) => s.end.getTime()));
  return { allDay: false, start: sessions[0].start, end: new Date(end) };
}

function linkDetails(meeting: CalendarMeeting): string {
  const description = meeting.description ? cleanLines(meeting.description) : "";
  const short =
    description.length > LINK_DETAILS_MAX ? `${description.slice(0, LINK_DETAILS_MAX - 1).trimEnd()}…` : description;
  return paragraphs(short, pageUrl(meeting));
}

/** A query string with %20 for spaces: Outlook shows a "+" as it is. */
function query(params: Record<string, string | null>): string {
  return Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== null && entry[1] !== "")
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join("&");
}

/** 20261024T120000Z */
function compactUtc(instant: Date): string {
  return instant
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
}

/** 2026-10-24T12:00:00Z */
function isoUtc(instant: Date): string {
  return instant.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Google Calendar's "add event" page, filled in: all-day dates, or UTC instants shown in the meeting's zone. */
export function googleCalendarUrl(meeting: CalendarMeeting): string {
  const span = spanOf(meeting);
  const dates = span.allDay
    ? `${span.first.replace(/-/g, "")}/${span.afterLast.replace(/-/g, "")}`
    : `${compactUtc(span.start)}/${compactUtc(span.end)}`;
  return `https://calendar.google.com/calendar/render?${query({
    action: "TEMPLATE",
    text: cleanTitle(meeting.title),
    dates,
    ctz: meeting.timezone,
    details: linkDetails(meeting),
    location: placeOf(meeting),
  })}`;
}

/** Outlook on the web's new-event form, filled in: all-day dates (end exclusive), or UTC instants. */
export function outlookCalendarUrl(meeting: CalendarMeeting): string {
  const span = spanOf(meeting);
  return `https://outlook.live.com/calendar/0/action/compose?${query({
    subject: cleanTitle(meeting.title),
    startdt: span.allDay ? span.first : isoUtc(span.start),
    enddt: span.allDay ? span.afterLast : isoUtc(span.end),
    allday: span.allDay ? "true" : "false",
    body: linkDetails(meeting),
    location: placeOf(meeting),
  })}`;
}
