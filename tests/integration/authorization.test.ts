import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { ServerBuild } from "react-router";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categoryCreateSchema, paperInputSchema } from "../../core/library/library.schema";
import { UNSUBSCRIBE_KEY, unsubscribeToken } from "../../core/notifications/unsubscribe";
import type { Services } from "../../core/services";
import type { Database } from "../../db/types";
import { createApp } from "../../server/app";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { declaredRoutes, pageRoutes, siteRoutes } from "../support/declared-routes";
import { signIn } from "../support/factories";
import { pagesBuild } from "../support/pages";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

describe("authorization of every API route", () => {
  it("every route declares its access (public, member, chair, editor or admin)", () => {
    const unclassified = declaredRoutes(t.runtime).filter((r) => !r.access);
    expect(unclassified, "routes without access.public/member/chair/editor/admin as their first handler").toEqual([]);
    // Issue 36: the content's routes are the editors' too, the membership's and the site's admins' alone.
    const byAccess = (access: string) => declaredRoutes(t.runtime).filter((r) => r.access === access);
    expect(byAccess("editor").map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(["POST /dashboard/news", "POST /dashboard/pages"]),
    );
    // A group's papers and meetings are its chairs' too (the service decides by the paper's
    // category, the meeting's groups).
    expect(byAccess("chair").map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        "POST /dashboard/papers",
        "PATCH /dashboard/papers/:id",
        "DELETE /dashboard/papers/:id",
        "POST /dashboard/meeting",
        "PATCH /dashboard/meeting/:id",
        "GET /dashboard/meeting/:id/registrations",
        "PATCH /dashboard/meeting/:id/registrations/:rid",
      ]),
    );
    expect(byAccess("admin").map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(["GET /dashboard/users", "GET /dashboard/companies", "GET /dashboard/settings"]),
    );
    expect(declaredRoutes(t.runtime).length).toBeGreaterThanOrEqual(3);
  });

  it("answers each route as its declaration says, for anonymous, member, editor and admin", async () => {
    // A fresh account and session per call: some routes end the session or change the account
    // they are called with. The rows copy one made by the service, password hash and all, to
    // spare an Argon2 hash per call.
    const template = async (role: "member" | "editor" | "admin") => {
      const { user } = await signIn(t.runtime.services, role);
      const { id: _id, ...row } = await t.database.db
        .selectFrom("users")
        .selectAll()
        .where("id", "=", user.id)
        .executeTakeFirstOrThrow();
      return row;
    };
    // Read before the calls: the admin routes called with id 1 change or delete the first account.
    const templates = {
      member: await template("member"),
      editor: await template("editor"),
      admin: await template("admin"),
    };
    let fresh = 0;
    const freshToken = async (role: "member" | "editor" | "admin") => {
      fresh += 1;
      const { id } = await t.database.db
        .insertInto("users")
        .values({ ...templates[role], email: `matrix-${role}-${fresh}@example.org` })
        .returning("id")
        .executeTakeFirstOrThrow();
      return (await t.runtime.services.auth.openSession(id, { ip: "203.0.113.9" })).token;
    };
    const failures: string[] = [];
    for (const route of declaredRoutes(t.runtime)) {
      const path = `/api${route.path.replace(/:[A-Za-z_]\w*(\{[^}]*\})?/g, "1")}`;
      for (const who of ["anonymous", "member", "editor", "admin"] as const) {
        const token = who === "anonymous" ? undefined : await freshToken(who);
        const res = await call(t.app, route.method, path, { token, json: route.method === "GET" ? undefined : {} });
        const expected =
          route.access === "public"
            ? "allowed"
            : who === "anonymous"
              ? 401
              : (route.access === "admin" && who !== "admin") ||
                  ((route.access === "editor" || route.access === "chair") && who === "member")
                ? 403
                : "allowed";
        const ok =
          expected === "allowed"
            ? res.status !== 401 && res.status !== 403 && res.status < 500
            : res.status === expected;
        if (!ok) failures.push(`${route.method} ${path} as ${who}: got ${res.status}, expected ${expected}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

/**
 * The second half (issue 30 point 7): every page of the route table (app/routes.ts, as built) and
 * every route of the site's own outside the API (files, feeds, health), each classified below, and
 * each answered for a visitor, a member and an admin as its class says. A route added without a
 * class, or with parameters and no address to try, fails the first test.
 */
/** A chair is a member who chairs a working group (the member's group), and no more (issue 36). */
type Role = "anonymous" | "member" | "chair" | "editor" | "admin";
const ROLES: readonly Role[] = ["anonymous", "member", "chair", "editor", "admin"];
/** An answer as the matrix compares it: the status, and where a redirect sends the browser. */
type Answer = string;
/**
 * What each role gets; an editor gets what an admin gets, and a chair what a member gets, unless
 * it says otherwise (issue 36).
 */
type Expected = Record<Exclude<Role, "editor" | "chair">, Answer> & { editor?: Answer; chair?: Answer };
const answerFor = (expected: Expected, role: Role): Answer =>
  role === "editor"
    ? (expected.editor ?? expected.admin)
    : role === "chair"
      ? (expected.chair ?? expected.member)
      : expected[role];

const OK = "200";
const NOT_FOUND = "404";
const everyone = (answer: Answer): Expected => ({ anonymous: answer, member: answer, admin: answer });
/** The guards' way to the login page, which brings the visitor back to `path` afterwards. */
const toLogin = (path: string): Answer => `302 /login?redirect=${encodeURIComponent(path)}`;

type Access =
  /** Everyone reads it. */
  | "public"
  /** Members and admins; a visitor is sent to sign in (guards("auth")). */
  | "member"
  /**
   * Admins and editors: the content's screens; a visitor is sent to sign in, a member to their
   * dashboard, a chair (in the admin area for their meetings) reads 403 (guards("auth", "editor"), issue 36).
   */
  | "content"
  /** A chair's too: the meetings' screens for their group's meeting (guards("auth", "chair"), issue 36). */
  | "meetings"
  /** Admins; a visitor is sent to sign in, a member to their dashboard (guards("auth", "admin"), SPEC §6), an editor reads 403. */
  | "admin"
  /** The sign-in page: someone signed in already is sent on. */
  | "signed-out"
  /** An old address: everyone is sent, permanently, to where it lives now. */
  | { movedTo: string }
  /** Who gets it depends on the row or the secret in the address: each address tried says. */
  | "per-address";

const expectedFor = (access: Exclude<Access, "per-address">, path: string): Expected => {
  if (access === "public") return everyone(OK);
  if (access === "member") return { anonymous: toLogin(path), member: OK, admin: OK };
  if (access === "content") return { anonymous: toLogin(path), member: "302 /dashboard", chair: "403", admin: OK };
  if (access === "meetings") return { anonymous: toLogin(path), member: "302 /dashboard", chair: OK, admin: OK };
  if (access === "admin")
    return { anonymous: toLogin(path), member: "302 /dashboard", chair: "403", editor: "403", admin: OK };
  // SPEC §9 'home /manager': a member is then sent on to the dashboard by the admin guard.
  if (access === "signed-out")
    return { anonymous: OK, member: "302 /manager", editor: "302 /manager", admin: "302 /manager" };
  return everyone(`301 ${access.movedTo}`);
};

/** Every page route by its path pattern as the build lists it (see pageRoutes). */
const PAGE_ACCESS: Record<string, Access> = {
  "/": "public",
  "/search": "public",
  "/news": "public",
  "/post/:slug": "public",
  "/events": "public",
  "/events/:slug": "public",
  "/conference": "public",
  "/workshop": "public",
  "/members-list": "public",
  "/members-list/:slug": "per-address",
  "/registrations/:token": "per-address",
  // A one-click unsubscribe address (issue 33): the signed address is the key, whoever holds it.
  "/unsubscribe/:token": "per-address",
  // A news post's preview (issue 34): the signed link is the key, whoever holds it, until it expires.
  "/news/preview/:token": "per-address",
  // A draft page's preview (decision 0072): the same, with a page's own signed purpose.
  "/pages/preview/:token": "per-address",
  "/members-join": "public",
  "/join": "public",
  "/join/thank-you": "public",
  // Where the contact form of /contact and /feedback-forum posts without JavaScript (decision 0039).
  "/message": "public",
  "/library": "public",
  "/library/:slug": "public",
  // The CMS's fixed pages (core/pages/fixed-pages.ts).
  "/purpose-objectives": "public",
  "/structure-people": "public",
  "/position-papers": "public",
  "/history": "public",
  "/contact": "public",
  "/honorary-membership": "public",
  "/collaboration": "public",
  "/feedback-forum": "public",
  "/service-code-of-practice": "public",
  "/manufacturer-ids": "public",
  "/publications": "public",
  "/rtz-xml-schemas": "public",
  "/s-421": "public",
  "/standards-guide": "public",
  "/secom": "public",
  "/traffic-accounting": "public",
  "/tributes": "public",
  "/privacy-policy": "public",
  // The association's own pages (decision 0072): a published one for everyone, a draft for nobody.
  "/:slug": "per-address",
  // The previous site's addresses (app/lib/site-map.ts).
  "/about": { movedTo: "/purpose-objectives" },
  "/admin": { movedTo: "/manager" },
  "/dashboard-events": { movedTo: "/dashboard/events" },
  "/dashboard-meeting": { movedTo: "/dashboard/events" },
  "/memberships": { movedTo: "/members-list" },
  "/post": { movedTo: "/news" },
  "/services": { movedTo: "/feedback-forum" },
  "/user-settings": { movedTo: "/dashboard/user-settings" },
  // Feeds.
  "/sitemap.xml": "public",
  "/news/rss.xml": "public",
  "/news/atom.xml": "public",
  "/library/:slug/feed.xml": "per-address",
  "/library-feed/:file": "per-address",
  "/robots.txt": "public",
  // The sign-in layout.
  "/login": "signed-out",
  "/forgot-password": "public",
  "/reset-password": "public",
  "/welcome": "public",
  "/logout": "per-address",
  // The members' layout.
  "/dashboard": "member",
  "/dashboard/user-settings": "member",
  "/dashboard/user-settings/data.zip": "member",
  "/dashboard/events": "member",
  "/dashboard/events/:slug": "member",
  "/dashboard/company": "member",
  "/dashboard/registrations": "member",
  "/dashboard/notifications": "member",
  "/dashboard/groups": "member",
  "/dashboard/groups/:slug": "per-address",
  "/dashboard/:slug": "member",
  // The admin layout: the content's screens (admins and editors), then the admins' own.
  "/manager": "content",
  "/manager/pages": "content",
  "/manager/pages/new": "content",
  "/manager/pages/*": "content",
  "/manager/settings": "admin",
  "/manager/audit": "admin",
  "/manager/audit/export.csv": "admin",
  "/manager/privacy": "admin",
  "/manager/privacy/export.zip": "admin",
  "/manager/requests": "admin",
  "/manager/users": "admin",
  "/manager/groups": "admin",
  "/manager/members": "admin",
  "/manager/members/new": "admin",
  "/manager/members/import": "admin",
  "/manager/members/:id": "admin",
  "/manage-news": "content",
  "/manage-news/new": "content",
  "/manage-news/:id/edit": "content",
  // A chair's list is their groups' meetings; a meeting's screens answer by the meeting (its addresses).
  "/manage-events": "meetings",
  "/manage-events/new": "meetings",
  "/manage-events/:id/edit": "content",
  "/manage-events/:id/registrations": "content",
  "/manage-events/:id/registrations/check-in": "content",
  "/manage-events/:id/registrations/export.csv": "content",
  "/manage-events/:id/registrations/attendees.pdf": "content",
  "/manage-events/:id/registrations/badges.pdf": "content",
  "/manager/library": "content",
  "/manager/library/:id": "content",
  // Any other address.
  "/*": "per-address",
};

/** Every GET route of the site's own outside the API and the pages (see siteRoutes), by its pattern. */
const SITE_ACCESS: Record<string, Access> = {
  "/healthz": "public",
  "/readyz": "public",
  "/uploads/*": "per-address",
  "/assets/*": "per-address",
  "/:file{[\\w.-]+\\.(?:ico|png|svg|txt|webmanifest|xml)}": "public",
  "/events.ics": "public",
  "/events/:file{[^/]+\\.ics}": "public",
  "/calendar/:file{[^/]+\\.ics}": "per-address",
  "/papers/:id/download": "per-address",
  "/papers/:id/view": "per-address",
  "/papers/:id/revisions/:revisionId/download": "per-address",
};

type Fixtures = {
  /** A published page of the association's own, and a draft one (their slugs). */
  ownPage: string;
  draftPage: string;
  newsId: number;
  newsSlug: string;
  /** A current member company's slug, and one whose company has left. */
  companySlug: string;
  leftCompanySlug: string;
  image: string;
  publicMeeting: { id: number; slug: string };
  membersMeeting: { id: number; slug: string };
  /** A meeting for the working group the chair chairs and the member is in. */
  groupMeeting: { id: number; slug: string };
  publicCategory: { id: number; slug: string };
  membersCategory: { id: number; slug: string };
  hiddenCategory: { id: number; slug: string };
  publicPaper: { id: number; revisionId: number };
  membersPaper: { id: number; revisionId: number };
  hiddenPaper: { id: number; revisionId: number };
  /** Where the members-only paper's file is kept in the private root. */
  membersPaperKey: string;
  calendarToken: string;
  companyId: number;
  /** A registrant's link to their registration of the public meeting. */
  registrationToken: string;
  /** A member's one-click unsubscribe token (their digest), and their private feed's. */
  unsubscribeToken: string;
  libraryFeedToken: string;
  /** A preview link's path for the news post. */
  previewPath: string;
  /** A preview link's path for a draft page. */
  pagePreviewPath: string;
  /** Slugs of a working group the member is in (and the chair chairs), and of one they are not. */
  ownGroup: string;
  otherGroup: string;
};

/** An address tried, and what each role must get when its route's class does not say it. */
type Try = string | { path: string; expected: Expected };

/**
 * The addresses tried for each route whose pattern has parameters, or whose answer depends on
 * the row or the secret it names, made from the rows the test created.
 */
function addressesFor(f: Fixtures): Record<string, Try[]> {
  /** A paper's file for everyone when its category is public, members when not, admins alone when hidden. */
  const paperFiles = (address: (paper: Fixtures["publicPaper"]) => string): Try[] => [
    { path: address(f.publicPaper), expected: everyone(OK) },
    { path: address(f.membersPaper), expected: { anonymous: NOT_FOUND, member: OK, admin: OK } },
    { path: address(f.hiddenPaper), expected: { anonymous: NOT_FOUND, member: NOT_FOUND, admin: OK } },
    { path: address({ id: 999_999, revisionId: 999_999 }), expected: everyone(NOT_FOUND) },
  ];
  return {
    "/post/:slug": [`/post/${f.newsSlug}`],
    // The link is the registrant's key, whoever holds it; a made-up one opens nothing.
    "/registrations/:token": [
      { path: `/registrations/${f.registrationToken}`, expected: everyone(OK) },
      { path: `/registrations/${"x".repeat(43)}`, expected: everyone(NOT_FOUND) },
      { path: "/registrations/not-a-token", expected: everyone(NOT_FOUND) },
    ],
    "/news/preview/:token": [
      { path: f.previewPath, expected: everyone(OK) },
      // Signed for another post id: the signature no longer checks.
      { path: f.previewPath.replace(/\/(\d+)\./, (_m, id) => `/${Number(id) + 1}.`), expected: everyone(NOT_FOUND) },
      { path: "/news/preview/not-a-token", expected: everyone(NOT_FOUND) },
    ],
    "/pages/preview/:token": [
      { path: f.pagePreviewPath, expected: everyone(OK) },
      // A post's link, of the same form, opens no page.
      { path: f.previewPath.replace("/news/", "/pages/"), expected: everyone(NOT_FOUND) },
      { path: "/pages/preview/not-a-token", expected: everyone(NOT_FOUND) },
    ],
    "/unsubscribe/:token": [
      { path: `/unsubscribe/${f.unsubscribeToken}`, expected: everyone(OK) },
      { path: `/unsubscribe/${f.unsubscribeToken.replace(/\.digest\./, ".notices.")}`, expected: everyone(NOT_FOUND) },
      { path: "/unsubscribe/not-a-token", expected: everyone(NOT_FOUND) },
    ],
    // A member's private feed: its address is the key; a made-up one is nobody's.
    "/library-feed/:file": [
      { path: `/library-feed/${f.libraryFeedToken}.xml`, expected: everyone(OK) },
      { path: `/library-feed/${"x".repeat(43)}.xml`, expected: everyone(NOT_FOUND) },
      { path: "/library-feed/not-a-token", expected: everyone(NOT_FOUND) },
    ],
    // A company's page is everyone's while it is current; a left (or lapsed, suspended) one is no one's.
    "/members-list/:slug": [
      { path: `/members-list/${f.companySlug}`, expected: everyone(OK) },
      { path: `/members-list/${f.leftCompanySlug}`, expected: everyone(NOT_FOUND) },
    ],
    "/events/:slug": [
      `/events/${f.publicMeeting.slug}`,
      // Visitors never learn a members-only meeting exists; members are sent to its members' page.
      {
        path: `/events/${f.membersMeeting.slug}`,
        expected: {
          anonymous: NOT_FOUND,
          member: `302 /dashboard/events/${f.membersMeeting.slug}`,
          admin: `302 /dashboard/events/${f.membersMeeting.slug}`,
        },
      },
    ],
    "/library/:slug": [
      `/library/${f.publicCategory.slug}`,
      {
        path: `/library/${f.membersCategory.slug}`,
        expected: {
          anonymous: NOT_FOUND,
          member: `302 /dashboard/${f.membersCategory.slug}`,
          admin: `302 /dashboard/${f.membersCategory.slug}`,
        },
      },
      { path: `/library/${f.hiddenCategory.slug}`, expected: everyone(NOT_FOUND) },
    ],
    // A category's feed reads as a visitor reads the library, whoever asks: only a public one has one.
    "/library/:slug/feed.xml": [
      { path: `/library/${f.publicCategory.slug}/feed.xml`, expected: everyone(OK) },
      { path: `/library/${f.membersCategory.slug}/feed.xml`, expected: everyone(NOT_FOUND) },
      { path: `/library/${f.hiddenCategory.slug}/feed.xml`, expected: everyone(NOT_FOUND) },
    ],
    "/dashboard/events/:slug": [
      `/dashboard/events/${f.publicMeeting.slug}`,
      `/dashboard/events/${f.membersMeeting.slug}`,
    ],
    // A group's page: its members (and admins, editors); anyone else 404, as if there were none.
    "/dashboard/groups/:slug": [
      {
        path: `/dashboard/groups/${f.ownGroup}`,
        expected: { anonymous: toLogin(`/dashboard/groups/${f.ownGroup}`), member: OK, admin: OK },
      },
      {
        path: `/dashboard/groups/${f.otherGroup}`,
        expected: { anonymous: toLogin(`/dashboard/groups/${f.otherGroup}`), member: NOT_FOUND, admin: OK },
      },
      {
        path: "/dashboard/groups/no-such-group",
        expected: { anonymous: toLogin("/dashboard/groups/no-such-group"), member: NOT_FOUND, admin: NOT_FOUND },
      },
    ],
    "/dashboard/:slug": [
      `/dashboard/${f.publicCategory.slug}`,
      `/dashboard/${f.membersCategory.slug}`,
      {
        path: `/dashboard/${f.hiddenCategory.slug}`,
        expected: { anonymous: toLogin(`/dashboard/${f.hiddenCategory.slug}`), member: NOT_FOUND, admin: NOT_FOUND },
      },
    ],
    "/manager/pages/*": ["/manager/pages/contact", `/manager/pages/${f.draftPage}`],
    "/:slug": [
      { path: `/${f.ownPage}`, expected: everyone(OK) },
      { path: `/${f.draftPage}`, expected: everyone(NOT_FOUND) },
      { path: "/no-such-page", expected: everyone(NOT_FOUND) },
    ],
    "/manage-news/:id/edit": [`/manage-news/${f.newsId}/edit`],
    // The admin home, where the login sends everyone: a chair goes on to their dashboard (SPEC §9).
    "/manager": [{ path: "/manager", expected: { ...expectedFor("content", "/manager"), chair: "302 /dashboard" } }],
    // Every member's meeting: the secretariat's (a chair reads 403); the chair's group's meeting: theirs too.
    ...Object.fromEntries(
      [
        "edit",
        "registrations",
        "registrations/check-in",
        "registrations/export.csv",
        "registrations/attendees.pdf",
        "registrations/badges.pdf",
      ].map((screen): [string, Try[]] => [
        `/manage-events/:id/${screen}`,
        [
          `/manage-events/${f.membersMeeting.id}/${screen}`,
          {
            path: `/manage-events/${f.groupMeeting.id}/${screen}`,
            expected: expectedFor("meetings", `/manage-events/${f.groupMeeting.id}/${screen}`),
          },
        ],
      ]),
    ),
    "/manager/library/:id": [`/manager/library/${f.hiddenCategory.id}`],
    "/manager/members/:id": [`/manager/members/${f.companyId}`],
    "/manager/privacy/export.zip": ["/manager/privacy/export.zip?email=someone%40example.org"],
    "/logout": [{ path: "/logout", expected: everyone("302 /login") }],
    "/*": [{ path: "/no-such/page", expected: everyone(NOT_FOUND) }],
    "/uploads/*": [
      { path: f.image, expected: everyone(OK) },
      { path: "/uploads/news/no-such-file.webp", expected: everyone(NOT_FOUND) },
      // The private root is the uploads' neighbour: an encoded way out of one is no way into the other.
      { path: `/uploads/..%2Fprivate%2F${encodeURIComponent(f.membersPaperKey)}`, expected: everyone(NOT_FOUND) },
      { path: `/uploads/%2e%2e/private/${f.membersPaperKey}`, expected: everyone(NOT_FOUND) },
    ],
    "/assets/*": [
      { path: "/assets/entry-abc123.js", expected: everyone(OK) },
      { path: "/assets/no-such-file.js", expected: everyone(NOT_FOUND) },
    ],
    "/:file{[\\w.-]+\\.(?:ico|png|svg|txt|webmanifest|xml)}": ["/favicon.svg"],
    "/events/:file{[^/]+\\.ics}": [
      `/events/${f.publicMeeting.slug}.ics`,
      {
        path: `/events/${f.membersMeeting.slug}.ics`,
        expected: { anonymous: NOT_FOUND, member: OK, admin: OK },
      },
    ],
    // The secret in the address is the key, whoever asks: a wrong one is 404 for everyone.
    "/calendar/:file{[^/]+\\.ics}": [
      { path: `/calendar/${f.calendarToken}.ics`, expected: everyone(OK) },
      { path: `/calendar/${f.calendarToken.slice(0, -2)}xx.ics`, expected: everyone(NOT_FOUND) },
    ],
    "/papers/:id/download": paperFiles((paper) => `/papers/${paper.id}/download`),
    "/papers/:id/view": paperFiles((paper) => `/papers/${paper.id}/view`),
    "/papers/:id/revisions/:revisionId/download": paperFiles(
      (paper) => `/papers/${paper.id}/revisions/${paper.revisionId}/download`,
    ),
  };
}

/** A PDF of one page (the library keeps PDFs and reads their text). */
async function pdf(text: string): Promise<File> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText(text, { x: 50, y: 700, font });
  return new File([Buffer.from(await doc.save())], "paper.pdf", { type: "application/pdf" });
}

/** One row of each kind a parametrised route reads, public and members-only where that differs. */
async function createFixtures(
  services: Services,
  db: Kysely<Database>,
  member: { id: number; password: string },
  chairId: number,
): Promise<Fixtures> {
  await services.pages.ensureFixedPages();
  const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#0a6" } })
    .png()
    .toBuffer();
  const post = await services.news.create(
    {
      title: "Matrix news",
      content: "<p>Everyone may read this.</p>",
      author_name: null,
      image_alt: "A green test card",
      image_decorative: false,
    },
    new Uint8Array(picture),
  );
  if (!post.image) throw new Error("the news post kept no image");

  const stamp = new Date().toISOString();
  const meeting = async (slug: string, visibility: "public" | "members") =>
    db
      .insertInto("meetings")
      .values({
        slug,
        title: `Meeting ${slug}`,
        type: "meeting",
        meeting_type: "In person",
        organization: "Masthead",
        start_date: "2030-05-04",
        end_date: null,
        location: "Rotterdam",
        information: null,
        health: null,
        registration: null,
        content_title: null,
        content: "<p>About the meeting.</p>",
        timezone: "Europe/Amsterdam",
        visibility,
        registration_open: 1,
        registration_closes_on: null,
        capacity: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning(["id", "slug"])
      .executeTakeFirstOrThrow();

  const category = async (name: string, fields: { is_public: string; is_active?: string }) => {
    const created = await services.libraryAdmin.createCategory(
      categoryCreateSchema.parse({ name, content: "", view_type: "", parent_id: "", ...fields }),
      null,
    );
    return { id: created.id, slug: created.slug };
  };
  /** A paper with a file, then a second file: the first becomes its revision. */
  const paper = async (categoryId: number) => {
    const fields = paperInputSchema.parse({ papers_category_id: String(categoryId), name: `Paper in ${categoryId}` });
    const created = await services.libraryAdmin.createPaper(fields, await pdf("first"));
    await services.libraryAdmin.updatePaper(created.id, fields, await pdf("second"));
    const revision = await db
      .selectFrom("paper_revisions")
      .select("id")
      .where("paper_id", "=", created.id)
      .executeTakeFirstOrThrow();
    return { id: created.id, revisionId: revision.id };
  };
  /** A registration of the meeting, as the join form stores it, and a link to it as its mails carry. */
  /** The token a notice to this member carries, signed with the site's key (made on first use). */
  const unsubscribeTokenOf = async (userId: number) => {
    await services.notifications.unsubscribeTarget("0.digest.x");
    const key = await db
      .selectFrom("app_secrets")
      .select("value")
      .where("name", "=", UNSUBSCRIBE_KEY)
      .executeTakeFirstOrThrow();
    return unsubscribeToken(Buffer.from(key.value, "base64url"), userId, "digest");
  };
  const registrationToken = async (meetingId: number) => {
    const row = await db
      .insertInto("join_requests")
      .values({
        kind: "registration",
        meeting_id: meetingId,
        company_name: "Routes Marine AS",
        representative_name: "Rita Route",
        email: "rita@routes.example",
        phone_number: "+47 22 00 00 00",
        page_path: "/events/open-day",
        ip: null,
        created_at: new Date().toISOString(),
        subject: null,
        message: null,
        spam_reason: null,
        status: null,
        registration_status: "pending",
        registration_email: "rita@routes.example",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const url = await services.registrationLinks.issue(db, row.id);
    return String(url?.split("/registrations/")[1]);
  };
  const publicMeeting = await meeting("open-day", "public");
  const publicCategory = await category("Open shelf", { is_public: "public" });
  const membersCategory = await category("Members shelf", { is_public: "members" });
  const hiddenCategory = await category("Hidden shelf", { is_public: "public", is_active: "0" });
  const membersPaper = await paper(membersCategory.id);
  const { uploaded_file: membersPaperKey } = await db
    .selectFrom("papers")
    .select("uploaded_file")
    .where("id", "=", membersPaper.id)
    .executeTakeFirstOrThrow();
  if (!membersPaperKey) throw new Error("the members' paper kept no file");

  await services.pages.createPage({ slug: "annual-report", title: "Annual report", content: "<p>Ours.</p>" });
  await services.pages.createPage({
    slug: "draft-notes",
    title: "Draft notes",
    content: "<p>Not yet.</p>",
    status: "draft",
  });
  const ownGroup = await services.groups.create({ name: "Matrix group", description: "", chair_ids: [chairId] });
  await services.groups.addMember(ownGroup.id, { user_id: member.id }, { id: chairId, role: "admin" });
  const groupMeeting = await meeting("matrix-group-session", "members");
  await db.insertInto("meeting_groups").values({ meeting_id: groupMeeting.id, group_id: ownGroup.id }).execute();
  return {
    ownPage: "annual-report",
    draftPage: "draft-notes",
    newsId: post.id,
    newsSlug: post.slug,
    companySlug: (await services.members.create({ name: "Matrix Marine AS", country: "NO" })).slug,
    leftCompanySlug: (await services.members.create({ name: "Gone Marine AS", country: "NO", status: "left" })).slug,
    image: post.image,
    publicMeeting,
    membersMeeting: await meeting("board-retreat", "members"),
    publicCategory,
    membersCategory,
    hiddenCategory,
    publicPaper: await paper(publicCategory.id),
    membersPaper,
    hiddenPaper: await paper(hiddenCategory.id),
    membersPaperKey,
    calendarToken: await services.profile.renewCalendarToken(member.id, member.password),
    companyId: (await services.members.create({ name: "Routes Marine AS", country: "NO" })).id,
    registrationToken: await registrationToken(publicMeeting.id),
    unsubscribeToken: await unsubscribeTokenOf(member.id),
    libraryFeedToken: await services.profile.renewLibraryFeedToken(member.id, member.password),
    previewPath: (await services.news.previewLink(post.id)).path,
    pagePreviewPath: (await services.pages.previewLink("/privacy-policy")).path,
    // A working group the member is in (the chair chairs it), with a meeting, and one they are not (issue 36).
    ownGroup: ownGroup.slug,
    groupMeeting,
    otherGroup: (await services.groups.create({ name: "Matrix board", description: "", chair_ids: [] })).slug,
  };
}

/** React Router's answer to a form whose Origin is not the address it was sent to (its CSRF check). */
const ORIGIN_REFUSED = "400 Bad Request (origin)";
/** A form's answer when whoever sent it may use it: anything but a refusal or a failure (see answeredNotRefused). */
const ANSWERED = "answered, not refused";
/** Not sent to sign in or away to the dashboard, not 401/403, not refused by the origin check, not a server error. */
const answeredNotRefused = (answer: Answer) =>
  !/^30[12] \/(login|dashboard)\b/.test(answer) && !/^(401|403|5\d\d)$/.test(answer) && answer !== ORIGIN_REFUSED;

/** A data request's redirect travels in its body (React Router's single fetch, status 202): read back as a redirect. */
function answerOf(res: { status: number; headers: Headers; text: string }): Answer {
  const location = res.headers.get("location");
  if (location) return `${res.status} ${location}`;
  if (res.status === 400 && res.text === "Bad Request") return ORIGIN_REFUSED;
  if (res.status === 202 && res.text.startsWith('[["SingleFetchRedirect"')) {
    // turbo-stream's flat form: [marker, {"_<key index>": <value index>}, ...values]
    const flat = JSON.parse(res.text) as unknown[];
    const fields = Object.fromEntries(
      Object.entries(flat[1] as Record<string, number>).map(([key, value]) => [
        flat[Number(key.slice(1))],
        flat[value],
      ]),
    );
    return `${fields.status} ${fields.redirect}`;
  }
  return String(res.status);
}

/** The address a client navigation fetches a page's data from, asking for the page's own loader alone. */
function dataAddress(path: string, routeId: string): string {
  const url = new URL(path, ORIGIN);
  url.pathname = url.pathname.endsWith("/") ? `${url.pathname}_.data` : `${url.pathname}.data`;
  url.searchParams.set("_routes", routeId);
  return `${url.pathname}${url.search}`;
}

/** Also tried: the API's reference, which the API half only checks is not refused. */
const API_REFERENCE: { path: string; expected: Expected }[] = [
  { path: "/api/openapi.json", expected: everyone(OK) },
  { path: "/api/docs", expected: everyone(OK) },
];

// Hundreds of requests, each page compiled by Vite on its first one: minutes on a busy 2-core machine.
describe("authorization of every page, file and feed", { timeout: 300_000 }, () => {
  let build: ServerBuild;
  /** The whole site: the API, the site's own routes, and the pages rendered by Vite's SSR loader. */
  let site: TestContext["app"];
  let fixtures: Fixtures;
  const cookies: Record<Role, string | undefined> = {
    anonymous: undefined,
    member: undefined,
    chair: undefined,
    editor: undefined,
    admin: undefined,
  };

  beforeAll(async () => {
    build = await (await pagesBuild())();
    // A client build's place, for the static routes (the app serves them only when given one).
    const clientDir = fs.mkdtempSync(path.join(t.dataDir, "client-"));
    fs.mkdirSync(path.join(clientDir, "assets"));
    fs.writeFileSync(path.join(clientDir, "assets", "entry-abc123.js"), "console.log(1);\n");
    fs.writeFileSync(path.join(clientDir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    site = createApp(t.runtime, { build: async () => build, clientDir });
    const member = await signIn(t.runtime.services, "member");
    cookies.member = member.cookie;
    const chair = await signIn(t.runtime.services, "member");
    cookies.chair = chair.cookie;
    cookies.editor = (await signIn(t.runtime.services, "editor")).cookie;
    cookies.admin = (await signIn(t.runtime.services, "admin")).cookie;
    fixtures = await createFixtures(
      t.runtime.services,
      t.database.db,
      { id: member.user.id, password: member.password },
      chair.user.id,
    );
  });

  type Row = { route: string; path: string; expected: Expected; pageId?: string };

  /** Each route with the addresses tried there and what each role must get (pages carry their route id). */
  function matrix(): Row[] {
    const addresses = addressesFor(fixtures);
    const routes = [
      ...pageRoutes(build).map((route) => ({ route: route.path, access: PAGE_ACCESS[route.path], pageId: route.id })),
      ...siteRoutes(site).map((route) => ({ route, access: SITE_ACCESS[route], pageId: undefined })),
    ];
    // A route without a class fails the test above; the others are still tried.
    const rows = routes.flatMap(({ route, access, pageId }) =>
      (addresses[route] ?? [route]).flatMap((tried): Row[] => {
        if (typeof tried !== "string") return [{ route, path: tried.path, expected: tried.expected, pageId }];
        if (access === undefined) return [];
        if (access === "per-address") throw new Error(`${route}: each address tried must say what to expect`);
        return [{ route, path: tried, expected: expectedFor(access, tried), pageId }];
      }),
    );
    return [...rows, ...API_REFERENCE.map((tried) => ({ route: "/api", ...tried }))];
  }

  /**
   * Sends every address for every role (a few at a time) and returns what each got beside what it
   * must get. A POST is a form sent to the page (its action), empty, from the site's own origin.
   */
  async function run(rows: { path: string; expected: Expected }[], method: "GET" | "POST" = "GET") {
    const actual: Record<string, Answer> = {};
    const expected: Record<string, Answer> = {};
    const queue = rows.flatMap((row) => ROLES.map((role) => ({ ...row, role })));
    const worker = async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        const key = `${method} ${job.path} as ${job.role}`;
        const wanted = answerFor(job.expected, job.role);
        expected[key] = wanted;
        // At the site's own address, as a browser sends it (React Router checks a form's Origin against it).
        const res = await call(site, method, `${ORIGIN}${job.path}`, {
          cookie: cookies[job.role],
          ...(method === "POST" ? { form: {}, headers: { origin: ORIGIN } } : {}),
        });
        const answer = answerOf(res);
        actual[key] = wanted === ANSWERED && answeredNotRefused(answer) ? ANSWERED : answer;
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    return { actual, expected };
  }

  it("classifies every page route and every site route, with an address to try for each parametrised one", () => {
    const pages = pageRoutes(build);
    const siteOwn = siteRoutes(site);
    const unclassified = [
      ...pages.filter((route) => !(route.path in PAGE_ACCESS)).map((route) => `page ${route.path} (${route.id})`),
      ...siteOwn.filter((route) => !(route in SITE_ACCESS)).map((route) => `site ${route}`),
    ];
    expect(unclassified, "routes without a class in PAGE_ACCESS or SITE_ACCESS").toEqual([]);
    // A class left for a route that is gone is a mistake too (a renamed route would go untested).
    const known = new Set([...pages.map((route) => route.path), ...siteOwn]);
    const stale = [...Object.keys(PAGE_ACCESS), ...Object.keys(SITE_ACCESS)].filter((route) => !known.has(route));
    expect(stale, "classes for routes the site does not have").toEqual([]);
    const addresses = addressesFor(fixtures);
    const untried = [...known].filter(
      (route) =>
        (/[:*{]/.test(route) || (PAGE_ACCESS[route] ?? SITE_ACCESS[route]) === "per-address") && !addresses[route],
    );
    expect(untried, "routes with parameters, or answers per address, and no address to try").toEqual([]);
    expect(pages.length).toBeGreaterThan(60);
    expect(siteOwn.length).toBeGreaterThan(8);
  });

  it("answers every route for a visitor, a member, an editor and an admin as its class says", async () => {
    const { actual, expected } = await run(matrix());
    expect(actual).toEqual(expected);
  });

  it("refuses a guarded page's form (its action) to whom it refuses the page", async () => {
    const withAction = matrix().filter((row) => {
      const access = PAGE_ACCESS[row.route];
      return (
        (access === "member" || access === "content" || access === "meetings" || access === "admin") &&
        row.pageId &&
        build.routes[row.pageId]?.module.action
      );
    });
    expect(withAction.length).toBeGreaterThan(8);
    const rows = withAction.map((row) => ({
      path: row.path,
      // Refused as the page is; whom the page lets in gets the action's own answer (an empty form is invalid).
      expected: Object.fromEntries(
        ROLES.map((role) => [role, answerFor(row.expected, role) === OK ? ANSWERED : answerFor(row.expected, role)]),
      ) as Expected,
    }));
    const { actual, expected } = await run(rows, "POST");
    expect(actual).toEqual(expected);
  });

  it("names no members-only or hidden row in the public feeds and the sitemap, whoever asks; the private feed does", async () => {
    const secret = [fixtures.membersMeeting.slug, fixtures.membersCategory.slug, fixtures.hiddenCategory.slug];
    const named: string[] = [];
    const feeds = ["/sitemap.xml", "/events.ics", "/news/rss.xml", "/news/atom.xml", "/robots.txt", "/library"];
    for (const feed of [...feeds, `/library/${fixtures.publicCategory.slug}/feed.xml`]) {
      for (const role of ROLES) {
        const res = await call(site, "GET", `${ORIGIN}${feed}`, { cookie: cookies[role] });
        expect(res.status, `${feed} as ${role}`).toBe(200);
        named.push(...secret.filter((slug) => res.text.includes(slug)).map((slug) => `${feed} as ${role}: ${slug}`));
      }
    }
    expect(named).toEqual([]);
    // The rows are there to be named: the sitemap lists the public ones, the private feed the members' meeting.
    const sitemap = await call(site, "GET", `${ORIGIN}/sitemap.xml`);
    expect(sitemap.text).toContain(`/events/${fixtures.publicMeeting.slug}`);
    expect(sitemap.text).toContain(fixtures.publicCategory.slug);
    const privateFeed = await call(site, "GET", `${ORIGIN}/calendar/${fixtures.calendarToken}.ics`);
    expect(privateFeed.text).toContain(`Meeting ${fixtures.membersMeeting.slug}`);
  });

  it("answers every page's data request (a client navigation) as it answers the page", async () => {
    const pages = matrix().flatMap((row) => (row.pageId ? [{ ...row, path: dataAddress(row.path, row.pageId) }] : []));
    const { actual, expected } = await run(pages);
    expect(actual).toEqual(expected);
  });
});
