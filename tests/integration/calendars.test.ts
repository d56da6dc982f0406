import zlib from "node:zlib";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { compressBody } from "../../server/middleware/compress";
import { call, createTestContext, type TestContext } from "../support/app";
import { createUser, PASSWORD, signIn } from "../support/factories";
import { BACKGROUND_BROTLI } from "../support/waits";

/**
 * Issue 13 'Calendars' and 'Registrations' through the HTTP layer: the ICS files read back with
 * ical.js, times checked in UTC across the day summer time ends; registration closing and capacity.
 */
let t: TestContext;
let admin: string;
let member: string;
const NOW = new Date("2026-10-01T09:00:00.000Z");

const BASE = {
  type: "conference",
  organization: "Masthead",
  location: "RAI, Amsterdam",
  content: "<p>Two days on <em>connected ships</em>.</p>",
  timezone: "Europe/Amsterdam",
};

async function create(fields: Record<string, unknown>) {
  const res = await call(t.app, "POST", "/api/dashboard/meeting", { token: admin, json: { ...BASE, ...fields } });
  expect(res.status, res.text).toBe(201);
  return (res.json as { event: { id: number; slug: string } }).event;
}

async function addSession(id: number, meeting_date: string, start: string, finish: string) {
  const res = await call(t.app, "POST", `/api/dashboard/meeting/${id}/schedule`, {
    token: admin,
    json: { meeting_date, start, finish, description: "Session" },
  });
  expect(res.status, res.text).toBe(201);
}

function parse(text: string) {
  const root = new ICAL.Component(ICAL.parse(text));
  const events = root.getAllSubcomponents("vevent").map((c) => new ICAL.Event(c));
  return { root, events };
}

let publicSlug = "";
let membersSlug = "";

beforeAll(async () => {
  t = await createTestContext({}, { clock: () => NOW });
  admin = (await signIn(t.runtime.services, "admin")).token;
  member = (await signIn(t.runtime.services, "member")).token;
  const conference = await create({ title: "Autumn Conference", start_date: "2026-10-24", end_date: "2026-10-25" });
  await addSession(conference.id, "2026-10-24", "14:00", "15:30");
  await addSession(conference.id, "2026-10-25", "14:00", "15:00");
  publicSlug = conference.slug;
  const closed = await create({
    title: "Board retreat",
    type: "meeting",
    start_date: "2026-11-02",
    visibility: "members",
    timezone: "America/New_York",
  });
  await addSession(closed.id, "2026-11-02", "09:00", "12:00");
  membersSlug = closed.slug;
  await create({ title: "Ancient gathering", type: "meeting", start_date: "2024-01-10" });
});
afterAll(async () => t.close());

describe("calendar files", () => {
  it("/events/{slug}.ics: the meeting and its sessions, 14:00 Amsterdam read as 12:00 UTC before and 13:00 UTC after the change", async () => {
    const res = await call(t.app, "GET", `/events/${publicSlug}.ics`, {});
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${publicSlug}.ics"`);
    const { root, events } = parse(res.text);
    expect(root.getFirstSubcomponent("vtimezone")?.getFirstPropertyValue("tzid")).toBe("Europe/Amsterdam");
    const sessions = events.filter((e) => !e.startDate.isDate).map((e) => e.startDate.toJSDate().toISOString());
    expect(sessions.sort()).toEqual(["2026-10-24T12:00:00.000Z", "2026-10-25T13:00:00.000Z"]);
    const whole = events.find((e) => e.startDate.isDate);
    expect(whole?.summary).toBe("Autumn Conference");
    expect(whole?.uid).toMatch(/^meeting-\d+@/);
  });

  it("keeps UIDs across an edit and raises SEQUENCE", async () => {
    const before = parse((await call(t.app, "GET", `/events/${publicSlug}.ics`, {})).text).events;
    const meeting = await t.runtime.services.meetings.getBySlug(publicSlug, { signedIn: true });
    const res = await call(t.app, "POST", `/api/dashboard/meeting/${meeting.id}`, {
      token: admin,
      json: {
        ...BASE,
        _method: "PATCH",
        title: "Autumn Conference (renamed)",
        start_date: "2026-10-24",
        end_date: "2026-10-25",
      },
    });
    expect(res.status, res.text).toBe(200);
    const after = parse((await call(t.app, "GET", `/events/${publicSlug}.ics`, {})).text).events;
    expect(after.map((e) => e.uid).sort()).toEqual(before.map((e) => e.uid).sort());
    expect(after[0].sequence).toBeGreaterThan(before[0].sequence);
  });

  it("/events.ics: public meetings of the last 12 months and to come, never members-only ones", async () => {
    const res = await call(t.app, "GET", "/events.ics", {});
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const summaries = parse(res.text).events.map((e) => e.summary);
    expect(summaries).toContain("Autumn Conference (renamed)");
    expect(summaries).not.toContain("Board retreat");
    expect(summaries).not.toContain("Ancient gathering");
  });

  it("/events.ics is made once per content version: a calendar app's ETag gets 304, a new meeting shows at once", async () => {
    const first = await call(t.app, "GET", "/events.ics", {});
    const etag = first.headers.get("etag") as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await call(t.app, "GET", "/events.ics", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");

    await create({ title: "Late addition", type: "webinar", start_date: "2026-12-03" });
    const changed = await call(t.app, "GET", "/events.ics", { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(parse(changed.text).events.map((e) => e.summary)).toContain("Late addition");
  });

  it("/events.ics in brotli and gzip: each encoding made once at the stored effort, with its own ETag; any of them gets 304", async () => {
    const plain = await t.app.request("/events.ics");
    const bytes = Buffer.from(await plain.arrayBuffer());
    const etags = [plain.headers.get("etag")];
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    for (const [encoding, decode] of [
      ["br", zlib.brotliDecompressSync],
      ["gzip", zlib.gunzipSync],
    ] as const) {
      // Brotli's highest quality is made in the background (encodeForStore), a quick copy sent until then.
      const stored = await compressBody(bytes, encoding, "stored");
      await vi.waitFor(async () => {
        const sent = await t.app.request("/events.ics", { headers: { "accept-encoding": encoding } });
        const body = Buffer.from(await sent.arrayBuffer());
        expect(decode(body).equals(bytes)).toBe(true);
        expect(body.equals(stored)).toBe(true);
      }, BACKGROUND_BROTLI);
      const res = await t.app.request("/events.ics", { headers: { "accept-encoding": encoding } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-encoding")).toBe(encoding);
      expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
      const body = Buffer.from(await res.arrayBuffer());
      expect(res.headers.get("content-length")).toBe(String(body.length));
      expect(decode(body).equals(bytes)).toBe(true);
      // The highest effort, which per-request compression never spends: the stored encoding was sent.
      expect(body.equals(stored)).toBe(true);
      etags.push(res.headers.get("etag"));
    }
    expect(new Set(etags).size).toBe(3);
    // A calendar app that kept the brotli copy revalidates it while asking for gzip now.
    const again = await t.app.request("/events.ics", {
      headers: { "accept-encoding": "gzip", "if-none-match": `"x", ${etags[1]}` },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etags[2]);
  });

  it("a members-only meeting's file: 404 for visitors, the file for signed-in users", async () => {
    expect((await call(t.app, "GET", `/events/${membersSlug}.ics`, {})).status).toBe(404);
    const res = await call(t.app, "GET", `/events/${membersSlug}.ics`, { token: member });
    expect(res.status).toBe(200);
    const session = parse(res.text).events.find((e) => !e.startDate.isDate);
    // 09:00 in New York on 2 November 2026 (EST, the day after the change) is 14:00 UTC.
    expect(session?.startDate.toJSDate().toISOString()).toBe("2026-11-02T14:00:00.000Z");
    expect((await call(t.app, "GET", "/events/no-such-meeting.ics", {})).status).toBe(404);
  });

  it("a member's private feed: members-only meetings included; a new address ends the old one; unknown tokens 404", async () => {
    const { user } = await createUser(t.runtime.services, { role: "member" });
    const first = await t.runtime.services.profile.renewCalendarToken(user.id, PASSWORD);
    const feed = await call(t.app, "GET", `/calendar/${first}.ics`, {});
    expect(feed.status).toBe(200);
    expect(feed.headers.get("cache-control")).toBe("private, no-store");
    expect(parse(feed.text).events.map((e) => e.summary)).toContain("Board retreat");

    const second = await t.runtime.services.profile.renewCalendarToken(user.id, PASSWORD);
    expect((await call(t.app, "GET", `/calendar/${first}.ics`, {})).status).toBe(404);
    expect((await call(t.app, "GET", `/calendar/${second}.ics`, {})).status).toBe(200);
    // Only the hash is stored.
    const row = await t.database.db
      .selectFrom("users")
      .select("calendar_token_hash")
      .where("id", "=", user.id)
      .executeTakeFirst();
    expect(row?.calendar_token_hash).not.toContain(second);

    await t.database.db.updateTable("users").set({ is_active: 0 }).where("id", "=", user.id).execute();
    expect((await call(t.app, "GET", `/calendar/${second}.ics`, {})).status).toBe(404);
    for (const bad of ["x", "../../etc/passwd", "a".repeat(43)]) {
      expect((await call(t.app, "GET", `/calendar/${encodeURIComponent(bad)}.ics`, {})).status).toBe(404);
    }
  });
});

describe("registrations", () => {
  const VALID = {
    company_name: "Nordic Radio AS",
    representative_name: "Kari Nordmann",
    email: "kari@nordic-radio.example",
    phone_number: "+47 22 00 00 00",
  };

  it("closed, past the closing day or full: the meeting's registrations answer 422 with a clear message", async () => {
    const meeting = await create({
      title: "Small workshop",
      type: "meeting",
      start_date: "2026-12-01",
      capacity: "1",
      registration_closes_on: "2026-11-20",
      // Without its waiting list (decision 0052): a full meeting refuses.
      waitlist: "0",
    });
    const register = (email = VALID.email) =>
      call(t.app, "POST", "/api/join", { json: { ...VALID, email, page_path: `/events/${meeting.slug}` } });
    expect((await register()).status).toBe(200);
    const full = await register("someone.else@nordic-radio.example");
    expect(full.status).toBe(422);
    expect((full.json as { errors: Record<string, string[]> }).errors.page_path).toEqual([
      "This meeting is full: registration is closed.",
    ]);

    const closing = await create({
      title: "Past its closing day",
      type: "meeting",
      start_date: "2026-12-01",
      registration_closes_on: "2026-09-30",
    });
    const late = await call(t.app, "POST", "/api/join", { json: { ...VALID, page_path: `/events/${closing.slug}` } });
    expect(late.status).toBe(422);
    expect((late.json as { errors: Record<string, string[]> }).errors.page_path).toEqual([
      "Registration for this meeting closed on 30 September 2026.",
    ]);

    const shut = await create({
      title: "Shut",
      type: "meeting",
      start_date: "2026-12-01",
      registration_status: "closed",
    });
    const refused = await call(t.app, "POST", "/api/join", { json: { ...VALID, page_path: `/events/${shut.slug}` } });
    expect((refused.json as { errors: Record<string, string[]> }).errors.page_path).toEqual([
      "Registration for this meeting is closed.",
    ]);
    const counts = await t.runtime.services.registrations.seatsTaken([meeting.id, closing.id]);
    expect(counts.get(meeting.id)).toBe(1);
    expect(counts.get(closing.id)).toBeUndefined();
  });
});
