import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageFiles } from "../../lib/image-variants";
import { seedDemoContent } from "../../scripts/seed/index";
import { createTestDatabase, type TestDatabase } from "../support/database";

let database: TestDatabase;
let uploadsDir: string;
let privateDir: string;
const now = new Date("2026-11-22T12:00:00.000Z");

beforeAll(async () => {
  database = await createTestDatabase();
  uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-seed-"));
  privateDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-seed-private-"));
  expect(await seedDemoContent(database.db, { uploadsDir, privateDir, now })).toEqual({ seeded: true });
}, 120_000);
afterAll(async () => {
  await database.cleanup();
  fs.rmSync(uploadsDir, { recursive: true, force: true });
  fs.rmSync(privateDir, { recursive: true, force: true });
});

const count = async (table: "pages" | "news_posts" | "member_companies" | "papers" | "meetings") =>
  Number(
    (
      await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("demo content (npm run db:seed)", () => {
  it("loads on an empty database only", async () => {
    expect(await seedDemoContent(database.db, { uploadsDir, privateDir, now })).toEqual({ seeded: false });
    expect(await count("news_posts")).toBe(36);
  });

  it("has the about, services and other CMS pages and the contact settings", async () => {
    const urls = (await database.db.selectFrom("pages").select("url").execute()).map((r) => r.url);
    for (const url of [
      "/honorary-membership",
      "/purpose-objectives",
      "/structure-people",
      "/position-papers",
      "/collaboration",
      "/history",
      "/contact",
      "/feedback-forum",
      "/service-code-of-practice",
      "/manufacturer-ids",
      "/publications",
      "/rtz-xml-schemas",
      "/s-421",
      "/standards-guide",
      "/secom",
      "/traffic-accounting",
      "/tributes",
      "/privacy-policy",
    ]) {
      expect(urls).toContain(url);
    }
    const settings = Object.fromEntries(
      (await database.db.selectFrom("settings").selectAll().execute()).map((r) => [r.key, r.value]),
    );
    expect(settings["site.tagline"]).toBe("International association of marine electronics companies");
    for (const key of ["site.email", "site.phone", "site.twitter", "site.youtube", "site.linkedin"])
      expect(settings[key]).toBeTruthy();
  });

  it("has 30+ news posts over 12+ months, each with a real image of the recorded size", async () => {
    const posts = await database.db.selectFrom("news_posts").selectAll().orderBy("published_at").execute();
    expect(posts.length).toBeGreaterThanOrEqual(30);
    const months = new Set(posts.map((p) => p.published_at.slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(12);
    expect(posts.every((p) => p.published_at <= now.toISOString())).toBe(true);
    for (const post of posts.slice(0, 3)) {
      const meta = await sharp(path.join(uploadsDir, post.image as string)).metadata();
      expect([meta.width, meta.height]).toEqual([post.image_width, post.image_height]);
      // Stored as an admin's upload is: WebP at each width, so that pages can offer the smaller ones.
      expect(post.image).toMatch(/^news\/[0-9a-f]+-1600\.webp$/);
      for (const file of imageFiles(post.image as string)) {
        expect((await sharp(path.join(uploadsDir, file)).metadata()).format).toBe("webp");
      }
      expect(imageFiles(post.image as string)).toHaveLength(3);
    }
  });

  it("has past and upcoming meetings, with an annual conference and workshop carrying schedules, sponsors and images", async () => {
    const today = now.toISOString().slice(0, 10);
    const meetings = await database.db.selectFrom("meetings").selectAll().execute();
    expect(meetings.some((m) => m.start_date < today)).toBe(true);
    for (const type of ["conference", "workshop"]) {
      const upcoming = meetings.find((m) => m.type === type && m.start_date >= today);
      expect(upcoming, `an upcoming ${type}`).toBeDefined();
      const id = upcoming?.id as number;
      const [schedules, sponsors, images] = await Promise.all([
        database.db.selectFrom("schedules").selectAll().where("event_id", "=", id).execute(),
        database.db.selectFrom("sponsors").selectAll().where("event_id", "=", id).execute(),
        database.db.selectFrom("meeting_images").selectAll().where("meeting_id", "=", id).execute(),
      ]);
      expect(schedules.length).toBeGreaterThan(0);
      expect(sponsors.length).toBeGreaterThan(0);
      expect(images.length).toBeGreaterThan(0);
    }
  });

  it("has meetings in time zones on two continents, members-only ones indexed for members, closed and capped registrations", async () => {
    const meetings = await database.db.selectFrom("meetings").selectAll().execute();
    const zones = new Set(meetings.map((m) => m.timezone));
    for (const zone of ["Europe/Amsterdam", "Europe/London", "America/New_York", "Asia/Singapore"]) {
      expect(zones).toContain(zone);
    }
    const today = now.toISOString().slice(0, 10);
    const membersOnly = meetings.filter((m) => m.visibility === "members");
    expect(membersOnly.length).toBeGreaterThanOrEqual(2);
    expect(membersOnly.some((m) => m.start_date >= today)).toBe(true);
    expect(meetings.some((m) => m.registration_open === 0 && m.start_date >= today)).toBe(true);
    expect(meetings.some((m) => m.capacity !== null && m.start_date >= today)).toBe(true);

    const entries = await database.db
      .selectFrom("search_documents")
      .select(["ref_id", "url", "audience"])
      .where("kind", "=", "meeting")
      .execute();
    for (const meeting of meetings) {
      const entry = entries.find((e) => e.ref_id === String(meeting.id));
      expect(entry).toEqual(
        meeting.visibility === "members"
          ? { ref_id: String(meeting.id), url: `/dashboard/events/${meeting.slug}`, audience: "members" }
          : { ref_id: String(meeting.id), url: `/events/${meeting.slug}`, audience: "public" },
      );
    }
  });

  it("has the category tree of SPEC §9 and papers with real PDF files", async () => {
    const categories = await database.db.selectFrom("paper_categories").selectAll().execute();
    // The top categories are the roots, shown as cards on /dashboard.
    const roots = categories.filter((c) => c.parent_id === null);
    expect(roots.length).toBeGreaterThanOrEqual(6);
    expect(roots.every((c) => c.is_root === 1)).toBe(true);
    // Public and members-only categories (issue 14).
    expect(categories.filter((c) => c.is_public === 1).map((c) => c.slug)).toEqual(
      expect.arrayContaining(["spotlight-magazine", "recently-published-standards"]),
    );
    const viewTypes = new Set(categories.map((c) => c.view_type));
    for (const view of ["upcoming-standards", "recently-published-standards", "spotlight-magazine"])
      expect(viewTypes).toContain(view);
    for (const suffix of ["-policy", "-technical-bulletins", "-technical-papers"]) {
      expect([...viewTypes].some((v) => v?.endsWith(suffix))).toBe(true);
    }
    expect(
      categories.some((c) => c.parent_id !== null && categories.find((p) => p.id === c.parent_id)?.is_root === 1),
    ).toBe(true);
    const papers = await database.db.selectFrom("papers").selectAll().execute();
    expect(papers.length).toBeGreaterThanOrEqual(40);
    const pdf = fs.readFileSync(path.join(privateDir, papers[0].uploaded_file as string));
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    // Paper files are private (decision 0024): nothing of theirs under the public uploads.
    expect(fs.existsSync(path.join(uploadsDir, "papers"))).toBe(false);
    expect(papers.every((p) => p.file_type === "application/pdf" && (p.file_size ?? 0) > 1000)).toBe(true);
    // Earlier revisions with their own files, and the documents' text, page by page.
    const revisions = await database.db.selectFrom("paper_revisions").selectAll().execute();
    expect(revisions.length).toBeGreaterThanOrEqual(3);
    for (const r of revisions) expect(fs.existsSync(path.join(privateDir, r.uploaded_file))).toBe(true);
    const pages = await database.db.selectFrom("paper_pages").selectAll().execute();
    expect(new Set(pages.map((p) => p.paper_id)).size).toBe(papers.length);
  });

  it("has 40+ member companies with logos, and a search index over every kind", async () => {
    expect(await count("member_companies")).toBeGreaterThanOrEqual(40);
    const kinds = new Set(
      (await database.db.selectFrom("search_documents").select("kind").execute()).map((r) => r.kind),
    );
    for (const kind of ["page", "news", "meeting", "category", "paper", "paper_page", "member"]) {
      expect(kinds).toContain(kind);
    }
  });
});
