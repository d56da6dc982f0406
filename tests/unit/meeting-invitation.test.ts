import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import {
  type InvitationOptions,
  invitationAttachment,
  invitationChanged,
  invitationIcs,
  invitationUid,
} from "../../core/meetings/invitation";
import type { CalendarMeeting } from "../../core/meetings/meetings.calendar";

/** Invitations read back with ical.js (Mozilla's parser, as Thunderbird uses), times through the file's own VTIMEZONE. */

const HOST = "masthead.example";
const NOW = new Date("2026-09-02T08:00:00Z");
const REGISTRATION = { id: 314, name: "Ingrid Solberg", email: "ingrid@nordicbridge.example" };

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
    sequence: 9,
    updated_at: "2026-09-01T10:15:00.000Z",
    schedules: [session(7, "2026-10-24", "14:00", "15:30"), session(8, "2026-10-25", "09:00", "17:00")],
    ...overrides,
  };
}

function options(overrides: Partial<InvitationOptions> = {}): InvitationOptions {
  return {
    host: HOST,
    organizer: { name: "Masthead", email: "secretariat@masthead.example" },
    sequence: 0,
    method: "REQUEST",
    now: NOW,
    ...overrides,
  };
}

function parse(text: string) {
  const root = new ICAL.Component(ICAL.parse(text));
  expect(root.name).toBe("vcalendar");
  const vevents = root.getAllSubcomponents("vevent");
  // An iTIP message about one registration: exactly one event.
  expect(vevents).toHaveLength(1);
  const vevent = vevents[0];
  const zones = root.getAllSubcomponents("vtimezone").map((c) => String(c.getFirstPropertyValue("tzid")));
  return { root, vevent, event: new ICAL.Event(vevent), zones, method: root.getFirstPropertyValue("method") };
}

function utcOf(time: ICAL.Time, zone: string): string {
  expect(time.isDate).toBe(false);
  expect(time.zone?.tzid).toBe(zone);
  expect(time.zone?.component?.getFirstPropertyValue("tzid")).toBe(zone);
  return new Date(time.toUnixTime() * 1000).toISOString();
}

describe("invitationIcs", () => {
  it("is a REQUEST with the meeting's VTIMEZONE, the registration's UID, the given SEQUENCE, organizer and accepted attendee", () => {
    const { method, event, vevent, zones } = parse(invitationIcs(meeting(), REGISTRATION, options({ sequence: 2 })));
    expect(method).toBe("REQUEST");
    expect(zones).toEqual(["Europe/Amsterdam"]);
    expect(event.uid).toBe(`registration-314@${HOST}`);
    expect(event.uid).toBe(invitationUid(314, HOST));
    expect(event.sequence).toBe(2);
    expect(event.summary).toBe("Annual Conference 2026");
    expect(event.location).toBe("RAI, Amsterdam");
    expect(event.description).toContain("https://masthead.example/events/annual-conference-2026");
    expect(vevent.getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(String(vevent.getFirstPropertyValue("url"))).toBe("https://masthead.example/events/annual-conference-2026");

    const organizer = vevent.getFirstProperty("organizer");
    expect(String(organizer?.getFirstValue()).toLowerCase()).toBe("mailto:secretariat@masthead.example");
    expect(organizer?.getParameter("cn")).toBe("Masthead");

    const attendees = vevent.getAllProperties("attendee");
    expect(attendees).toHaveLength(1);
    expect(String(attendees[0].getFirstValue()).toLowerCase()).toBe("mailto:ingrid@nordicbridge.example");
    expect(attendees[0].getParameter("cn")).toBe("Ingrid Solberg");
    expect(attendees[0].getParameter("partstat")).toBe("ACCEPTED");
    expect(attendees[0].getParameter("rsvp")).toBe("FALSE");
    expect(attendees[0].getParameter("role")).toBe("REQ-PARTICIPANT");
  });

  it("keeps one UID for a registration across calls and sequences, and gives another registration another", () => {
    const first = parse(invitationIcs(meeting(), REGISTRATION, options({ sequence: 0 }))).event;
    const update = parse(
      invitationIcs(meeting({ location: "Beurs van Berlage, Amsterdam" }), REGISTRATION, options({ sequence: 1 })),
    ).event;
    const other = parse(invitationIcs(meeting(), { ...REGISTRATION, id: 315 }, options())).event;
    expect(update.uid).toBe(first.uid);
    expect([first.sequence, update.sequence]).toEqual([0, 1]);
    expect(other.uid).toBe(`registration-315@${HOST}`);
    // Not the meeting's own UID in the site's .ics and feed, which the attendee may also subscribe to.
    expect(first.uid).not.toBe(`meeting-42@${HOST}`);
  });

  it("cancels with METHOD:CANCEL, STATUS:CANCELLED and the same UID, at the sequence given", () => {
    const request = parse(invitationIcs(meeting(), REGISTRATION, options({ sequence: 1 })));
    const cancel = parse(invitationIcs(meeting(), REGISTRATION, options({ sequence: 2, method: "CANCEL" })));
    expect(cancel.method).toBe("CANCEL");
    expect(cancel.vevent.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(cancel.event.uid).toBe(request.event.uid);
    expect(cancel.event.sequence).toBe(2);
    expect(cancel.zones).toEqual(["Europe/Amsterdam"]);
    const attendee = cancel.vevent.getFirstProperty("attendee");
    expect(String(attendee?.getFirstValue()).toLowerCase()).toBe("mailto:ingrid@nordicbridge.example");
    expect(attendee?.getParameter("partstat")).toBeUndefined();
  });

  it("runs a timed meeting from its first session's start to its last session's end, in the meeting's zone", () => {
    const { event } = parse(invitationIcs(meeting(), REGISTRATION, options()));
    expect(event.startDate.toString()).toBe("2026-10-24T14:00:00");
    // Summer time ends on 25 October: 14:00 is 12:00 UTC on the 24th, 17:00 is 16:00 UTC on the 25th.
    expect(utcOf(event.startDate, "Europe/Amsterdam")).toBe("2026-10-24T12:00:00.000Z");
    expect(utcOf(event.endDate, "Europe/Amsterdam")).toBe("2026-10-25T16:00:00.000Z");
  });

  it("follows another zone: America/New_York's VTIMEZONE and times", () => {
    const nyc = meeting({
      timezone: "America/New_York",
      start_date: "2026-11-02",
      end_date: null,
      schedules: [session(1, "2026-11-02", "09:00", "17:30")],
    });
    const { event, zones } = parse(invitationIcs(nyc, REGISTRATION, options()));
    expect(zones).toEqual(["America/New_York"]);
    expect(utcOf(event.startDate, "America/New_York")).toBe("2026-11-02T14:00:00.000Z");
    expect(utcOf(event.endDate, "America/New_York")).toBe("2026-11-02T22:30:00.000Z");
  });

  it("makes a meeting without timed sessions all-day over its dates, DTEND the day after the last", () => {
    const allDay = meeting({ schedules: [session(9, "2026-10-24", null)] });
    const { event } = parse(invitationIcs(allDay, REGISTRATION, options()));
    expect(event.startDate.isDate).toBe(true);
    expect(event.startDate.toString()).toBe("2026-10-24");
    expect(event.endDate.isDate).toBe(true);
    expect(event.endDate.toString()).toBe("2026-10-26");
  });

  it("writes times in UTC, without a VTIMEZONE, for a meeting in UTC", () => {
    const utc = meeting({ timezone: "UTC", schedules: [session(1, "2026-10-24", "10:00", "11:00")] });
    const { event, zones } = parse(invitationIcs(utc, REGISTRATION, options()));
    expect(zones).toEqual([]);
    expect(event.startDate.zone?.tzid).toBe("UTC");
    expect(event.startDate.toString()).toBe("2026-10-24T10:00:00Z");
  });

  it("names an online meeting's place, and escapes what the attendee typed", () => {
    const online = meeting({ location: null, online: true });
    const text = invitationIcs(online, { ...REGISTRATION, name: 'Ingrid "I." Solberg;\r\nX-EVIL:1' }, options());
    const { event, vevent } = parse(text);
    expect(event.location).toBe("Online");
    expect(text).not.toMatch(/^X-EVIL/m);
    expect(vevent.getAllProperties("attendee")).toHaveLength(1);
  });

  it("refuses to write an invitation without an organizer e-mail (site.email not set) or with a broken address", () => {
    expect(() =>
      invitationIcs(meeting(), REGISTRATION, options({ organizer: { name: "Masthead", email: "" } })),
    ).toThrow(/organizer/);
    expect(() =>
      invitationIcs(meeting(), REGISTRATION, options({ organizer: { name: "Masthead", email: "a@b.example\r\nX:1" } })),
    ).toThrow(/organizer/);
    expect(() =>
      invitationIcs(
        meeting(),
        { ...REGISTRATION, email: "ingrid@x.example\r\nATTENDEE:mailto:b@x.example" },
        options(),
      ),
    ).toThrow(/attendee/);
  });

  it("is also the queued mail's calendar attachment, with its method", () => {
    const attachment = invitationAttachment(meeting(), REGISTRATION, options({ method: "CANCEL", sequence: 4 }));
    expect(attachment).toMatchObject({
      filename: "invite.ics",
      contentType: "text/calendar",
      encoding: "utf8",
      method: "CANCEL",
    });
    expect(parse(attachment.content).event.sequence).toBe(4);
  });
});

describe("invitationChanged", () => {
  it("is true when the dates, a session's time that moves the span, the time zone or the place change", () => {
    const base = meeting();
    const allDay = meeting({ schedules: [] });
    expect(invitationChanged(allDay, meeting({ schedules: [], end_date: "2026-10-26" }))).toBe(true);
    expect(invitationChanged(allDay, meeting({ schedules: [], start_date: "2026-10-23" }))).toBe(true);
    expect(
      invitationChanged(
        base,
        meeting({
          schedules: [session(7, "2026-10-24", "13:00", "15:30"), session(8, "2026-10-25", "09:00", "17:00")],
        }),
      ),
    ).toBe(true);
    expect(invitationChanged(base, meeting({ timezone: "Europe/London" }))).toBe(true);
    expect(invitationChanged(allDay, meeting({ schedules: [], timezone: "Europe/London" }))).toBe(true);
    expect(invitationChanged(base, meeting({ location: "Beurs van Berlage, Amsterdam" }))).toBe(true);
    expect(invitationChanged(base, meeting({ online: true }))).toBe(true);
    // A meeting gaining its first timed session goes from all-day to timed.
    expect(invitationChanged(allDay, base)).toBe(true);
  });

  it("is false for a change of title, text or a session inside the span", () => {
    const base = meeting();
    expect(invitationChanged(base, meeting())).toBe(false);
    expect(invitationChanged(base, meeting({ title: "Annual Conference", description: "New text." }))).toBe(false);
    // With timed sessions the invitation runs from session to session: the first day alone does not show.
    expect(invitationChanged(base, meeting({ start_date: "2026-10-23" }))).toBe(false);
    expect(
      invitationChanged(
        base,
        meeting({
          schedules: [
            session(7, "2026-10-24", "14:00", "15:30"),
            session(10, "2026-10-24", "16:00", "17:00"),
            session(8, "2026-10-25", "09:00", "17:00"),
          ],
        }),
      ),
    ).toBe(false);
  });
});
