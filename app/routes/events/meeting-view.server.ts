import { googleCalendarUrl, outlookCalendarUrl } from "../../../core/meetings/meetings.calendar";
import type { Meeting } from "../../../core/meetings/meetings.schema";
import type { RequestContext } from "../../../core/request-context";
import { isoWithOffset, zoneAbbreviation, zonedTime } from "../../../lib/time-zones";
import { formatTimes } from "../../components/events/format";
import type { MeetingView, SessionTime } from "../../components/events/meeting-view";
import { scriptJson } from "../../components/ui/json-ld";
import { absoluteUrl } from "../../lib/seo";

/** A session's times in the meeting's zone: the abbreviation is the one of that session's date (DST). */
export function sessionTime(
  session: { meeting_date: string; start: string | null; finish: string | null },
  zone: string,
): SessionTime {
  const start = session.start ? zonedTime(session.meeting_date, session.start, zone) : null;
  const finish = session.finish ? zonedTime(session.meeting_date, session.finish, zone) : null;
  return {
    label: formatTimes(session.start, session.finish),
    abbreviation: zoneAbbreviation(start ?? zonedTime(session.meeting_date, "12:00", zone), zone),
    startIso: session.start ? isoWithOffset(session.meeting_date, session.start, zone) : null,
    startUtc: start?.toISOString() ?? null,
    finishUtc: finish?.toISOString() ?? null,
  };
}

/**
 * schema.org Event: dates with the zone's offset when the programme has times (first start to
 * last finish), plain dates otherwise; a Place or a VirtualLocation (the page) by the format.
 */
export function meetingJsonLd(
  meeting: Meeting,
  options: { origin: string; path: string; siteName: string; description: string; online: boolean },
) {
  const { origin } = options;
  const pageUrl = `${origin}${options.path}`;
  const timed = meeting.schedules.filter((s) => s.start);
  const first = timed[0];
  const last = timed.at(-1);
  const startDate = first?.start
    ? isoWithOffset(first.meeting_date, first.start, meeting.timezone)
    : meeting.start_date;
  const endDate = last
    ? isoWithOffset(last.meeting_date, (last.finish ?? last.start) as string, meeting.timezone)
    : (meeting.end_date ?? meeting.start_date);
  const online = options.online;
  const hybrid = /\bhybrid\b/i.test(meeting.meeting_type ?? "");
  const place = meeting.location
    ? { "@type": "Place", name: meeting.location.split(",")[0].trim(), address: meeting.location }
    : null;
  const virtual = { "@type": "VirtualLocation", url: pageUrl };
  const location = online ? virtual : hybrid && place ? [place, virtual] : (place ?? undefined);
  return {
    "@context": "https://schema.org",
    "@type": "Event",
    name: meeting.title,
    description: options.description,
    url: pageUrl,
    startDate,
    endDate,
    eventStatus: "https://schema.org/EventScheduled",
    eventAttendanceMode: online
      ? "https://schema.org/OnlineEventAttendanceMode"
      : hybrid
        ? "https://schema.org/MixedEventAttendanceMode"
        : "https://schema.org/OfflineEventAttendanceMode",
    ...(location ? { location } : {}),
    organizer: { "@type": "Organization", name: options.siteName, url: origin },
    ...(meeting.images.length > 0 ? { image: meeting.images.map((image) => absoluteUrl(origin, image.url)) } : {}),
  };
}

/**
 * Everything a meeting page shows beside the meeting: times in its zone, the calendar links,
 * the JSON-LD and whether it takes registrations. `path` is the page's own address.
 */
export async function meetingView(
  context: Pick<RequestContext, "services" | "origin">,
  meeting: Meeting,
  options: { path: string; area: "public" | "members"; description: string },
): Promise<MeetingView> {
  const { services, origin } = context;
  const [settings, counts] = await Promise.all([
    services.settings.getAll(),
    services.registrations.seatsTaken([meeting.id]),
  ]);
  const times: Record<number, SessionTime> = {};
  for (const session of meeting.schedules) times[session.id] = sessionTime(session, meeting.timezone);
  const opening = meeting.schedules.find((s) => s.start) ?? { meeting_date: meeting.start_date, start: "12:00" };
  const entry = services.meetings.calendarEntry(meeting, origin, options.area);
  return {
    title: meeting.title,
    zone: {
      name: meeting.timezone,
      abbreviation: zoneAbbreviation(
        zonedTime(opening.meeting_date, opening.start ?? "12:00", meeting.timezone),
        meeting.timezone,
      ),
    },
    times,
    calendar: {
      ics: `/events/${meeting.slug}.ics`,
      google: googleCalendarUrl(entry),
      outlook: outlookCalendarUrl(entry),
    },
    jsonLd: scriptJson(
      meetingJsonLd(meeting, {
        origin,
        path: options.path,
        siteName: settings["site.name"],
        description: options.description,
        online: entry.online,
      }),
    ),
    registration: services.meetings.registrationState(meeting, counts.get(meeting.id) ?? 0),
  };
}
