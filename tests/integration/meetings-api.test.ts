import type { Insertable } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEETINGS_PER_PAGE } from "../../core/meetings/meetings.schema";
import type { Database } from "../../db/types";
import { call, createTestContext, type TestContext } from "../support/app";

let t: TestContext;
/** "Today" for every rule that depends on the date. */
const NOW = new Date("2026-11-22T12:00:00.000Z");
const STAMP = "2026-01-01T00:00:00.000Z";

type MeetingRow = Insertable<Database["meetings"]>;

function meeting(slug: string, type: string, start: string, end: string | null, extra: Partial<MeetingRow> = {}) {
  return {
    slug,
    title: `Title of ${slug}`,
    type,
    meeting_type: type === "webinar" ? "Online" : "In person",
    organization: "Masthead",
    start_date: start,
    end_date: end,
    location: type === "webinar" ? "Online" : "Rotterdam, Netherlands",
    information: null,
    health: null,
    registration: null,
    content_title: null,
    content: `<p>About ${slug}.</p>`,
    created_at: STAMP,
    updated_at: STAMP,
    ...extra,
  } satisfies MeetingRow;
}

const HOSTILE =
  '<p>Welcome<script>alert(1)</script></p><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">click</a><iframe src="https://evil.example/"></iframe>';

/**
 * 25 meetings: three conferences (2024, 2025 past; 2027 upcoming), one past workshop,
 * one meeting under way today, one that began 82 days ago and is still running
 * (past, by the 31-day rule), and 19 webinars a month apart from December 2025.
 */
const ROWS = [
  meeting("conference-2024", "conference", "2024-06-10", "2024-06-13"),
  meeting("conference-2025", "conference", "2025-06-09", "2025-06-12"),
  meeting("conference-2027", "conference", "2027-05-10", "2027-05-13", {
    content_title: "Connected ships",
    content: HOSTILE,
    information: '<p onclick="x()">Venue <strong>details</strong>.</p>',
    health: "<p>Stay home when unwell.</p><style>body{display:none}</style>",
    registration: "<p>Registration is open.</p>",
  }),
  meeting("workshop-2025", "workshop", "2025-10-14", "2025-10-16"),
  meeting("meeting-under-way", "meeting", "2026-11-20", "2026-11-24"),
  meeting("long-exhibition", "meeting", "2026-09-01", "2026-12-31"),
  ...Array.from({ length: 19 }, (_, i) => {
    const day = new Date(Date.UTC(2025, 11, 1 + 30 * i)).toISOString().slice(0, 10);
    return meeting(`webinar-${String(i).padStart(2, "0")}`, "webinar", day, day);
  }),
];

let conferenceId = 0;

beforeAll(async () => {
  t = await createTestContext({}, { clock: () => NOW });
  const db = t.database.db;
  const inserted = await db.insertInto("meetings").values(ROWS).returning(["id", "slug"]).execute();
  const id = (slug: string) => inserted.find((r) => r.slug === slug)?.id as number;
  conferenceId = id("conference-2027");
  await db
    .insertInto("meeting_images")
    .values([
      {
        meeting_id: conferenceId,
        path: "meetings/ab12-hall.jpg",
        width: 1600,
        height: 1000,
        position: 1,
        created_at: STAMP,
      },
      {
        meeting_id: conferenceId,
        path: "meetings/cd34-poster-1600.webp",
        width: 1600,
        height: 1000,
        position: 0,
        created_at: STAMP,
      },
      {
        meeting_id: id("webinar-00"),
        path: "meetings/ef56-webinar.jpg",
        width: 800,
        height: 500,
        position: 0,
        created_at: STAMP,
      },
    ])
    .execute();
  // Inserted out of order on purpose: the programme is read by day, then start time.
  const slot = (meeting_date: string, start: string | null, description: string, is_evening = 0) => ({
    event_id: conferenceId,
    meeting_date,
    start,
    finish: start ? `${String(Number(start.slice(0, 2)) + 1).padStart(2, "0")}:00` : null,
    is_evening,
    meeting_date_info: meeting_date === "2027-05-10" ? "Day 1 — Working groups" : "Day 2 — Plenary",
    description,
  });
  await db
    .insertInto("schedules")
    .values([
      slot("2027-05-11", "09:00", "Opening"),
      slot("2027-05-10", "19:00", "Welcome reception", 1),
      slot("2027-05-10", "14:00", "Working group Navigation"),
      slot("2027-05-10", "08:30", "Registration"),
      slot("2027-05-10", null, "Exhibition open all day"),
    ])
    .execute();
  await db
    .insertInto("sponsors")
    .values([
      { event_id: conferenceId, name: "Third Sponsor", link: "javascript:alert(1)", image: null, position: 2 },
      {
        event_id: conferenceId,
        name: "First Sponsor",
        link: "https://first.example/",
        image: "sponsors/a1-first.webp",
        position: 0,
      },
      { event_id: conferenceId, name: "Second Sponsor", link: "http://second.example", image: null, position: 1 },
    ])
    .execute();
});
afterAll(async () => t.close());

type Summary = { slug: string; type: string; start_date: string; image: { url: string; srcset: string | null } | null };
type ListAnswer = {
  status: string;
  data: Summary[];
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
  next_page_url: string | null;
};

const list = async (query = "") => {
  const res = await call(t.app, "GET", `/api/meetings${query}`);
  return { status: res.status, body: res.json as ListAnswer & { errors?: Record<string, string[]> } };
};

describe("GET /api/meetings", () => {
  it("pages in calendar order with the paging fields and a next_page_url", async () => {
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: "success",
      current_page: 1,
      per_page: MEETINGS_PER_PAGE,
      total: 25,
      last_page: 3,
      next_page_url: "/api/meetings?page=2",
    });
    expect(first.body.data).toHaveLength(MEETINGS_PER_PAGE);
    expect(first.body.data.slice(0, 3).map((m) => m.slug)).toEqual([
      "conference-2024",
      "conference-2025",
      "workshop-2025",
    ]);
    const starts = first.body.data.map((m) => m.start_date);
    expect(starts).toEqual([...starts].sort());

    const second = await list("?page=2");
    expect(second.body.data).toHaveLength(MEETINGS_PER_PAGE);
    expect(second.body.next_page_url).toBe("/api/meetings?page=3");
    const last = await list("?page=3");
    expect(last.body.data).toHaveLength(25 - 2 * MEETINGS_PER_PAGE);
    expect(last.body.next_page_url).toBeNull();
    const seen = [...first.body.data, ...second.body.data, ...last.body.data].map((m) => m.slug);
    expect(new Set(seen).size).toBe(25);
    const beyond = await list("?page=4");
    expect(beyond.body).toMatchObject({ data: [], current_page: 4, total: 25, next_page_url: null });
  });

  it("gives each meeting its first image, with a srcset for our resized variants", async () => {
    const { body } = await list("?type=conference");
    const conference = body.data.find((m) => m.slug === "conference-2027");
    expect(conference?.image).toMatchObject({
      url: "/uploads/meetings/cd34-poster-1600.webp",
      srcset: expect.stringContaining("/uploads/meetings/cd34-poster-480.webp 480w"),
    });
    const webinars = await list("?type=webinar");
    expect(webinars.body.data[0].image).toMatchObject({ url: "/uploads/meetings/ef56-webinar.jpg", srcset: null });
    expect(webinars.body.data[1].image).toBeNull();
  });

  it("filters by type, and the next page keeps the filter", async () => {
    const conferences = await list("?type=conference");
    expect(conferences.body.total).toBe(3);
    expect(conferences.body.data.every((m) => m.type === "conference")).toBe(true);
    expect(conferences.body.next_page_url).toBeNull();
    const webinars = await list("?type=webinar");
    expect(webinars.body).toMatchObject({
      total: 19,
      last_page: 2,
      next_page_url: "/api/meetings?page=2&type=webinar",
    });
    expect((await list("?type=webinar&page=2")).body.data).toHaveLength(19 - MEETINGS_PER_PAGE);
    // Empty and "all" mean no filter, as the select's first option sends.
    expect((await list("?type=")).body.total).toBe(25);
    expect((await list("?type=all")).body.total).toBe(25);
  });

  it("filters by start date: meetings starting on or after that day", async () => {
    const { body } = await list("?start_date=2026-11-20");
    expect(body.data[0].slug).toBe("meeting-under-way");
    expect(body.data.every((m) => m.start_date >= "2026-11-20")).toBe(true);
    expect(body.data.map((m) => m.slug)).not.toContain("long-exhibition");
    const after = await list("?start_date=2026-11-21");
    expect(after.body.data.map((m) => m.slug)).not.toContain("meeting-under-way");
    expect(after.body.total).toBe(body.total - 1);
    const both = await list("?start_date=2026-11-21&type=conference");
    expect(both.body.data.map((m) => m.slug)).toEqual(["conference-2027"]);
    expect((await list("?start_date=2030-01-01")).body).toMatchObject({ data: [], total: 0, last_page: 1 });
    const paged = await list("?start_date=2025-01-01&type=webinar");
    expect(paged.body.next_page_url).toBe("/api/meetings?page=2&type=webinar&start_date=2025-01-01");
  });

  it("answers 422 with field messages for a bad page, type or start date, never 500", async () => {
    for (const [query, field] of [
      ["?page=0", "page"],
      ["?page=-2", "page"],
      ["?page=abc", "page"],
      ["?page=1.5", "page"],
      ["?page=99999999999", "page"],
      ["?type=party", "type"],
      ["?type=CONFERENCE", "type"],
      ["?type=%27%20or%201%3D1", "type"],
      ["?start_date=2026-13-01", "start_date"],
      ["?start_date=2026-02-30", "start_date"],
      ["?start_date=22-11-2026", "start_date"],
      ["?start_date=2026-11-22T00:00:00Z", "start_date"],
      ["?start_date=yesterday", "start_date"],
    ]) {
      const res = await list(query);
      expect(res.status, query).toBe(422);
      expect(res.body.errors, query).toHaveProperty(field);
    }
  });
});

type Detail = {
  id: number;
  slug: string;
  content: string;
  information: string;
  health: string;
  registration: string;
  images: { url: string; srcset: string | null; width: number; height: number }[];
  schedules: { meeting_date: string; start: string | null; is_evening: boolean; description: string }[];
  sponsors: { name: string; link: string | null; image: string | null }[];
};

describe("GET /api/meetings/{slug}", () => {
  it("answers the meeting with its images, programme by day and time, and sponsors in order", async () => {
    const res = await call(t.app, "GET", "/api/meetings/conference-2027");
    expect(res.status).toBe(200);
    expect(res.json?.status).toBe("success");
    const event = res.json?.event as Detail;
    expect(event).toMatchObject({
      id: conferenceId,
      slug: "conference-2027",
      registration: "<p>Registration is open.</p>",
    });
    expect(event.images.map((i) => i.url)).toEqual([
      "/uploads/meetings/cd34-poster-1600.webp",
      "/uploads/meetings/ab12-hall.jpg",
    ]);
    expect(event.images[0]).toMatchObject({ width: 1600, height: 1000 });
    expect(event.schedules.map((s) => s.description)).toEqual([
      "Exhibition open all day",
      "Registration",
      "Working group Navigation",
      "Welcome reception",
      "Opening",
    ]);
    expect(event.schedules.map((s) => s.is_evening)).toEqual([false, false, false, true, false]);
    expect(event.sponsors.map((s) => s.name)).toEqual(["First Sponsor", "Second Sponsor", "Third Sponsor"]);
    expect(event.sponsors[0]).toMatchObject({
      link: "https://first.example/",
      image: "/uploads/sponsors/a1-first.webp",
    });
    expect(event.sponsors[1].link).toBe("http://second.example/");
  });

  it("sanitizes the rich text on read and drops sponsor links that are not http(s)", async () => {
    const event = (await call(t.app, "GET", "/api/meetings/conference-2027")).json?.event as Detail;
    const html = [event.content, event.information, event.health].join("");
    for (const bad of ["<script", "alert(1)", "onerror", "javascript:", "<iframe", "onclick", "<style"]) {
      expect(html, bad).not.toContain(bad);
    }
    expect(event.content).toContain("<p>Welcome</p>");
    expect(event.information).toBe("<p>Venue <strong>details</strong>.</p>");
    expect(event.sponsors[2].link).toBeNull();
  });

  it("answers a meeting without programme or sponsors with empty lists", async () => {
    const event = (await call(t.app, "GET", "/api/meetings/webinar-03")).json?.event as Detail;
    expect(event).toMatchObject({ images: [], schedules: [], sponsors: [], information: null, health: null });
  });

  it("answers 404 JSON for an unknown slug", async () => {
    for (const slug of ["no-such-meeting", "x".repeat(300), "%27%20or%201%3D1"]) {
      const res = await call(t.app, "GET", `/api/meetings/${slug}`);
      expect(res.status, slug).toBe(404);
      expect(res.json?.status).toBe("error");
    }
  });
});

describe("the calendar rules (services.meetings)", () => {
  it("lists meetings not yet over soonest first, including one under way, then past ones newest first", async () => {
    const calendar = await t.runtime.services.meetings.calendar({ type: null, page: 1 }, { signedIn: false });
    const upcoming = calendar.upcoming.map((m) => m.slug);
    expect(upcoming[0]).toBe("meeting-under-way");
    expect(upcoming).toContain("conference-2027");
    expect(upcoming).not.toContain("long-exhibition");
    expect(calendar.upcoming.every((m) => (m.end_date ?? m.start_date) >= "2026-11-22")).toBe(true);
    const starts = calendar.upcoming.map((m) => m.start_date);
    expect(starts).toEqual([...starts].sort());
    // The admin home's count agrees with the list (under way included, over excluded).
    const all = await t.runtime.services.meetings.upcoming(1000);
    expect(await t.runtime.services.meetings.countUpcoming()).toBe(all.length);
    expect(all.length).toBeGreaterThan(1);

    const past = calendar.past.data.map((m) => m.start_date);
    expect(past).toEqual([...past].sort().reverse());
    expect(calendar.past.data.map((m) => m.slug)).toContain("long-exhibition");
    expect(calendar.upcoming.length + calendar.past.total).toBe(25);
    expect(calendar.more_upcoming).toBe(false);

    const second = await t.runtime.services.meetings.calendar({ type: null, page: 2 }, { signedIn: false });
    expect(second.upcoming).toEqual([]);
    expect(second.past.current_page).toBe(2);
    expect(second.past.data.length).toBe(calendar.past.total - MEETINGS_PER_PAGE);
  });

  it("filters the calendar by type", async () => {
    const calendar = await t.runtime.services.meetings.calendar({ type: "conference", page: 1 }, { signedIn: false });
    expect(calendar.upcoming.map((m) => m.slug)).toEqual(["conference-2027"]);
    expect(calendar.past.data.map((m) => m.slug)).toEqual(["conference-2025", "conference-2024"]);
  });

  it("features the next meeting of a type, else the most recent past one", async () => {
    const { meetings } = t.runtime.services;
    const conference = await meetings.featured("conference");
    expect(conference?.slug).toBe("conference-2027");
    expect(conference?.schedules).toHaveLength(5);
    expect(conference?.sponsors).toHaveLength(3);
    expect((await meetings.featured("workshop"))?.slug).toBe("workshop-2025");
  });

  it("gives the home page the next three", async () => {
    const next = await t.runtime.services.meetings.upcoming(3);
    expect(next.map((m) => m.slug)).toEqual(["meeting-under-way", "webinar-12", "webinar-13"]);
  });

  it("features nothing when there is no meeting of that type", async () => {
    const empty = await createTestContext({}, { clock: () => NOW });
    try {
      expect(await empty.runtime.services.meetings.featured("conference")).toBeNull();
      expect(await empty.runtime.services.meetings.upcoming(3)).toEqual([]);
      const calendar = await empty.runtime.services.meetings.calendar({ type: null, page: 1 }, { signedIn: false });
      expect(calendar).toMatchObject({ upcoming: [], past: { data: [], total: 0, last_page: 1 } });
    } finally {
      await empty.close();
    }
  });
});
