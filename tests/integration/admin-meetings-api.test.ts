import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

let t: TestContext;
let admin: string;
let member: string;
let photo: Buffer;
let logo: Buffer;

beforeAll(async () => {
  t = await createTestContext({}, { clock: () => new Date("2026-11-22T12:00:00.000Z") });
  admin = (await signIn(t.runtime.services, "admin")).token;
  member = (await signIn(t.runtime.services, "member")).token;
  photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#1c4a7d" } })
    .jpeg()
    .toBuffer();
  logo = await sharp({ create: { width: 400, height: 200, channels: 4, background: "#ffffff00" } })
    .png()
    .toBuffer();
});
afterAll(async () => t.close());

type Image = { id: number; url: string; delete_url: string };
type Event = {
  id: number;
  slug: string;
  title: string;
  timezone: string;
  visibility: string;
  content: string | null;
  images: Image[];
  schedules: { id: number; meeting_date: string; start: string | null }[];
  sponsors: { id: number; name: string; link: string | null; image: string | null }[];
  registration_settings: {
    open: boolean;
    closes_on: string | null;
    capacity: number | null;
    auto_confirm: boolean;
    waitlist: boolean;
  };
  sequence: number;
};

const file = (data: Buffer, name: string, type: string) => new File([new Uint8Array(data)], name, { type });
const uploaded = (url: string) => path.join(t.runtime.config.uploadsDir, url.replace(/^\/uploads\//, ""));

function meetingForm(fields: Record<string, string>, images: File[] = [], method?: string): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const image of images) {
    form.append("images[]", image);
    form.append("images_alt[]", `Alt text of ${image.name}`);
  }
  if (method) form.append("_method", method);
  return form;
}

const BASE = {
  title: "Annual Conference 2027",
  type: "conference",
  meeting_type: "In person",
  organization: "Masthead",
  start_date: "2027-05-10",
  end_date: "2027-05-12",
  location: "Rotterdam, Netherlands",
  content: "<p>Three days on <strong>connected ships</strong>.</p><script>alert(1)</script>",
  timezone: "Europe/Amsterdam",
};

async function create(fields: Record<string, string> = BASE, images: File[] = []) {
  const res = await call(t.app, "POST", "/api/dashboard/meeting", { token: admin, body: meetingForm(fields, images) });
  expect(res.status, res.text).toBe(201);
  return (res.json as { event: Event }).event;
}

describe("admin meetings API", () => {
  it("creates a meeting with several images, empty programme and sponsors, sanitized content, first in the list", async () => {
    const event = await create(BASE, [file(photo, "a.jpg", "image/jpeg"), file(photo, "b.jpg", "image/jpeg")]);
    expect(event).toMatchObject({
      slug: "annual-conference-2027",
      timezone: "Europe/Amsterdam",
      visibility: "public",
      schedules: [],
      sponsors: [],
      registration_settings: { open: true, closes_on: null, capacity: null, auto_confirm: false, waitlist: true },
    });
    expect(event.content).toBe("<p>Three days on <strong>connected ships</strong>.</p>");
    expect(event.images).toHaveLength(2);
    expect(event.images[0].delete_url).toBe(`/api/dashboard/meeting/${event.id}/image/${event.images[0].id}`);
    for (const image of event.images) expect(fs.existsSync(uploaded(image.url))).toBe(true);

    const list = await call(t.app, "GET", "/api/dashboard/meeting", { token: admin });
    expect(list.status).toBe(200);
    expect((list.json as { data: Event[] }).data[0].id).toBe(event.id);
  });

  it("takes the site's default time zone when none is given, and refuses bad input with field messages", async () => {
    const event = await create({ ...BASE, title: "Webinar without zone", type: "webinar", timezone: "" });
    expect(event.timezone).toBe("Europe/London");

    const res = await call(t.app, "POST", "/api/dashboard/meeting", {
      token: admin,
      json: {
        title: "  ",
        type: "party",
        start_date: "2027-02-30",
        timezone: "Mars/Olympus",
        capacity: "0",
      },
    });
    expect(res.status).toBe(422);
    const errors = (res.json as { errors: Record<string, string[]> }).errors;
    expect(errors.title).toEqual(["The title field is required."]);
    expect(errors.type[0]).toMatch(/^The type must be one of/);
    expect(errors.start_date).toEqual(["The start date must be a date such as 2026-11-22."]);
    expect(errors.timezone).toEqual(["The time zone must be a time zone name such as Europe/London."]);
    expect(errors.capacity).toEqual(["The capacity must be at least 1."]);

    const backwards = await call(t.app, "POST", "/api/dashboard/meeting", {
      token: admin,
      json: { ...BASE, end_date: "2027-05-01" },
    });
    expect(backwards.status).toBe(422);
    expect((backwards.json as { errors: Record<string, string[]> }).errors.end_date).toEqual([
      "The end date may not be before the start date.",
    ]);
  });

  it("refuses a forged image by its content (415), and keeps nothing of that request", async () => {
    const files = () => fs.readdirSync(path.join(t.runtime.config.uploadsDir, "meetings")).length;
    const filesBefore = files();
    const before = await t.database.db.selectFrom("meetings").select("id").execute();
    const res = await call(t.app, "POST", "/api/dashboard/meeting", {
      token: admin,
      body: meetingForm({ ...BASE, title: "Forged" }, [
        file(photo, "ok.jpg", "image/jpeg"),
        file(Buffer.from("<?php echo 1; ?>"), "evil.jpg", "image/jpeg"),
      ]),
    });
    expect(res.status).toBe(415);
    const after = await t.database.db.selectFrom("meetings").select("id").execute();
    expect(after).toHaveLength(before.length);
    expect(files()).toBe(filesBefore);
  });

  it("updates by id with _method=PATCH, adds new images to the existing ones and raises the sequence", async () => {
    const event = await create({ ...BASE, title: "Workshop 2027", type: "workshop" }, [
      file(photo, "a.jpg", "image/jpeg"),
    ]);
    const res = await call(t.app, "POST", `/api/dashboard/meeting/${event.id}`, {
      token: admin,
      body: meetingForm(
        {
          ...BASE,
          title: "Technical Workshop 2027",
          type: "workshop",
          visibility: "members",
          capacity: "40",
          auto_confirm: "1",
          waitlist: "0",
        },
        [file(photo, "b.jpg", "image/jpeg")],
        "PATCH",
      ),
    });
    expect(res.status, res.text).toBe(200);
    const updated = (res.json as { event: Event }).event;
    expect(updated).toMatchObject({
      id: event.id,
      slug: event.slug,
      title: "Technical Workshop 2027",
      visibility: "members",
      registration_settings: { open: true, capacity: 40, auto_confirm: true, waitlist: false },
    });
    // Created without them: confirmed by the secretariat, with a waiting list (decision 0052).
    expect(event.registration_settings).toMatchObject({ auto_confirm: false, waitlist: true });
    expect(updated.images).toHaveLength(2);
    expect(updated.sequence).toBeGreaterThan(event.sequence);
  });

  it("deletes an image only through its own meeting", async () => {
    const one = await create({ ...BASE, title: "Meeting one", type: "meeting" }, [file(photo, "a.jpg", "image/jpeg")]);
    const two = await create({ ...BASE, title: "Meeting two", type: "meeting" }, [file(photo, "b.jpg", "image/jpeg")]);
    const foreign = await call(t.app, "DELETE", `/api/dashboard/meeting/${one.id}/image/${two.images[0].id}`, {
      token: admin,
    });
    expect(foreign.status).toBe(404);
    expect(fs.existsSync(uploaded(two.images[0].url))).toBe(true);

    const res = await call(t.app, "DELETE", one.images[0].delete_url, { token: admin });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "success", image_id: one.images[0].id });
    expect(fs.existsSync(uploaded(one.images[0].url))).toBe(false);
  });

  it("keeps a programme within the meeting's dates, HH:MM times with finish after start, ids of this meeting only", async () => {
    const event = await create({ ...BASE, title: "Programme test" });
    const url = `/api/dashboard/meeting/${event.id}/schedule`;
    const added = await call(t.app, "POST", url, {
      token: admin,
      json: { meeting_date: "2027-05-10", start: "09:30", finish: "11:00", description: "Opening", id: 999 },
    });
    expect(added.status, added.text).toBe(201);
    const schedule = (added.json as { schedule: { id: number; event_id: number } }).schedule;
    expect(schedule.event_id).toBe(event.id);

    const outside = await call(t.app, "POST", url, {
      token: admin,
      json: { meeting_date: "2027-05-13", start: "09:00" },
    });
    expect(outside.status).toBe(422);
    expect((outside.json as { errors: Record<string, string[]> }).errors.meeting_date[0]).toMatch(/within the meeting/);

    const badTimes = await call(t.app, "POST", url, {
      token: admin,
      json: { meeting_date: "2027-05-11", start: "14:00", finish: "13:00" },
    });
    expect(badTimes.status).toBe(422);
    expect((badTimes.json as { errors: Record<string, string[]> }).errors.finish).toEqual([
      "The finish time must be after the start time.",
    ]);
    const notATime = await call(t.app, "POST", url, {
      token: admin,
      json: { meeting_date: "2027-05-11", start: "9h" },
    });
    expect((notATime.json as { errors: Record<string, string[]> }).errors.start).toEqual([
      "The start time must be a time such as 09:30.",
    ]);

    const other = await create({ ...BASE, title: "Another meeting" });
    const foreign = await call(t.app, "POST", `/api/dashboard/meeting/${other.id}/schedule/${schedule.id}`, {
      token: admin,
      json: { _method: "PATCH", meeting_date: "2027-05-10", start: "10:00" },
    });
    expect(foreign.status).toBe(404);
    const foreignDelete = await call(t.app, "DELETE", `/api/dashboard/meeting/${other.id}/schedule/${schedule.id}`, {
      token: admin,
    });
    expect(foreignDelete.status).toBe(404);

    const patched = await call(t.app, "POST", `${url}/${schedule.id}`, {
      token: admin,
      json: { _method: "PATCH", meeting_date: "2027-05-11", start: "10:00", finish: "12:00", is_evening: false },
    });
    expect(patched.status, patched.text).toBe(200);
    expect((patched.json as { schedule: { meeting_date: string } }).schedule.meeting_date).toBe("2027-05-11");

    // Moving the meeting's dates away from its programme is refused, not left half-consistent.
    const moved = await call(t.app, "POST", `/api/dashboard/meeting/${event.id}`, {
      token: admin,
      json: { ...BASE, title: "Programme test", start_date: "2027-06-01", end_date: "2027-06-02", _method: "PATCH" },
    });
    expect(moved.status).toBe(422);

    const removed = await call(t.app, "DELETE", `${url}/${schedule.id}`, { token: admin });
    expect(removed.status).toBe(200);
  });

  it("adds, updates and deletes sponsors with a logo checked by content and an http(s) link", async () => {
    const event = await create({ ...BASE, title: "Sponsored meeting" });
    const url = `/api/dashboard/meeting/${event.id}/sponsor`;
    const form = new FormData();
    form.append("name", "Nordic Radio AS");
    form.append("link", "https://nordic-radio.example/");
    form.append("image", file(logo, "logo.png", "image/png"));
    const added = await call(t.app, "POST", url, { token: admin, body: form });
    expect(added.status, added.text).toBe(201);
    const sponsor = (added.json as { sponsor: Event["sponsors"][number] }).sponsor;
    expect(sponsor).toMatchObject({ name: "Nordic Radio AS", link: "https://nordic-radio.example/" });
    expect(fs.existsSync(uploaded(sponsor.image as string))).toBe(true);

    const badLink = await call(t.app, "POST", url, { token: admin, json: { name: "X", link: "javascript:alert(1)" } });
    expect(badLink.status).toBe(422);
    expect((badLink.json as { errors: Record<string, string[]> }).errors.link).toEqual([
      "The link must be an http:// or https:// address.",
    ]);

    const replaced = new FormData();
    replaced.append("_method", "PATCH");
    replaced.append("name", "Nordic Radio");
    replaced.append("image", file(logo, "logo2.png", "image/png"));
    const updated = await call(t.app, "POST", `${url}/${sponsor.id}`, { token: admin, body: replaced });
    expect(updated.status, updated.text).toBe(200);
    const after = (updated.json as { sponsor: Event["sponsors"][number] }).sponsor;
    expect(after).toMatchObject({ id: sponsor.id, name: "Nordic Radio", link: null });
    expect(fs.existsSync(uploaded(sponsor.image as string))).toBe(false);

    const other = await create({ ...BASE, title: "Unsponsored" });
    const foreign = await call(t.app, "DELETE", `/api/dashboard/meeting/${other.id}/sponsor/${sponsor.id}`, {
      token: admin,
    });
    expect(foreign.status).toBe(404);
    const removed = await call(t.app, "DELETE", `${url}/${sponsor.id}`, { token: admin });
    expect(removed.status).toBe(200);
    expect(fs.existsSync(uploaded(after.image as string))).toBe(false);
  });

  it("deletes a meeting with its images, programme, sponsors and search entry", async () => {
    const event = await create({ ...BASE, title: "Doomed gathering of radio officers" }, [
      file(photo, "a.jpg", "image/jpeg"),
    ]);
    await call(t.app, "POST", `/api/dashboard/meeting/${event.id}/schedule`, {
      token: admin,
      json: { meeting_date: "2027-05-10", start: "09:00" },
    });
    const sponsorForm = new FormData();
    sponsorForm.append("name", "Doomed Radio");
    sponsorForm.append("image", file(logo, "logo.png", "image/png"));
    const sponsored = await call(t.app, "POST", `/api/dashboard/meeting/${event.id}/sponsor`, {
      token: admin,
      body: sponsorForm,
    });
    const logoUrl = (sponsored.json as { sponsor: { image: string } }).sponsor.image;
    expect(fs.existsSync(uploaded(logoUrl))).toBe(true);
    const found = await call(t.app, "GET", "/api/search?search_query=doomed", {});
    expect((found.json as { results: unknown[] }).results).toHaveLength(1);

    const res = await call(t.app, "DELETE", `/api/dashboard/meeting/${event.id}`, { token: admin });
    expect(res.status).toBe(200);
    expect(fs.existsSync(uploaded(event.images[0].url))).toBe(false);
    expect(fs.existsSync(uploaded(logoUrl))).toBe(false);
    const db = t.database.db;
    expect(await db.selectFrom("schedules").selectAll().where("event_id", "=", event.id).execute()).toEqual([]);
    const gone = await call(t.app, "GET", "/api/search?search_query=doomed", {});
    expect((gone.json as { results: unknown[] }).results).toEqual([]);
    const again = await call(t.app, "DELETE", `/api/dashboard/meeting/${event.id}`, { token: admin });
    expect(again.status).toBe(404);
  });

  it("searches the admin list in SQL, with load-more through next_page_url carrying the search", async () => {
    for (let i = 0; i < 14; i++) await create({ ...BASE, title: `Hydrography forum ${i}`, type: "meeting" });
    const first = await call(t.app, "GET", "/api/dashboard/meeting?search=hydrography", { token: admin });
    const page = first.json as { data: Event[]; total: number; next_page_url: string | null };
    expect(page.total).toBe(14);
    expect(page.data).toHaveLength(12);
    expect(page.next_page_url).toBe("/api/dashboard/meeting?page=2&search=hydrography");
    const second = await call(t.app, "GET", page.next_page_url as string, { token: admin });
    expect((second.json as { data: Event[] }).data).toHaveLength(2);
  });

  it("answers 404, never a 500, for ids past the database's integer range", async () => {
    for (const url of [
      "/api/dashboard/meeting/99999999999999",
      "/api/dashboard/meeting/99999999999999/schedule",
      "/api/dashboard/meeting/1/image/99999999999999",
    ]) {
      const res = await call(t.app, url.endsWith("schedule") ? "POST" : url.includes("image") ? "DELETE" : "GET", url, {
        token: admin,
        json: url.endsWith("schedule") ? { meeting_date: "2027-05-10" } : undefined,
      });
      expect(res.status, url).toBe(404);
    }
  });

  it("is for admins only: 401 without a session, 403 for a member", async () => {
    expect((await call(t.app, "GET", "/api/dashboard/meeting", {})).status).toBe(401);
    expect((await call(t.app, "GET", "/api/dashboard/meeting", { token: member })).status).toBe(403);
    expect((await call(t.app, "POST", "/api/dashboard/meeting", { token: member, json: BASE })).status).toBe(403);
  });
});

describe("visibility", () => {
  it("hides members-only meetings from visitors on every read path, and shows them to signed-in users", async () => {
    const event = await create({
      ...BASE,
      title: "Closed session on cyber incidents",
      visibility: "members",
      start_date: "2028-01-10",
      end_date: "2028-01-10",
    });
    const slug = event.slug;

    // By slug.
    expect((await call(t.app, "GET", `/api/dashboard/getMeetingBySlug/${slug}`, {})).status).toBe(404);
    expect((await call(t.app, "GET", `/api/meetings/${slug}`, {})).status).toBe(404);
    const asMember = await call(t.app, "GET", `/api/dashboard/getMeetingBySlug/${slug}`, { token: member });
    expect(asMember.status).toBe(200);
    expect((asMember.json as { event: Event }).event.title).toBe("Closed session on cyber incidents");

    // Lists.
    const visitorList = await call(t.app, "GET", "/api/meetings?start_date=2028-01-01", {});
    expect(JSON.stringify(visitorList.json)).not.toContain("cyber");
    const memberList = await call(t.app, "GET", "/api/meetings?start_date=2028-01-01", { token: member });
    expect(JSON.stringify(memberList.json)).toContain("Closed session on cyber incidents");

    // Site search.
    const visitorSearch = await call(t.app, "GET", "/api/search?search_query=cyber", {});
    expect((visitorSearch.json as { results: unknown[] }).results).toEqual([]);
    const memberSearch = await call(t.app, "GET", "/api/search?search_query=cyber", { token: member });
    expect((memberSearch.json as { results: { url: string }[] }).results.map((r) => r.url)).toEqual([
      `/dashboard/events/${slug}`,
    ]);

    // Sitemap.
    const sitemap = await t.runtime.services.meetings.sitemapEntries();
    expect(sitemap.map((s) => s.slug)).not.toContain(slug);
  });
});
