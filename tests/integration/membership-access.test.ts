import ICAL from "ical.js";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categoryCreateSchema, paperInputSchema } from "../../core/library/library.schema";
import { addDays, LAPSED_NOTICE } from "../../core/members/members.values";
import { dateIn } from "../../lib/time-zones";
import { PAGE_CACHE_HEADER } from "../../server/middleware/page-cache";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { createUser, PASSWORD, signIn } from "../support/factories";
import { formTimeAt } from "../support/form-time";
import { pagesApp } from "../support/pages";

/**
 * Issue 31 'Who is a member': a member whose company has lapsed keeps signing in and gets what a
 * visitor gets everywhere the members' access is decided (core/access/access.ts): paper files,
 * members-only meetings (API, pages, .ics), the private calendar feed, site search, the shared
 * page renders of decision 0032 and the API's answer cache. Lapsing is a matter of the date: the
 * company's row changes here without any admin request, so the content version stays where it
 * was, and each next request must already decide anew. A renewal gives it all back at once.
 */
let t: TestContext;
/** The app with its pages (Vite's SSR loader) and the real page cache in front. */
let pages: TestContext["app"];
let closePages: (() => Promise<void>) | undefined;
let admin: string;
let companyId: number;
/** The company's representative: token and cookie. */
let rep: { token: string; cookie: string; calendar: string };
/** A member without a company (an individual member). */
let individual: { token: string; cookie: string };
let paperId: number;
let meetingSlug: string;
const PAPER = "Albatross radar study";
const CATEGORY = "Members Only Papers";
const MEETING = "Closed board retreat";
const today = () => dateIn(new Date(), "Europe/London");

async function pdf(): Promise<File> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText("Albatross echoes at sea", { x: 50, y: 700, font });
  return new File([Buffer.from(await doc.save())], "study.pdf", { type: "application/pdf" });
}

/** The company's renewal date set straight in the database: time passing, as no request of ours marks it. */
async function renewsOn(day: string | null) {
  await t.database.db.updateTable("member_companies").set({ renews_on: day }).where("id", "=", companyId).execute();
}
const lapse = () => renewsOn(addDays(today(), -100));
const restore = () => renewsOn(addDays(today(), 100));

/** The meeting a stored join request registers for (null: none, a plain request). */
/** Whether anything was stored for this address (a refused registration stores nothing). */
const storedAs = async (email: string) =>
  (await t.database.db.selectFrom("join_requests").select("id").where("email", "=", email).executeTakeFirst()) !==
  undefined;
const meetingOf = async (email: string) =>
  (
    await t.database.db
      .selectFrom("join_requests")
      .select("meeting_id")
      .where("email", "=", email)
      .executeTakeFirstOrThrow()
  ).meeting_id;

const get = (url: string, who?: { cookie: string }) => call(pages, "GET", url, who ? { cookie: who.cookie } : {});
const apiAs = (url: string, token?: string) => call(t.app, "GET", url, token ? { token } : {});
const textOf = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
const feedSummaries = (ics: string) =>
  new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents("vevent").map((e) => e.getFirstPropertyValue("summary"));

beforeAll(async () => {
  t = await createTestContext();
  ({ pages, close: closePages } = await pagesApp(t));
  const { services } = t.runtime;
  admin = (await signIn(services, "admin")).token;

  const company = await services.members.create({
    name: "Lapsing Marine Ltd",
    country: "NO",
    member_since: "2001-01-01",
    renews_on: addDays(today(), 100),
  });
  companyId = company.id;
  const { user } = await createUser(services);
  await services.members.addRepresentative(
    companyId,
    { email: user.email, first_name: user.first_name, last_name: user.last_name, primary: true },
    { origin: "http://localhost:3000", inviter: { first_name: "", last_name: "" } },
  );
  const session = await services.auth.login({ email: user.email, password: PASSWORD }, { ip: "203.0.113.9" });
  rep = {
    token: session.token,
    cookie: `auth.session=${session.token}`,
    calendar: await services.profile.renewCalendarToken(user.id, PASSWORD),
  };
  const alone = await signIn(services);
  individual = { token: alone.token, cookie: alone.cookie };

  // A members-only root category (no is_public: members-only) with a paper and its file.
  const category = await services.libraryAdmin.createCategory(
    categoryCreateSchema.parse({
      name: CATEGORY,
      title: CATEGORY,
      title_description: "",
      description: "",
      content: "",
      view_type: "",
      is_public: "",
      parent_id: "",
    }),
    null,
  );
  const paper = await services.libraryAdmin.createPaper(
    paperInputSchema.parse({ papers_category_id: String(category.id), name: PAPER, number: "MP-1" }),
    await pdf(),
  );
  paperId = paper.id;
  const meeting = await call(t.app, "POST", "/api/dashboard/meeting", {
    token: admin,
    json: {
      title: MEETING,
      type: "meeting",
      start_date: addDays(today(), 40),
      visibility: "members",
      organization: "Masthead",
      timezone: "Europe/London",
    },
  });
  expect(meeting.status, meeting.text).toBe(201);
  meetingSlug = (meeting.json as { event: { slug: string } }).event.slug;
}, 300_000);
afterAll(async () => {
  await closePages?.();
  await t?.close();
});

/** What the members' access opens, as the representative asks for it. */
async function whatTheRepresentativeGets() {
  const download = await call(t.app, "GET", `/papers/${paperId}/download`, { cookie: rep.cookie });
  const meeting = await apiAs(`/api/meetings/${meetingSlug}`, rep.token);
  const ics = await call(t.app, "GET", `/events/${meetingSlug}.ics`, { cookie: rep.cookie });
  const list = await apiAs("/api/meetings", rep.token);
  const search = await apiAs(`/api/search?search_query=${encodeURIComponent("albatross")}`, rep.token);
  const feed = await call(t.app, "GET", `/calendar/${rep.calendar}.ics`);
  const user = await apiAs("/api/dashboard/user", rep.token);
  return {
    download: download.status,
    meeting: meeting.status,
    ics: ics.status,
    listed: JSON.stringify(list.json).includes(MEETING),
    found: JSON.stringify(search.json).includes(PAPER),
    feed: [feed.status, feedSummaries(feed.text).includes(MEETING)],
    current: (user.json as { user: { company: { current: boolean } } }).user.company.current,
  };
}

const MEMBERS_VIEW = {
  download: 200,
  meeting: 200,
  ics: 200,
  listed: true,
  found: true,
  feed: [200, true],
  current: true,
};
const VISITORS_VIEW = {
  download: 404,
  meeting: 404,
  ics: 404,
  listed: false,
  found: false,
  // The private feed's address keeps working, with what the public feed holds.
  feed: [200, false],
  current: false,
};

describe("a member whose company is current", () => {
  it("reads the members-only library, meetings, feed and search results", async () => {
    await restore();
    expect(await whatTheRepresentativeGets()).toEqual(MEMBERS_VIEW);
  });
});

describe("a member whose company has lapsed", () => {
  it("gets what a visitor gets on the very next request, without any write or content change", async () => {
    await restore();
    expect(await whatTheRepresentativeGets()).toEqual(MEMBERS_VIEW);
    const version = await t.runtime.services.contentVersion.current();
    await lapse();
    expect(await whatTheRepresentativeGets()).toEqual(VISITORS_VIEW);
    expect(await t.runtime.services.contentVersion.current()).toBe(version);
    // And back on the next request after the renewal.
    await restore();
    expect(await whatTheRepresentativeGets()).toEqual(MEMBERS_VIEW);
  });

  it("is current until the grace period (30 days by default) has passed", async () => {
    await renewsOn(addDays(today(), -30));
    expect((await whatTheRepresentativeGets()).download).toBe(200);
    await renewsOn(addDays(today(), -31));
    expect((await whatTheRepresentativeGets()).download).toBe(404);
    await restore();
  });

  it("keeps signing in; members without a company and admins keep their access", async () => {
    await lapse();
    expect((await apiAs("/api/dashboard/user", rep.token)).status).toBe(200);
    for (const token of [individual.token, admin]) {
      expect((await apiAs(`/api/meetings/${meetingSlug}`, token)).status).toBe(200);
      expect((await call(t.app, "GET", `/papers/${paperId}/download`, { token })).status).toBe(200);
    }
    await restore();
  });

  it("registers from a members-only meeting's page as a visitor would while lapsed, for the meeting once renewed", async () => {
    const register = async (tag: string) =>
      call(t.app, "POST", "/api/join", {
        token: rep.token,
        json: {
          company_name: "Lapsing Marine Ltd",
          representative_name: "Lapsing Rep",
          email: `${tag}@lapsing-marine.test`,
          phone_number: "+47 22 00 00 00",
          page_path: `/events/${meetingSlug}`,
          started_at: await formTimeAt(t.database.db, "join", Date.now() - 60_000),
          website: "",
        },
      });
    const anonymous = await call(t.app, "POST", "/api/join", {
      json: {
        company_name: "Visiting Marine Ltd",
        representative_name: "A Visitor",
        email: "visitor@visiting-marine.test",
        phone_number: "+47 22 00 00 01",
        page_path: `/events/${meetingSlug}`,
        started_at: await formTimeAt(t.database.db, "join", Date.now() - 60_000),
        website: "",
      },
    });
    // A members-only meeting is not there for a visitor: its registration is a 404, as its page (issue 32,
    // decision 0052; before, it was stored without its meeting).
    expect(anonymous.status, anonymous.text).toBe(404);
    expect(await storedAs("visitor@visiting-marine.test")).toBe(false);
    await lapse();
    const lapsed = await register("lapsed");
    expect(lapsed.status, lapsed.text).toBe(404);
    expect(await storedAs("lapsed@lapsing-marine.test")).toBe(false);
    await restore();
    const current = await register("current");
    expect(current.status, current.text).toBe(200);
    expect(await meetingOf("current@lapsing-marine.test")).toBeTypeOf("number");
  });

  it("the join page without JavaScript decides as the API door does: lapsed, not for the members-only meeting", async () => {
    // The no-JavaScript door: the join page's form action (app/routes/join/public-form.server.ts), with the session cookie.
    const register = async (tag: string) =>
      call(pages, "POST", `${ORIGIN}/join`, {
        cookie: rep.cookie,
        form: {
          company_name: "Lapsing Marine Ltd",
          representative_name: "Lapsing Rep",
          email: `${tag}@lapsing-marine.test`,
          phone_number: "+47 22 00 00 00",
          page_path: `/events/${meetingSlug}`,
          started_at: await formTimeAt(t.database.db, "join", Date.now() - 60_000),
          website: "",
        },
      });
    await lapse();
    const lapsed = await register("page-lapsed");
    // Signed in with the role 'member', but not current: refused as a visitor is (404, decision 0052).
    expect(lapsed.status, lapsed.text.slice(0, 300)).toBe(404);
    expect(await storedAs("page-lapsed@lapsing-marine.test")).toBe(false);
    await restore();
    const current = await register("page-current");
    expect(current.status, current.text.slice(0, 300)).toBe(302);
    expect(await meetingOf("page-current@lapsing-marine.test")).toBeTypeOf("number");
  });

  it("is lapsed while the company is suspended or has left, and current again when the secretariat renews it", async () => {
    await restore();
    for (const status of ["suspended", "left"]) {
      const changed = await call(t.app, "PATCH", `/api/dashboard/companies/${companyId}`, {
        token: admin,
        json: { status },
      });
      expect(changed.status).toBe(200);
      expect((await whatTheRepresentativeGets()).download).toBe(404);
    }
    await call(t.app, "PATCH", `/api/dashboard/companies/${companyId}`, { token: admin, json: { status: "active" } });
    await renewsOn(addDays(today(), -200));
    expect((await whatTheRepresentativeGets()).download).toBe(404);
    const renewed = await call(t.app, "POST", `/api/dashboard/companies/${companyId}/renew`, { token: admin });
    expect((renewed.json as { company: { current: boolean } }).company.current).toBe(true);
    expect(await whatTheRepresentativeGets()).toEqual(MEMBERS_VIEW);
  });
});

describe("pages as a lapsed member sees them", () => {
  it("members' pages: a members-only meeting is not found, a public link to it is not found either", async () => {
    await restore();
    expect((await get(`/dashboard/events/${meetingSlug}`, rep)).status).toBe(200);
    const redirect = await get(`/events/${meetingSlug}`, rep);
    expect([redirect.status, redirect.headers.get("location")]).toEqual([302, `/dashboard/events/${meetingSlug}`]);
    await lapse();
    expect((await get(`/dashboard/events/${meetingSlug}`, rep)).status).toBe(404);
    expect((await get(`/events/${meetingSlug}`, rep)).status).toBe(404);
    await restore();
  });

  it("the shared renders are keyed by access: the lapsed render has the notice and a visitor's library; a renewal gets the members' entry at once", async () => {
    await restore();
    await t.runtime.services.contentVersion.changed();
    const first = await get("/dashboard", rep);
    expect(first.status).toBe(200);
    expect(first.headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    expect(textOf(first.text)).toContain(CATEGORY);
    expect(first.text).not.toContain(LAPSED_NOTICE.replace("'", "&#x27;"));
    expect((await get("/dashboard", rep)).headers.get(PAGE_CACHE_HEADER)).toBe("hit");
    const search = await get("/search?q=albatross", rep);
    expect(textOf(search.text)).toContain(PAPER);

    await lapse();
    const lapsed = await get("/dashboard", rep);
    // Not the members' entry: rendered for the lapsed, with the notice and without the members' library.
    expect(lapsed.headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    expect(textOf(lapsed.text)).toContain("Your company&#x27;s membership has lapsed. Please contact the secretariat.");
    expect(textOf(lapsed.text)).not.toContain(CATEGORY);
    expect((await get("/dashboard", rep)).headers.get(PAGE_CACHE_HEADER)).toBe("hit");
    // The search page gives the lapsed member the visitor's results.
    const lapsedSearch = await get("/search?q=albatross", rep);
    const visitorSearch = await get("/search?q=albatross");
    expect(textOf(lapsedSearch.text)).not.toContain(PAPER);
    expect(textOf(visitorSearch.text)).not.toContain(PAPER);
    // The members-only category's page is not found for them, as for a visitor.
    const categoryPage = await get(`/dashboard/${CATEGORY.toLowerCase().replace(/ /g, "-")}`, rep);
    expect(categoryPage.status).toBe(404);

    // Renewed without a write the cache hears of: the next request is the members' stored render.
    await restore();
    const renewed = await get("/dashboard", rep);
    expect(renewed.headers.get(PAGE_CACHE_HEADER)).toBe("hit");
    expect(textOf(renewed.text)).toContain(CATEGORY);
    expect(textOf(renewed.text)).not.toContain("membership has lapsed");
    expect(textOf((await get("/search?q=albatross", rep)).text)).toContain(PAPER);
  });

  it("the API's answer cache keys by access too: the same request, lapsed, is not answered from the members' entry", async () => {
    await restore();
    await t.runtime.services.contentVersion.changed();
    const first = await call(t.app, "GET", "/api/meetings", { cookie: rep.cookie });
    expect(JSON.stringify(first.json)).toContain(MEETING);
    await lapse();
    const lapsed = await call(t.app, "GET", "/api/meetings", { cookie: rep.cookie });
    expect(JSON.stringify(lapsed.json)).not.toContain(MEETING);
    // Another member with access still gets the members' answer.
    expect(JSON.stringify((await call(t.app, "GET", "/api/meetings", { cookie: individual.cookie })).json)).toContain(
      MEETING,
    );
    await restore();
    expect(JSON.stringify((await call(t.app, "GET", "/api/meetings", { cookie: rep.cookie })).json)).toContain(MEETING);
  });
});
