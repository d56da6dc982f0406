import type { Meeting } from "../../../core/meetings/meetings.schema";

/**
 * Meeting dates are calendar days (YYYY-MM-DD) and times are local to the venue
 * (HH:MM), so they are shown as written: read as UTC, never shifted by the
 * server's or the visitor's time zone. One formatter each, made once.
 */
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", timeZone: "UTC" });
const DAY_MONTH = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", timeZone: "UTC" });
const FULL = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
const WEEKDAY = new Intl.DateTimeFormat("en-GB", {
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});
const MONTH_SHORT = new Intl.DateTimeFormat("en-GB", { month: "short", timeZone: "UTC" });

const day = (iso: string) => new Date(`${iso.slice(0, 10)}T00:00:00Z`);

/** "10–13 May 2027", "29 April – 2 May 2027", "30 December 2026 – 2 January 2027" or one day. */
export function formatDateRange(start: string, end: string | null): string {
  const from = day(start);
  if (!end || end.slice(0, 10) <= start.slice(0, 10)) return FULL.format(from);
  const to = day(end);
  if (from.getUTCFullYear() !== to.getUTCFullYear()) return `${FULL.format(from)} – ${FULL.format(to)}`;
  if (from.getUTCMonth() !== to.getUTCMonth()) return `${DAY_MONTH.format(from)} – ${FULL.format(to)}`;
  return `${DAY.format(from)}–${FULL.format(to)}`;
}

/** "Monday 10 May 2027", for a day of the programme. */
export function formatWeekday(date: string): string {
  return WEEKDAY.format(day(date)).replace(",", "");
}

/** The parts of a calendar tile: day of month, short month, year. */
export function dateTile(date: string): { day: string; month: string; year: string } {
  const d = day(date);
  return { day: DAY.format(d), month: MONTH_SHORT.format(d), year: String(d.getUTCFullYear()) };
}

/** "08:30–09:00", "19:00", or "" when the programme gives no time. */
export function formatTimes(start: string | null, finish: string | null): string {
  if (start && finish) return `${start}–${finish}`;
  return start ?? finish ?? "";
}

/** A meeting's search-result description: what, when, where, then the start of its text (plain). */
export function meetingDescription(meeting: Meeting, text: string): string {
  const lead = [meeting.content_title, formatDateRange(meeting.start_date, meeting.end_date), meeting.location]
    .filter(Boolean)
    .join(" · ");
  const full = text ? `${lead}. ${text}` : lead;
  return full.length > 158 ? `${full.slice(0, 157).replace(/\s+\S*$/, "")}…` : full;
}
