import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCurrentCompany } from "../../core/members/current";
import { SENT_MAIL_DAYS } from "../../core/privacy/retention.service";
import { createSearchService } from "../../core/search/search.service";
import { createServices } from "../../core/services";
import { DEFAULT_SETTINGS } from "../../core/settings/settings.defaults";
import { imageFiles } from "../../lib/image-variants";
import { localStorage } from "../../lib/storage";
import { seedDemoContent } from "../../scripts/seed/index";
import { DEMO_MEMBER } from "../../scripts/seed/members";
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
  // About two minutes alone; more on a machine shared with other work.
}, 300_000);
afterAll(async () => {
  await database.cleanup();
  fs.rmSync(uploadsDir, { recursive: true, force: true });
  fs.rmSync(privateDir, { recursive: true, force: true });
});

/** The services over the seeded database, on the seed's clock. */
const seededServices = () =>
  createServices({
    origin: "http://localhost:3000",
    db: database.db,
    dialect: database.dialect,
    sqlite: database.sqlite,
    storage: localStorage(uploadsDir),
    privateStorage: localStorage(privateDir),
    sessionTtlSeconds: 3600,
    clock: () => now,
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
    // 36 published, a draft and a post scheduled for later (issue 34).
    expect(await count("news_posts")).toBe(38);
  });

  it("shows issue 34's screens with something in them: a draft, a scheduled post, a page's revisions, a week of audit", async () => {
    const posts = await database.db.selectFrom("news_posts").select(["status", "published_at"]).execute();
    expect(posts.filter((p) => p.status === "draft")).toHaveLength(1);
    expect(posts.filter((p) => p.status === "published" && p.published_at > now.toISOString())).toHaveLength(1);
    const revisions = await database.db
      .selectFrom("content_revisions")
      .innerJoin("pages", "pages.id", "content_revisions.entity_id")
      .select(["pages.url", "pages.content", "content_revisions.fields"])
      .where("content_revisions.entity", "=", "page")
      .orderBy("content_revisions.id")
      .execute();
    expect(revisions.map((r) => r.url)).toEqual(["/purpose-objectives", "/purpose-objectives", "/purpose-objectives"]);
    // The newest revision is the page as it is.
    expect(JSON.parse(revisions[2].fields).content).toBe(revisions[2].content);
    const audit = await database.db.selectFrom("audit_log").select("created_at").orderBy("created_at").execute();
    expect(audit.length).toBeGreaterThanOrEqual(10);
    const days = (Date.parse(audit.at(-1)?.created_at ?? "") - Date.parse(audit[0].created_at)) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(5);
    expect(audit.every((row) => row.created_at <= now.toISOString())).toBe(true);
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

  it("has a privacy policy that says what is kept and for how long, as the retention settings do (issue 35)", async () => {
    const policy = await database.db
      .selectFrom("pages")
      .select("content")
      .where("url", "=", "/privacy-policy")
      .executeTakeFirstOrThrow();
    const kept = policy.content.slice(policy.content.indexOf("How long we keep it"));
    expect(kept).toContain(
      `erased ${DEFAULT_SETTINGS["privacy.retention_months"]} months after we handled your request`,
    );
    expect(kept).toContain(`removed from our systems after ${SENT_MAIL_DAYS} days`);
    expect(kept).toContain(`kept for ${DEFAULT_SETTINGS["audit.retention_days"]} days`);
  });

  it("has 30+ news posts over 12+ months, each with a real image of the recorded size", async () => {
    const posts = await database.db
      .selectFrom("news_posts")
      .selectAll()
      .where("status", "=", "published")
      .where("published_at", "<=", now.toISOString())
      .orderBy("published_at")
      .execute();
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

  it("has member companies on four continents with types, products and WebP logos; two lapsed, one left; five with representatives", async () => {
    const { db } = database;
    const companies = await db.selectFrom("member_companies").selectAll().execute();
    expect(companies.length).toBeGreaterThanOrEqual(30);
    for (const country of ["NO", "JP", "US", "BR", "ZA", "AU"]) {
      expect(companies.map((c) => c.country)).toContain(country);
    }
    expect(new Set(companies.map((c) => c.membership_type))).toEqual(new Set(["full", "associate"]));
    for (const company of companies.slice(0, 3)) {
      expect(company.logo).toMatch(/^members\/[0-9a-f]+-\d+\.webp$/);
      const meta = await sharp(path.join(uploadsDir, company.logo as string)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["webp", company.logo_width, company.logo_height]);
    }
    const products = await db.selectFrom("member_company_products").select(["company_id", "name"]).execute();
    expect(new Set(products.map((p) => p.company_id)).size).toBe(companies.length);
    for (const tag of ["Radar", "ECDIS", "AIS", "GMDSS"]) expect(products.map((p) => p.name)).toContain(tag);

    // Current as the site decides it on the seed's day (30 days' grace by default).
    const today = now.toISOString().slice(0, 10);
    const graceCutoff = new Date(now.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
    const current = companies.filter(
      (c) => c.status === "active" && (c.renews_on === null || c.renews_on >= graceCutoff),
    );
    const lapsed = companies.filter((c) => c.status === "active" && !current.includes(c));
    expect(lapsed.map((c) => c.name).sort()).toEqual(["Gulf Coast Marine Radio LLC", "Piraeus Navtronics S.A."]);
    expect(companies.filter((c) => c.status === "left").map((c) => c.name)).toEqual([
      "Malacca Strait Electronics Sdn Bhd",
    ]);
    // Some renewals are due within 60 days, and one company is past its date but within the grace.
    const inSixtyDays = new Date(now.getTime() + 60 * 86_400_000).toISOString().slice(0, 10);
    expect(current.some((c) => c.renews_on !== null && c.renews_on >= today && c.renews_on <= inSixtyDays)).toBe(true);
    expect(current.some((c) => c.renews_on !== null && c.renews_on < today)).toBe(true);

    const representatives = await db
      .selectFrom("company_representatives")
      .innerJoin("users", "users.id", "company_representatives.user_id")
      .select(["company_id", "is_primary", "email", "password_hash", "role"])
      .execute();
    expect(new Set(representatives.map((r) => r.company_id)).size).toBe(5);
    expect(representatives.every((r) => r.role === "member")).toBe(true);
    const demo = representatives.find((r) => r.email === "member@masthead.example");
    expect(demo?.is_primary).toBe(1);
    expect(demo?.password_hash).toBeTruthy();
    // Every company is indexed at its page, as the members service indexes them (decision 0046)…
    const indexed = await db
      .selectFrom("search_documents")
      .select(["title", "url"])
      .where("kind", "=", "member")
      .execute();
    expect(indexed.map((r) => [r.title, r.url]).sort()).toEqual(
      companies.map((c) => [c.name, `/members-list/${c.slug}`]).sort(),
    );
    // …and the site search, asking on the seed's day, finds the current ones alone.
    const search = createSearchService({
      db,
      dialect: database.dialect,
      clock: () => now,
      shownWhen: async () => ({ member: (id) => isCurrentCompany(id, graceCutoff) }),
    });
    const found = async (name: string) =>
      (await search.search(name, { signedIn: true })).filter((r) => r.subtitle === "Members").map((r) => r.title);
    expect(await found("Malacca Strait Electronics")).toEqual([]);
    expect(await found("Gulf Coast Marine Radio")).toEqual([]);
    expect(await found("Piraeus Navtronics")).toEqual([]);
    expect(await found("Nordhavn Marine Electronics")).toEqual(["Nordhavn Marine Electronics AS"]);
  });

  it("has a few membership applications in each state, the decided ones with their history and mail", async () => {
    const { db } = database;
    const applications = await db.selectFrom("join_requests").selectAll().where("kind", "=", "join").execute();
    for (const status of ["new", "approved", "declined"] as const) {
      expect(applications.filter((a) => a.status === status).length, status).toBeGreaterThanOrEqual(2);
    }
    const others = await db.selectFrom("join_requests").select("status").where("kind", "!=", "join").execute();
    expect(others.every((r) => r.status === null)).toBe(true);
    const events = await db.selectFrom("join_request_events").selectAll().execute();
    for (const application of applications.filter((a) => a.status !== "new")) {
      const event = events.find((e) => e.join_request_id === application.id);
      expect(event?.event).toBe(application.status);
      expect(application.handled_at).not.toBeNull();
      if (application.status === "approved") expect(event?.company_id).not.toBeNull();
      else expect(event?.reason).toBeTruthy();
    }
  });

  it("has the conference's 60 registrations in every state with a waiting list and places left, the workshop full with three waitlisted", async () => {
    const { db } = database;
    const featured = async (type: "conference" | "workshop") => {
      const meeting = await db
        .selectFrom("meetings")
        .select(["id", "capacity", "registration_waitlist"])
        .where("type", "=", type)
        .where("start_date", ">=", now.toISOString().slice(0, 10))
        .orderBy("start_date")
        .executeTakeFirstOrThrow();
      const rows = await db
        .selectFrom("join_requests")
        .selectAll()
        .where("kind", "=", "registration")
        .where("meeting_id", "=", meeting.id)
        .execute();
      const count = (status: string) => rows.filter((r) => r.registration_status === status).length;
      const events = await db
        .selectFrom("join_request_events")
        .select(["join_request_id", "event", "reason"])
        .where(
          "join_request_id",
          "in",
          rows.map((r) => r.id),
        )
        .execute();
      return { meeting, rows, count, events };
    };

    const conference = await featured("conference");
    expect(conference.rows).toHaveLength(60);
    const held = conference.count("pending") + conference.count("confirmed");
    expect(conference.meeting.capacity).toBe(50);
    // Places left, so that /conference takes a pending registration (the end-to-end tests send three).
    expect(held).toBeLessThanOrEqual(46);
    for (const status of ["pending", "confirmed", "waitlisted", "declined", "cancelled"]) {
      expect(conference.count(status), status).toBeGreaterThanOrEqual(4);
    }
    expect(conference.rows.filter((r) => r.note).length).toBeGreaterThanOrEqual(3);
    expect(conference.rows.some((r) => r.user_id !== null)).toBe(true);

    const workshop = await featured("workshop");
    expect(workshop.meeting.registration_waitlist).toBe(1);
    expect(workshop.count("pending") + workshop.count("confirmed")).toBe(workshop.meeting.capacity);
    expect(workshop.count("waitlisted")).toBe(3);

    for (const { rows, events } of [conference, workshop]) {
      for (const r of rows) {
        // As the service leaves them: the address's key held while a seat is held or awaited, one event per state.
        const active = r.registration_status !== "declined" && r.registration_status !== "cancelled";
        expect(r.registration_email).toBe(active ? r.email.toLowerCase() : null);
        expect(r.attended_at).toBeNull();
        const own = events.filter((e) => e.join_request_id === r.id).map((e) => e.event);
        expect(own.at(-1)).toBe(`registration_${r.registration_status}`);
        if (r.registration_status === "declined") {
          expect(
            events.find((e) => e.join_request_id === r.id && e.event === "registration_declined")?.reason,
          ).toBeTruthy();
        }
      }
      expect(new Set(rows.map((r) => r.registration_email).filter(Boolean)).size).toBe(
        rows.filter((r) => r.registration_email).length,
      );
    }
  });

  it("has the demo member following two library categories and the meetings (issue 33)", async () => {
    const follows = await database.db
      .selectFrom("follows")
      .innerJoin("users", "users.id", "follows.user_id")
      .leftJoin("paper_categories", "paper_categories.id", "follows.category_id")
      .select(["users.email", "follows.kind", "follows.delivery", "paper_categories.slug"])
      .orderBy("follows.id")
      .execute();
    expect(follows).toEqual([
      { email: DEMO_MEMBER.email, kind: "category", delivery: "instant", slug: "technical-bulletins" },
      { email: DEMO_MEMBER.email, kind: "category", delivery: "digest", slug: "upcoming-standards" },
      { email: DEMO_MEMBER.email, kind: "meetings", delivery: "digest", slug: null },
    ]);
  });

  it("has three working groups, each with its library folder, two papers and a meeting to come, the demo member in SECOM (issue 36)", async () => {
    const services = seededServices();
    const groups = await services.groups.list({ id: 0, role: "admin" });
    expect(groups.map((g) => g.slug).sort()).toEqual(["cyber-security", "s-421-route-exchange", "secom"]);
    for (const group of groups) {
      const detail = await services.groups.detail(group.slug, { id: 0, role: "admin" });
      expect(detail.categories, group.slug).toHaveLength(1);
      expect(detail.papers, group.slug).toHaveLength(2);
      expect(detail.meetings.length, group.slug).toBeGreaterThanOrEqual(1);
    }
    // The demo member reads SECOM's folder and finds its papers; the other groups' are not theirs.
    const secom = groups.find((g) => g.slug === "secom")?.id as number;
    const demoMember = { signedIn: true, groups: [secom] };
    expect((await services.library.categoryBySlug("secom-documents", demoMember)).audience).toBe("groups");
    await expect(services.library.categoryBySlug("s-421-documents", demoMember)).rejects.toMatchObject({
      code: "not_found",
    });
    const found = async (query: string) => (await services.search.search(query, demoMember)).map((r) => r.title);
    expect(await found("interoperability trial report")).toContain("Interoperability trial report, autumn");
    expect(await found("comments resolution")).not.toContain("S-421 product specification, comments resolution");
  });

  it("has this week's new standards, so that the weekly digest of a fresh demo goes to the demo member alone", async () => {
    const services = seededServices();
    expect(await services.notices.sendDigest("weekly")).toMatchObject({ outcome: "sent", mails: 1, items: 3 });
    const queued = await database.db.selectFrom("mail_queue").selectAll().where("purpose", "=", "digest").execute();
    expect(queued.map((m) => m.to_address)).toEqual([DEMO_MEMBER.email]);
    expect(queued[0].subject).toBe("Masthead weekly digest: 3 new items");
    expect(queued[0].body_text).toContain("IN THE LIBRARY");
  });
});
