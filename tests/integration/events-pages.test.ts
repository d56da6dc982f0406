import type { Insertable } from "kysely";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CalendarData } from "../../app/components/events/calendar-view";
import { requestContext } from "../../app/context";
import { loadCalendar } from "../../app/routes/events/calendar.server";
import { loader as publicCalendarLoader } from "../../app/routes/events/index";
import { loader as publicMeetingLoader } from "../../app/routes/events/meeting";
import { meetingView } from "../../app/routes/events/meeting-view.server";
import { loader as membersCalendarLoader } from "../../app/routes/events/members-calendar";
import { loader as membersMeetingLoader } from "../../app/routes/events/members-meeting";
import type { RequestContext } from "../../core/request-context";
import type { Database } from "../../db/types";
import { createTestContext, ORIGIN, type TestContext } from "../support/app";

/**
 * The loaders of /events, /events/{slug}, /dashboard/events and /dashboard/events/{slug} over a
 * real database: what each viewer sees, the month grid, the times of a programme across the
 * end of summer time, the JSON-LD and the registration state.
 */
let t: TestContext;
const NOW = new Date("2026-10-20T12:00:00.000Z");
const STAMP = "2026-01-01T00:00:00.000Z";

type MeetingRow = Insertable<Database["meetings"]>;
function meeting(slug: string, start: string, end: string | null, extra: Partial<MeetingRow> = {}): MeetingRow {
  return {
    slug,
    title: `Title of ${slug}`,
    type: "meeting",
    meeting_type: "In person",
    organization: "Masthead",
    start_date: start,
    end_date: end,
    location: "Maaskade Congress Centre, Rotterdam, Netherlands",
    information: null,
    health: null,
    registration: null,
    content_title: null,
    content: `<p>About ${slug}.</p>`,
    timezone: "Europe/Amsterdam",
    // Every column in every row: a multi-row insert has no DEFAULT on SQLite.
    visibility: "public",
    registration_open: 1,
    registration_closes_on: null,
    capacity: null,
    registration_auto_confirm: 0,
    registration_waitlist: 1,
    created_at: STAMP,
    updated_at: STAMP,
    ...extra,
  };
}

const ids = new Map<string, number>();

beforeAll(async () => {
  t = await createTestContext({}, { clock: () => NOW });
  const db = t.database.db;
  const rows = [
    // Across the end of summer time in Amsterdam (Sunday 25 October 2026, 03:00 CEST → 02:00 CET).
    meeting("dst-workshop", "2026-10-24", "2026-10-25", {
      type: "workshop",
      title: "DST </script><b>workshop</b>",
    }),
    meeting("board-meeting", "2026-10-28", null, { visibility: "members", title: "Secret board meeting" }),
    meeting("long-exhibition", "2026-09-28", "2026-10-02"),
    meeting("november-webinar", "2026-11-05", null, {
      type: "webinar",
      meeting_type: "Online",
      location: "Online",
      timezone: "America/New_York",
    }),
    meeting("full-meeting", "2026-11-10", null, { capacity: 2, registration_waitlist: 0 }),
    meeting("closed-meeting", "2026-11-12", null, { registration_open: 0 }),
    meeting("old-meeting", "2025-03-01", null),
  ];
  for (const row of await db.insertInto("meetings").values(rows).returning(["id", "slug"]).execute()) {
    ids.set(row.slug, row.id);
  }
  const workshop = ids.get("dst-workshop") as number;
  await db
    .insertInto("schedules")
    .values([
      {
        event_id: workshop,
        meeting_date: "2026-10-24",
        is_evening: 0,
        start: "14:00",
        finish: "15:30",
        description: "A",
      },
      {
        event_id: workshop,
        meeting_date: "2026-10-25",
        is_evening: 0,
        start: "14:00",
        finish: "15:30",
        description: "B",
      },
      { event_id: workshop, meeting_date: "2026-10-25", is_evening: 0, start: null, finish: null, description: "C" },
    ])
    .execute();
  await db
    .insertInto("meeting_images")
    .values({
      meeting_id: workshop,
      path: "meetings/ab12-hall.jpg",
      width: 1600,
      height: 1000,
      position: 0,
      created_at: STAMP,
    })
    .execute();
  await db
    .insertInto("join_requests")
    .values(
      ["full-meeting", "full-meeting"].map((slug, n) => ({
        kind: "registration" as const,
        registration_status: "pending" as const,
        meeting_id: ids.get(slug) as number,
        company_name: `Company ${n}`,
        representative_name: `Person ${n}`,
        email: `person${n}@example.com`,
        phone_number: "+31 10 123 4567",
        page_path: `/events/${slug}`,
        ip: null,
        handled_at: null,
        created_at: STAMP,
      })),
    )
    .execute();
});
afterAll(async () => t?.close());

function context(signedIn: boolean): Pick<RequestContext, "services" | "origin"> & RequestContext {
  return {
    services: t.runtime.services,
    origin: ORIGIN,
    // A member without a company (an individual member): members' access (decision 0044).
    auth: signedIn
      ? ({ user: { id: 1, role: { name: "member" } }, company: null } as unknown as RequestContext["auth"])
      : null,
    sessionToken: null,
    client: { ip: "203.0.113.1", userAgent: null },
    nonce: "",
    requestId: "test",
    secureCookies: false,
    logger: t.runtime.logger,
    publicConfig: { recaptchaSiteKey: null, gtmId: null },
  };
}

/** A route loader's arguments as React Router passes them. */
function args(path: string, signedIn: boolean, params: Record<string, string> = {}) {
  const provider = new RouterContextProvider();
  provider.set(requestContext, context(signedIn));
  const url = new URL(path, ORIGIN);
  return {
    request: new Request(url),
    url,
    params,
    context: provider,
    pattern: "",
    unstable_pattern: "",
  } as never;
}

const slugsOf = (data: CalendarData) => {
  if (data.view === "month") {
    return [...new Set(data.grid.weeks.flat().flatMap((day) => day.meetings.map((m) => m.slug)))];
  }
  return [...data.upcoming, ...data.page.data].map((m) => m.slug);
};

describe("the calendars by viewer", () => {
  it("/events never shows a members-only meeting; /dashboard/events shows it, marked members", async () => {
    const visitor = (await publicCalendarLoader(args("/events", false))) as CalendarData;
    expect(slugsOf(visitor)).not.toContain("board-meeting");
    expect(slugsOf(visitor)).toContain("dst-workshop");

    // Signed in or not, the public calendar is the visitors' one (it is cached for them).
    const signedInOnPublic = (await publicCalendarLoader(args("/events", true))) as CalendarData;
    expect(slugsOf(signedInOnPublic)).not.toContain("board-meeting");

    const member = (await membersCalendarLoader(args("/dashboard/events", true))) as CalendarData;
    expect(member.view === "list" && member.upcoming.find((m) => m.slug === "board-meeting")?.visibility).toBe(
      "members",
    );
    const memberMonth = (await membersCalendarLoader(
      args("/dashboard/events?view=month&month=2026-10", true),
    )) as CalendarData;
    expect(slugsOf(memberMonth)).toContain("board-meeting");
    const visitorMonth = (await publicCalendarLoader(args("/events?view=month&month=2026-10", false))) as CalendarData;
    expect(slugsOf(visitorMonth)).not.toContain("board-meeting");
  });

  it("a members-only meeting's page is a 404 for visitors, a redirect for members, and whole at /dashboard/events", async () => {
    await expect(
      publicMeetingLoader(args("/events/board-meeting", false, { slug: "board-meeting" })),
    ).rejects.toMatchObject({ init: { status: 404 } });
    const redirect = (await publicMeetingLoader(
      args("/events/board-meeting", true, { slug: "board-meeting" }),
    )) as Response;
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("Location")).toBe("/dashboard/events/board-meeting");
    const page = await membersMeetingLoader(args("/dashboard/events/board-meeting", true, { slug: "board-meeting" }));
    expect(page.meeting.title).toBe("Secret board meeting");
    expect(JSON.parse(page.view.jsonLd).url).toBe(`${ORIGIN}/dashboard/events/board-meeting`);
  });
});

describe("the events calendar's list and month views", () => {
  it("lists upcoming meetings soonest first, past ones newest first; a start date lists those from it", async () => {
    const list = await loadCalendar(context(false), new URL(`${ORIGIN}/events`), { signedIn: false }, NOW);
    expect(list.view === "list" && list.upcoming.map((m) => m.slug)).toEqual([
      "dst-workshop",
      "november-webinar",
      "full-meeting",
      "closed-meeting",
    ]);
    expect(list.view === "list" && list.page.data.map((m) => m.slug)).toEqual(["long-exhibition", "old-meeting"]);

    const from = await loadCalendar(
      context(false),
      new URL(`${ORIGIN}/events?start_date=2026-11-06&type=meeting`),
      { signedIn: false },
      NOW,
    );
    expect(from.view === "list" && from.mode).toBe("from");
    expect(slugsOf(from)).toEqual(["full-meeting", "closed-meeting"]);
    expect(from.filters).toEqual({ type: "meeting", startDate: "2026-11-06" });
  });

  it("builds a Monday-first grid of the month with each meeting on every day it runs and today marked", async () => {
    const data = await loadCalendar(
      context(false),
      new URL(`${ORIGIN}/events?view=month&month=2026-10`),
      { signedIn: false },
      NOW,
    );
    if (data.view !== "month") throw new Error("month view expected");
    const { weeks } = data.grid;
    // October 2026 begins on a Thursday and ends on a Saturday: 28 September to 1 November.
    expect(weeks).toHaveLength(5);
    expect(weeks[0][0]).toMatchObject({ date: "2026-09-28", inMonth: false });
    expect(weeks[4][6]).toMatchObject({ date: "2026-11-01", inMonth: false });
    expect(weeks.every((week) => week.length === 7)).toBe(true);
    const day = (date: string) => weeks.flat().find((d) => d.date === date);
    expect(day("2026-10-20")?.today).toBe(true);
    expect(weeks.flat().filter((d) => d.today)).toHaveLength(1);
    // A meeting that began in September runs into October: shown on the days the grid has.
    expect(day("2026-10-01")?.meetings.map((m) => m.slug)).toEqual(["long-exhibition"]);
    expect(day("2026-09-28")?.meetings.map((m) => m.slug)).toEqual(["long-exhibition"]);
    expect(day("2026-10-24")?.meetings.map((m) => m.slug)).toEqual(["dst-workshop"]);
    expect(day("2026-10-25")?.meetings.map((m) => m.slug)).toEqual(["dst-workshop"]);
    expect(day("2026-10-26")?.meetings).toEqual([]);

    // Without a month, the start date's month, else this month; a type filters the grid.
    const byStart = await loadCalendar(
      context(false),
      new URL(`${ORIGIN}/events?view=month&start_date=2026-11-20&type=webinar`),
      { signedIn: false },
      NOW,
    );
    expect(byStart.view === "month" && byStart.grid.month).toBe("2026-11");
    expect(slugsOf(byStart)).toEqual(["november-webinar"]);
    const current = await loadCalendar(
      context(false),
      new URL(`${ORIGIN}/events?view=month`),
      { signedIn: false },
      NOW,
    );
    expect(current.view === "month" && current.grid.month).toBe("2026-10");
  });

  it("refuses a filter that is not one (400)", async () => {
    for (const query of ["view=week", "month=2026-13", "start_date=2026-02-30", "type=party"]) {
      await expect(
        loadCalendar(context(false), new URL(`${ORIGIN}/events?${query}`), { signedIn: false }, NOW),
      ).rejects.toMatchObject({ init: { status: 400 } });
    }
  });

  it("links the feed for subscribing (webcal://) and downloading (https)", async () => {
    const data = await loadCalendar(
      { services: t.runtime.services, origin: "https://www.masthead.example" },
      new URL(`${ORIGIN}/events`),
      { signedIn: false },
      NOW,
    );
    expect(data.feed).toEqual({
      webcal: "webcal://www.masthead.example/events.ics",
      https: "https://www.masthead.example/events.ics",
      personal: null,
    });
    // Members are pointed to their private feed, which has the members-only meetings too.
    const members = await loadCalendar(
      { services: t.runtime.services, origin: "https://www.masthead.example" },
      new URL(`${ORIGIN}/dashboard/events`),
      { signedIn: true },
      NOW,
    );
    expect(members.feed.personal).toBe("/dashboard/user-settings#calendar");
  });
});

describe("a meeting page's view", () => {
  it("shows a 14:00 session as 14:00 CEST on 24 October and 14:00 CET on 25 October, whatever the server's zone", async () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/Los_Angeles";
    try {
      const page = await publicMeetingLoader(args("/events/dst-workshop", false, { slug: "dst-workshop" }));
      if (page instanceof Response) throw new Error("page expected");
      const session = (description: string) => page.meeting.schedules.find((s) => s.description === description);
      const [saturday, sunday, untimed] = ["A", "B", "C"].map((d) => session(d) as { id: number });
      expect(page.view.times[saturday.id]).toEqual({
        label: "14:00–15:30",
        abbreviation: "CEST",
        startIso: "2026-10-24T14:00:00+02:00",
        startUtc: "2026-10-24T12:00:00.000Z",
        finishUtc: "2026-10-24T13:30:00.000Z",
      });
      expect(page.view.times[sunday.id]).toEqual({
        label: "14:00–15:30",
        abbreviation: "CET",
        startIso: "2026-10-25T14:00:00+01:00",
        startUtc: "2026-10-25T13:00:00.000Z",
        finishUtc: "2026-10-25T14:30:00.000Z",
      });
      expect(page.view.times[untimed.id]).toMatchObject({ label: "", startIso: null, startUtc: null });
      expect(page.view.zone).toEqual({ name: "Europe/Amsterdam", abbreviation: "CEST" });
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("carries schema.org Event JSON-LD with offsets, the place, the organizer and absolute images, '<' escaped", async () => {
    const page = await publicMeetingLoader(args("/events/dst-workshop", false, { slug: "dst-workshop" }));
    if (page instanceof Response) throw new Error("page expected");
    expect(page.view.jsonLd).not.toContain("<");
    expect(page.view.jsonLd).toContain("\\u003c/script>");
    expect(JSON.parse(page.view.jsonLd)).toEqual({
      "@context": "https://schema.org",
      "@type": "Event",
      name: "DST </script><b>workshop</b>",
      description: page.description,
      url: `${ORIGIN}/events/dst-workshop`,
      startDate: "2026-10-24T14:00:00+02:00",
      endDate: "2026-10-25T15:30:00+01:00",
      eventStatus: "https://schema.org/EventScheduled",
      eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
      location: {
        "@type": "Place",
        name: "Maaskade Congress Centre",
        address: "Maaskade Congress Centre, Rotterdam, Netherlands",
      },
      organizer: { "@type": "Organization", name: expect.any(String), url: ORIGIN },
      image: [`${ORIGIN}/uploads/meetings/ab12-hall.jpg`],
    });
    expect(page.view.calendar.ics).toBe("/events/dst-workshop.ics");
    expect(page.view.calendar.google).toMatch(/^https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE&/);
    expect(page.view.calendar.google).toContain("dates=20261024T120000Z%2F20261025T143000Z");
    expect(page.view.calendar.outlook).toMatch(/^https:\/\/outlook\.live\.com\/calendar\/0\/action\/compose\?/);
  });

  it("an online meeting without times is a VirtualLocation on plain dates", async () => {
    const meeting = await t.runtime.services.meetings.getBySlug("november-webinar", { signedIn: false });
    const view = await meetingView(context(false), meeting, {
      path: "/events/november-webinar",
      area: "public",
      description: "A webinar.",
    });
    const json = JSON.parse(view.jsonLd);
    expect(json).toMatchObject({
      startDate: "2026-11-05",
      endDate: "2026-11-05",
      eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode",
      location: { "@type": "VirtualLocation", url: `${ORIGIN}/events/november-webinar` },
    });
    expect(json.image).toBeUndefined();
    expect(view.zone).toEqual({ name: "America/New_York", abbreviation: "EST" });
  });

  it("says why a meeting takes no registrations: closed, full or over; open otherwise", async () => {
    const stateOf = async (slug: string) => {
      const page = await publicMeetingLoader(args(`/events/${slug}`, false, { slug }));
      if (page instanceof Response) throw new Error("page expected");
      return page.view.registration;
    };
    expect(await stateOf("dst-workshop")).toEqual({ open: true, places: null, waitlist: false });
    // Places left with a capacity; full with a waiting list still takes registrations, onto the list (decision 0052).
    const full = ids.get("full-meeting") as number;
    const set = (values: { capacity?: number; registration_waitlist?: number }) =>
      t.database.db.updateTable("meetings").set(values).where("id", "=", full).execute();
    try {
      await set({ capacity: 14 });
      expect(await stateOf("full-meeting")).toEqual({ open: true, places: 12, waitlist: false });
      await set({ capacity: 2, registration_waitlist: 1 });
      expect(await stateOf("full-meeting")).toEqual({ open: true, places: 0, waitlist: true });
    } finally {
      await set({ capacity: 2, registration_waitlist: 0 });
    }
    expect(await stateOf("closed-meeting")).toMatchObject({ open: false, reason: "closed" });
    expect(await stateOf("full-meeting")).toMatchObject({
      open: false,
      reason: "full",
      message: "This meeting is full: registration is closed.",
    });
    expect(await stateOf("old-meeting")).toMatchObject({ open: false, reason: "over" });
  });
});
