import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import {
  type CalendarMeeting,
  calendarFeedIcs,
  googleCalendarUrl,
  meetingIcs,
  outlookCalendarUrl,
} from "../../core/meetings/meetings.calendar";

/**
 * The calendars are read back with ical.js (Mozilla's parser, as Thunderbird uses): times given with
 * a TZID are resolved through the VTIMEZONE in the same file, as a calendar app without tz data does.
 */

const HOST = "masthead.example";
const NOW = new Date("2026-09-02T08:00:00Z");
const OPTIONS = { host: HOST, calendarName: "Masthead meetings", now: NOW };

type Schedule = CalendarMeeting["schedules"][number];

function session(id: number, meeting_date: string, start: string | null, finish: string | null = null): Schedule {
  return { id, meeting_date, start, finish, meeting_date_info: null, description: `Session ${id}` };
}

function meeting(overrides: Partial<CalendarMeeting> = {}): CalendarMeeting {
  return {
    id: 42,
    slug: "annual-conference-2026",
    title: "Annual Conference 2026",
    type: "conference",
    start_date: "2026-10-24",
    end_date: "2026-10-25",
    timezone: "Europe/Amsterdam",
    location: "RAI, Amsterdam",
    online: false,
    description: "Two days on marine electronics.",
    url: "https://masthead.example/events/annual-conference-2026",
    sequence: 3,
    updated_at: "2026-09-01T10:15:00.000Z",
    schedules: [
      { ...session(7, "2026-10-24", "14:00", "15:30"), meeting_date_info: "Day 1", description: "Opening keynote" },
      session(8, "2026-10-25", "14:00", "15:00"),
      session(9, "2026-10-25", null),
    ],
    ...overrides,
  };
}

function parse(text: string) {
  const root = new ICAL.Component(ICAL.parse(text));
  expect(root.name).toBe("vcalendar");
  const events = root.getAllSubcomponents("vevent").map((component) => new ICAL.Event(component));
  const zones = root
    .getAllSubcomponents("vtimezone")
    .map((component) => String(component.getFirstPropertyValue("tzid")));
  return { root, events, zones };
}

function byUid(events: ICAL.Event[], uid: string): ICAL.Event {
  const found = events.find((event) => event.uid === uid);
  if (!found) throw new Error(`no event ${uid} among ${events.map((e) => e.uid).join(", ")}`);
  return found;
}

/** A DATE-TIME with a TZID, converted to UTC through the VTIMEZONE it names. */
function utcOf(time: ICAL.Time, zone: string): string {
  expect(time.isDate).toBe(false);
  expect(time.zone?.tzid).toBe(zone);
  // The zone is the file's own VTIMEZONE, not a floating or built-in one.
  expect(time.zone?.component?.getFirstPropertyValue("tzid")).toBe(zone);
  return new Date(time.toUnixTime() * 1000).toISOString();
}

const sessionUid = (meetingId: number, scheduleId: number) => `meeting-${meetingId}-session-${scheduleId}@${HOST}`;

describe("meetingIcs", () => {
  it("writes a VTIMEZONE for the meeting's zone, with real DST rules, under the zone's own name", () => {
    const text = meetingIcs(meeting(), OPTIONS);
    const { zones, root } = parse(text);
    expect(zones).toEqual(["Europe/Amsterdam"]);
    const vtimezone = root.getFirstSubcomponent("vtimezone");
    expect(vtimezone?.getAllSubcomponents("daylight")).toHaveLength(1);
    expect(vtimezone?.getAllSubcomponents("standard")).toHaveLength(1);
    expect(text).toContain("METHOD:PUBLISH");
  });

  it("puts 14:00 Europe/Amsterdam at 13:00 UTC on 25 October 2026 (summer time has ended) and 12:00 UTC the day before", () => {
    const { events } = parse(meetingIcs(meeting(), OPTIONS));
    const before = byUid(events, sessionUid(42, 7));
    const after = byUid(events, sessionUid(42, 8));
    expect(before.startDate.toString()).toBe("2026-10-24T14:00:00");
    expect(utcOf(before.startDate, "Europe/Amsterdam")).toBe("2026-10-24T12:00:00.000Z");
    expect(utcOf(before.endDate, "Europe/Amsterdam")).toBe("2026-10-24T13:30:00.000Z");
    expect(after.startDate.toString()).toBe("2026-10-25T14:00:00");
    expect(utcOf(after.startDate, "Europe/Amsterdam")).toBe("2026-10-25T13:00:00.000Z");
    expect(utcOf(after.endDate, "Europe/Amsterdam")).toBe("2026-10-25T14:00:00.000Z");
  });

  it("follows America/New_York across its DST change, and ends a session without finish an hour after it starts", () => {
    const nyc = meeting({
      id: 5,
      timezone: "America/New_York",
      start_date: "2026-10-31",
      end_date: "2026-11-02",
      schedules: [
        session(1, "2026-10-31", "09:00", "10:00"),
        session(2, "2026-11-01", "09:00"),
        session(3, "2026-11-02", "09:00", "17:30"),
      ],
    });
    const { events, zones } = parse(meetingIcs(nyc, OPTIONS));
    expect(zones).toEqual(["America/New_York"]);
    expect(utcOf(byUid(events, sessionUid(5, 1)).startDate, "America/New_York")).toBe("2026-10-31T13:00:00.000Z");
    expect(utcOf(byUid(events, sessionUid(5, 2)).startDate, "America/New_York")).toBe("2026-11-01T14:00:00.000Z");
    expect(utcOf(byUid(events, sessionUid(5, 2)).endDate, "America/New_York")).toBe("2026-11-01T15:00:00.000Z");
    expect(utcOf(byUid(events, sessionUid(5, 3)).endDate, "America/New_York")).toBe("2026-11-02T22:30:00.000Z");
  });

  it("makes the meeting itself an all-day event over its dates, DTEND the day after the last", () => {
    const { events } = parse(meetingIcs(meeting(), OPTIONS));
    const whole = byUid(events, `meeting-42@${HOST}`);
    expect(whole.startDate.isDate).toBe(true);
    expect(whole.endDate.isDate).toBe(true);
    expect(whole.startDate.toString()).toBe("2026-10-24");
    expect(whole.endDate.toString()).toBe("2026-10-26");
    // Timed sessions carry the busy time; the all-day banner does not.
    expect(whole.component.getFirstPropertyValue("transp")).toBe("TRANSPARENT");

    const oneDay = parse(meetingIcs(meeting({ end_date: null, schedules: [] }), OPTIONS));
    expect(oneDay.events).toHaveLength(1);
    expect(oneDay.events[0].startDate.toString()).toBe("2026-10-24");
    expect(oneDay.events[0].endDate.toString()).toBe("2026-10-25");
    expect(oneDay.events[0].component.getFirstPropertyValue("transp")).toBe("OPAQUE");
    expect(oneDay.zones).toEqual(["Europe/Amsterdam"]);
  });

  it("writes one event per session that has a start time, and runs an evening past midnight into the next day", () => {
    const late = meeting({
      schedules: [session(1, "2026-10-24", "22:00", "01:00"), session(2, "2026-10-24", null, "12:00")],
    });
    const { events } = parse(meetingIcs(late, OPTIONS));
    expect(events.map((e) => e.uid)).toEqual([`meeting-42@${HOST}`, sessionUid(42, 1)]);
    expect(events[1].endDate.toString()).toBe("2026-10-25T01:00:00");
    expect(utcOf(events[1].endDate, "Europe/Amsterdam")).toBe("2026-10-24T23:00:00.000Z");
  });

  it("keeps UIDs stable across edits, distinct between sessions, and carries SEQUENCE, DTSTAMP and LAST-MODIFIED", () => {
    const first = parse(meetingIcs(meeting(), OPTIONS)).events;
    const edited = parse(
      meetingIcs(
        meeting({ title: "Annual Conference 2026 (moved)", sequence: 4, updated_at: "2026-09-05T07:00:00Z" }),
        {
          ...OPTIONS,
          now: new Date("2026-09-06T00:00:00Z"),
        },
      ),
    ).events;
    const uids = first.map((e) => e.uid);
    expect(uids).toEqual([`meeting-42@${HOST}`, sessionUid(42, 7), sessionUid(42, 8)]);
    expect(new Set(uids).size).toBe(uids.length);
    expect(edited.map((e) => e.uid)).toEqual(uids);

    for (const event of first) {
      expect(event.sequence).toBe(3);
      expect(event.component.getFirstPropertyValue("dtstamp")?.toString()).toBe("2026-09-02T08:00:00Z");
      expect(event.component.getFirstPropertyValue("last-modified")?.toString()).toBe("2026-09-01T10:15:00Z");
    }
    for (const event of edited) {
      expect(event.sequence).toBe(4);
      expect(event.component.getFirstPropertyValue("last-modified")?.toString()).toBe("2026-09-05T07:00:00Z");
    }
  });

  it("carries summary, location, plain-text description and URL; an online meeting is 'Online'", () => {
    const { events } = parse(meetingIcs(meeting(), OPTIONS));
    const whole = byUid(events, `meeting-42@${HOST}`);
    expect(whole.summary).toBe("Annual Conference 2026");
    expect(whole.location).toBe("RAI, Amsterdam");
    expect(whole.description).toBe(
      "Two days on marine electronics.\n\nhttps://masthead.example/events/annual-conference-2026",
    );
    expect(whole.component.getFirstPropertyValue("url")).toBe("https://masthead.example/events/annual-conference-2026");
    expect(byUid(events, sessionUid(42, 7)).summary).toBe("Annual Conference 2026: Opening keynote");

    const online = parse(meetingIcs(meeting({ location: null, online: true, type: "webinar" }), OPTIONS)).events;
    expect(online[0].location).toBe("Online");
    expect(online[0].component.getFirstPropertyValue("categories")).toBe("Webinar");
  });

  it("round-trips commas, semicolons, backslashes, line breaks and emoji", () => {
    const title = 'Radar, AIS; ECDIS \\ "NMEA" — 🚢 Summit ⚓';
    const description = "Line one; a, b\nLine two \\ c 🌊\r\nLine three";
    const text = meetingIcs(meeting({ title, description, location: "Quay 4; Berth 2, Rotterdam" }), {
      ...OPTIONS,
      calendarName: "Meetings, workshops; more",
    });
    expect(text.split("\r\n").every((line) => Buffer.byteLength(line, "utf8") <= 75)).toBe(true);
    const { events, root } = parse(text);
    expect(events[0].summary).toBe(title);
    expect(events[0].location).toBe("Quay 4; Berth 2, Rotterdam");
    expect(events[0].description).toBe(
      "Line one; a, b\nLine two \\ c 🌊\nLine three\n\nhttps://masthead.example/events/annual-conference-2026",
    );
    expect(text).toContain("X-WR-CALNAME:Meetings\\, workshops\\; more");
    // ical.js reads X-WR-CALNAME as an unknown (raw) property: unescape it as TEXT.
    const raw = String(root.getFirstPropertyValue("x-wr-calname"));
    expect(ICAL.design.icalendar.value.text.fromICAL(raw)).toBe("Meetings, workshops; more");
  });

  it("lets no admin text inject iCalendar lines", () => {
    const evil = "Evil\r\nBEGIN:VEVENT\r\nUID:injected@evil\r\nEND:VEVENT";
    const text = meetingIcs(
      meeting({
        title: `Conference${evil}`,
        description: `About${evil}`,
        location: `Hall${evil}`,
        schedules: [{ ...session(7, "2026-10-24", "14:00"), description: `Keynote${evil}`, meeting_date_info: evil }],
      }),
      { ...OPTIONS, calendarName: `Feed${evil}` },
    );
    const lines = text.split("\r\n");
    expect(lines.filter((line) => line === "BEGIN:VEVENT")).toHaveLength(2);
    expect(lines.some((line) => line.startsWith("UID:injected"))).toBe(false);
    const { events } = parse(text);
    expect(events.map((e) => e.uid)).toEqual([`meeting-42@${HOST}`, sessionUid(42, 7)]);
    expect(events[0].summary).toBe("ConferenceEvil BEGIN:VEVENT UID:injected@evil END:VEVENT");
    expect(events[0].description.startsWith("AboutEvil\nBEGIN:VEVENT\nUID:injected@evil\nEND:VEVENT")).toBe(true);
    expect(() => meetingIcs(meeting(), { ...OPTIONS, host: "evil\r\nX-INJECTED:1" })).toThrow(/host/);
  });

  it("writes the same text whatever the server's time zone", () => {
    const saved = process.env.TZ;
    try {
      process.env.TZ = "Pacific/Auckland";
      const auckland = meetingIcs(meeting(), OPTIONS);
      process.env.TZ = "America/Los_Angeles";
      const losAngeles = meetingIcs(meeting(), OPTIONS);
      expect(auckland).toBe(losAngeles);
      expect(auckland).toContain("DTSTART;TZID=Europe/Amsterdam:20261025T140000");
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it("writes a UTC meeting's times in UTC, and refuses a zone that is not one", () => {
    const utc = parse(meetingIcs(meeting({ timezone: "UTC" }), OPTIONS));
    expect(utc.zones).toEqual([]);
    const start = byUid(utc.events, sessionUid(42, 8)).startDate;
    expect(start.zone?.tzid).toBe("UTC");
    expect(start.toString()).toBe("2026-10-25T14:00:00Z");
    expect(utc.events[0].startDate.toString()).toBe("2026-10-24");

    expect(() => meetingIcs(meeting({ timezone: "Europe/Atlantis" }), OPTIONS)).toThrow(/time zone/);
  });
});

describe("calendarFeedIcs", () => {
  const feed = [
    meeting(),
    meeting({
      id: 43,
      title: "Technical Workshop",
      type: "workshop",
      timezone: "America/New_York",
      start_date: "2026-11-01",
      end_date: null,
      schedules: [session(20, "2026-11-01", "09:00", "12:00"), session(21, "2026-11-01", "13:00", "17:00")],
    }),
    meeting({ id: 44, title: "Members' meeting", start_date: "2026-12-03", end_date: null, schedules: [] }),
  ];

  it("has one VTIMEZONE per zone and one VEVENT per meeting and timed session", () => {
    const { zones, events } = parse(calendarFeedIcs(feed, OPTIONS));
    expect(zones.sort()).toEqual(["America/New_York", "Europe/Amsterdam"]);
    expect(events.map((e) => e.uid).sort()).toEqual(
      [
        `meeting-42@${HOST}`,
        sessionUid(42, 7),
        sessionUid(42, 8),
        `meeting-43@${HOST}`,
        sessionUid(43, 20),
        sessionUid(43, 21),
        `meeting-44@${HOST}`,
      ].sort(),
    );
    expect(utcOf(byUid(events, sessionUid(43, 20)).startDate, "America/New_York")).toBe("2026-11-01T14:00:00.000Z");
  });

  it("names itself and tells subscribers how often to refresh", () => {
    const text = calendarFeedIcs(feed, { ...OPTIONS, refreshMinutes: 90 });
    const { root } = parse(text);
    expect(root.getFirstPropertyValue("x-wr-calname")).toBe("Masthead meetings");
    expect(root.getFirstPropertyValue("method")).toBe("PUBLISH");
    expect(root.getFirstPropertyValue("x-published-ttl")).toBe("PT1H30M");
    expect(text).toContain("REFRESH-INTERVAL;VALUE=DURATION:PT1H30M");
    expect(calendarFeedIcs(feed, OPTIONS)).toContain("X-PUBLISHED-TTL:PT6H");
    const empty = parse(calendarFeedIcs([], OPTIONS));
    expect(empty.events).toHaveLength(0);
  });
});

describe("add-to-calendar links", () => {
  it("gives Google the first session's start to the last session's end, in UTC, with the meeting's zone", () => {
    const url = new URL(googleCalendarUrl(meeting()));
    expect(url.origin + url.pathname).toBe("https://calendar.google.com/calendar/render");
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      action: "TEMPLATE",
      text: "Annual Conference 2026",
      dates: "20261024T120000Z/20261025T140000Z",
      ctz: "Europe/Amsterdam",
      location: "RAI, Amsterdam",
    });
    expect(url.searchParams.get("details")).toContain("https://masthead.example/events/annual-conference-2026");
    expect(url.search).not.toContain("+");
  });

  it("gives Google all-day dates, end exclusive, when no session has a time", () => {
    const url = new URL(googleCalendarUrl(meeting({ schedules: [session(1, "2026-10-24", null)] })));
    expect(url.searchParams.get("dates")).toBe("20261024/20261026");
  });

  it("gives Outlook UTC instants, or all-day dates with allday=true", () => {
    const timed = new URL(outlookCalendarUrl(meeting()));
    expect(timed.origin + timed.pathname).toBe("https://outlook.live.com/calendar/0/action/compose");
    expect(Object.fromEntries(timed.searchParams)).toMatchObject({
      subject: "Annual Conference 2026",
      startdt: "2026-10-24T12:00:00Z",
      enddt: "2026-10-25T14:00:00Z",
      allday: "false",
    });
    expect(timed.searchParams.get("body")).toContain("Two days on marine electronics.");

    const allDay = new URL(
      outlookCalendarUrl(meeting({ schedules: [], end_date: null, online: true, location: null })),
    );
    expect(Object.fromEntries(allDay.searchParams)).toMatchObject({
      startdt: "2026-10-24",
      enddt: "2026-10-25",
      allday: "true",
      location: "Online",
    });
  });

  it("follows New York's DST change in the link's UTC instants", () => {
    const nyc = meeting({
      timezone: "America/New_York",
      start_date: "2026-10-31",
      end_date: "2026-11-01",
      schedules: [session(1, "2026-10-31", "09:00", "10:00"), session(2, "2026-11-01", "09:00", "10:00")],
    });
    expect(new URL(googleCalendarUrl(nyc)).searchParams.get("dates")).toBe("20261031T130000Z/20261101T150000Z");
    expect(new URL(outlookCalendarUrl(nyc)).searchParams.get("enddt")).toBe("2026-11-01T15:00:00Z");
  });
});
