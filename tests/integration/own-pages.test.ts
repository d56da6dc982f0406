import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXED_PAGE_URLS, RESERVED_SLUGS } from "../../core/pages/fixed-pages";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { pageRoutes, siteRoutes } from "../support/declared-routes";
import { signIn } from "../support/factories";
import { pagesApp } from "../support/pages";

/**
 * Pages of the association's own and the pages' states (issue 34, decision 0072): an admin adds a
 * page at /{slug}, under About, Services or standing alone, places it in its section's submenu and
 * the footer in the order chosen; a draft or a page scheduled for later is the admins' alone on
 * every surface (its address, the API, the menus, the sitemap, search, the page cache) until its
 * time; SPEC's fixed pages stay published and in their place.
 */
let t: TestContext;
let pages: TestContext["app"];
let build: Awaited<ReturnType<typeof pagesApp>>["build"];
let closePages: () => Promise<void>;
let token: string;
let clock = new Date("2026-11-20T10:00:00Z");
const WORD = "bladderwrack";

beforeAll(async () => {
  t = await createTestContext({}, { clock: () => clock });
  ({ pages, build, close: closePages } = await pagesApp(t));
  token = (await signIn(t.runtime.services, "admin")).token;
  await t.runtime.services.pages.ensureFixedPages();
}, 120_000);
afterAll(async () => {
  await closePages?.();
  await t?.close();
});

type AdminPage = { url: string; status: string; publish_at: string | null; in_menu: boolean; section: string | null };
const create = (json: Record<string, unknown>) => call(pages, "POST", "/api/dashboard/pages", { token, json });

/** Where a visitor could come across a page: its address, the API, the menu, the footer, the sitemap, search. */
async function seenBy(slug: string, title: string) {
  const home = (await call(pages, "GET", `${ORIGIN}/`)).text;
  const header = home.slice(0, home.indexOf('id="main"'));
  const footer = home.slice(home.lastIndexOf("<footer"));
  const search = (await call(pages, "GET", `/api/search?search_query=${WORD}`)).json as { results: { url: string }[] };
  return {
    page: (await call(pages, "GET", `${ORIGIN}/${slug}`)).status,
    api: (await call(pages, "GET", `/api/page/${slug}`)).status,
    menu: header.includes(`href="/${slug}"`) && header.includes(title),
    footer: footer.includes(`href="/${slug}"`),
    sitemap: (await call(pages, "GET", `${ORIGIN}/sitemap.xml`)).text.includes(`${ORIGIN}/${slug}<`),
    search: search.results.some((r) => r.url === `/${slug}`),
  };
}
const EVERYWHERE = { page: 200, api: 200, menu: true, footer: true, sitemap: true, search: true };
const NOWHERE = { page: 404, api: 404, menu: false, footer: false, sitemap: false, search: false };

describe("pages of the association's own", () => {
  it("are added under a section, listed in its submenu and the footer in the chosen order, and found", async () => {
    const second = await create({
      slug: "annual-report",
      title: "Annual report",
      content: `<p>Our ${WORD} year.</p>`,
      section: "about",
      in_menu: true,
      in_footer: true,
      position: 2,
    });
    expect(second.status).toBe(201);
    expect((second.json as { page: AdminPage }).page).toMatchObject({
      url: "/annual-report",
      status: "published",
      fixed: false,
      section: "about",
      in_menu: true,
      in_footer: true,
      position: 2,
    });
    await create({
      slug: "board-minutes",
      title: "Board minutes",
      content: "<p>Minutes.</p>",
      section: "about",
      in_menu: true,
      position: 1,
    });
    expect(await seenBy("annual-report", "Annual report")).toEqual(EVERYWHERE);
    // After SPEC's items, in the chosen order; the page's own screen lists its section's pages.
    const home = (await call(pages, "GET", `${ORIGIN}/`)).text;
    const menu = home.slice(0, home.indexOf('id="main"'));
    expect(menu.indexOf('href="/contact"')).toBeLessThan(menu.indexOf('href="/board-minutes"'));
    expect(menu.indexOf('href="/board-minutes"')).toBeLessThan(menu.indexOf('href="/annual-report"'));
    const page = (await call(pages, "GET", `${ORIGIN}/annual-report`)).text;
    expect(page).toContain("About the association");
    expect(page).toContain(`Our ${WORD} year.`);
    expect(page).toMatch(
      /aria-current="page"[^>]*href="\/annual-report"|href="\/annual-report"[^>]*aria-current="page"/,
    );

    // A page standing alone is in the footer beside the privacy policy, never in the main menu.
    const alone = await create({ slug: "imprint", title: "Imprint", content: "<p>Who we are.</p>", in_footer: true });
    expect(alone.status).toBe(201);
    const refused = await create({ slug: "lonely", title: "Lonely", content: "<p>x</p>", in_menu: true });
    expect(refused.status).toBe(422);
    expect(refused.json?.errors).toEqual({
      in_menu: ["A page standing alone has no submenu: choose About or Services to list it in the menu."],
    });
    const after = (await call(pages, "GET", `${ORIGIN}/`)).text;
    expect(after.slice(after.lastIndexOf("<footer"))).toContain('href="/imprint"');
    expect(after.slice(0, after.indexOf('id="main"'))).not.toContain('href="/imprint"');
  });

  it("refuse an address the site answers itself, one taken, or one that is not a plain word", async () => {
    const errorOf = async (slug: string) => (await create({ slug, title: "T", content: "<p>x</p>" })).json?.errors;
    expect(await errorOf("news")).toEqual({ slug: ["This address is the site's own: choose another."] });
    expect(await errorOf("api")).toEqual({ slug: ["This address is the site's own: choose another."] });
    expect(await errorOf("contact")).toEqual({ slug: ["Another page has this address: choose another."] });
    expect(await errorOf("annual-report")).toEqual({ slug: ["Another page has this address: choose another."] });
    expect(await errorOf("a/b")).toEqual({
      slug: ["The address may hold lowercase letters, digits and single hyphens only, such as annual-report."],
    });
    expect(
      (await call(pages, "POST", "/api/dashboard/pages", { json: { slug: "x", title: "x", content: "x" } })).status,
    ).toBe(401);
  });

  it("never shadow the site's own routes: every first segment the site answers is reserved or a fixed page", async () => {
    const segments = new Set<string>();
    for (const route of [...pageRoutes(await build()).map((r) => r.path), ...siteRoutes(pages)]) {
      const first = route.split("/")[1] ?? "";
      // A page's address has no dot (pageSlugSchema): sitemap.xml, robots.txt and events.ics are never shadowed.
      if (first && !first.startsWith(":") && first !== "*" && !first.includes(".")) segments.add(first);
    }
    const unreserved = [...segments].filter((s) => !RESERVED_SLUGS.has(s) && !FIXED_PAGE_URLS.has(`/${s}`));
    expect(unreserved).toEqual([]);
  });

  it("are deleted with their search entry; SPEC's fixed pages cannot be", async () => {
    await create({
      slug: "old-notes",
      title: "Old notes",
      content: `<p>${WORD} notes.</p>`,
      section: "services",
      in_menu: true,
    });
    expect((await call(pages, "DELETE", "/api/dashboard/pages/contact", { token })).status).toBe(409);
    expect((await call(pages, "DELETE", "/api/dashboard/pages/members-join", { token })).status).toBe(409);
    expect((await call(pages, "DELETE", "/api/dashboard/pages/old-notes", { token })).status).toBe(200);
    expect(await seenBy("old-notes", "Old notes")).toEqual({ ...NOWHERE });
    expect((await call(pages, "DELETE", "/api/dashboard/pages/old-notes", { token })).status).toBe(404);
  });
});

describe("the pages' states", () => {
  it("keep a fixed page published and in its place", async () => {
    const draft = await call(pages, "PATCH", "/api/dashboard/pages/history", {
      token,
      json: { title: "History", content: "<p>Since 1960.</p>", status: "draft", in_menu: true },
    });
    expect(draft.status).toBe(422);
    expect(draft.json?.errors).toMatchObject({
      status: ["This page is part of the site's structure: it is always published."],
      in_menu: ["This page is part of the site's structure: its place in the menus is fixed."],
    });
    // SPEC's clients send the title and content alone.
    const saved = await call(pages, "PATCH", "/api/dashboard/pages/history", {
      token,
      json: { title: "History", content: "<p>Since 1960.</p>" },
    });
    expect(saved.status).toBe(200);
    expect((saved.json as { page: AdminPage }).page).toMatchObject({ status: "published", fixed: true });
  });

  it("make a draft the admins' alone everywhere, and an update without a state keeps it", async () => {
    const created = await create({
      slug: "draft-charter",
      title: "Draft charter",
      content: `<p>The ${WORD} charter.</p>`,
      section: "about",
      in_menu: true,
      in_footer: true,
      status: "draft",
    });
    expect((created.json as { page: AdminPage }).page).toMatchObject({ status: "draft", publish_at: null });
    expect(await seenBy("draft-charter", "Draft charter")).toEqual(NOWHERE);
    const edited = await call(pages, "PATCH", "/api/dashboard/pages/draft-charter", {
      token,
      json: { title: "Draft charter", content: `<p>The ${WORD} charter, revised.</p>` },
    });
    expect((edited.json as { page: AdminPage }).page).toMatchObject({
      status: "draft",
      in_menu: true,
      section: "about",
    });
    expect(await seenBy("draft-charter", "Draft charter")).toEqual(NOWHERE);
    const admin = await call(pages, "GET", "/api/dashboard/pages/draft-charter", { token });
    expect((admin.json as { page: AdminPage }).page).toMatchObject({ status: "draft" });
    const listed = (await call(pages, "GET", "/api/dashboard/pages", { token })).json as { data: AdminPage[] };
    expect(listed.data.find((p) => p.url === "/draft-charter")?.status).toBe("draft");
    // Published: everywhere at once.
    await call(pages, "PATCH", "/api/dashboard/pages/draft-charter", {
      token,
      json: { title: "Draft charter", content: `<p>The ${WORD} charter.</p>`, status: "published" },
    });
    expect(await seenBy("draft-charter", "Draft charter")).toEqual(EVERYWHERE);
  });

  it("show a scheduled page at its time with no job, though every page was cached before", async () => {
    clock = new Date("2026-12-31T23:59:20Z");
    token = (await signIn(t.runtime.services, "admin")).token;
    const past = await create({
      slug: "new-year",
      title: "New year",
      content: "<p>x</p>",
      status: "scheduled",
      publish_at: "2026-12-31T23:00:00Z",
    });
    expect(past.json?.errors).toEqual({ publish_at: ["The publication time must be in the future."] });
    const created = await create({
      slug: "new-year",
      title: "New year",
      content: `<p>The ${WORD} year ahead.</p>`,
      section: "services",
      in_menu: true,
      in_footer: true,
      status: "scheduled",
      publish_at: "2027-01-01T01:00:00+01:00",
    });
    expect((created.json as { page: AdminPage }).page).toMatchObject({
      status: "scheduled",
      publish_at: "2027-01-01T00:00:00.000Z",
    });
    // Seen (and cached) before its time: nowhere.
    expect(await seenBy("new-year", "New year")).toEqual(NOWHERE);
    expect(await seenBy("new-year", "New year")).toEqual(NOWHERE);
    clock = new Date("2027-01-01T00:00:01Z");
    expect(await seenBy("new-year", "New year")).toEqual(EVERYWHERE);
  });
});

describe("a draft page's preview link", () => {
  it("shows the page as it will look to anyone with it, never cached nor indexed, for seven days; the editor gives it", async () => {
    const created = await create({
      slug: "harbour-charter",
      title: "Harbour charter",
      content: "<p>First charter words.</p>",
      section: "about",
      status: "draft",
    });
    expect(created.status).toBe(201);
    const { path, expires_at } = await t.runtime.services.pages.previewLink("/harbour-charter");
    expect(path).toMatch(/^\/pages\/preview\//);
    expect(Date.parse(expires_at) - clock.getTime()).toBe(7 * 86_400_000);
    const open = () => call(pages, "GET", `${ORIGIN}${path}`);
    const first = await open();
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.headers.get("x-robots-tag")).toBe("noindex");
    expect(first.text).toContain('<meta name="robots" content="noindex"/>');
    expect(first.text).toContain("A draft, not on the site yet.");
    expect(first.text).toContain("About the association");
    expect(first.text).toContain("First charter words.");
    // Never kept by the page cache: an edit shows at once; the page itself stays hidden.
    const edited = await call(pages, "PATCH", "/api/dashboard/pages/harbour-charter", {
      token,
      json: { title: "Harbour charter", content: "<p>Second charter words.</p>" },
    });
    expect(edited.json).toMatchObject({ page: { content: "<p>Second charter words.</p>" } });
    expect((await open()).text).toContain("Second charter words.");
    expect((await call(pages, "GET", `${ORIGIN}/harbour-charter`)).status).toBe(404);

    // The editor gives the link while the page is not published, and not after.
    const cookie = `auth.session=${token}`;
    const editor = await call(pages, "GET", `${ORIGIN}/manager/pages/harbour-charter`, { headers: { cookie } });
    expect(editor.text).toContain("Preview link");
    expect(editor.text).toMatch(/value="http:\/\/localhost:3000\/pages\/preview\/[0-9]+\.[0-9]+\.[A-Za-z0-9_-]{43}"/);

    // A post's link for the same id opens no page (each link's purpose is signed), nor a made-up one.
    const post = await call(pages, "POST", "/api/dashboard/news", {
      token,
      json: { title: "Charter news", content: "<p>x</p>", status: "draft" },
    });
    const postId = (post.json as { post: { id: number } }).post.id;
    expect((await t.runtime.services.pages.listPages()).length).toBeGreaterThanOrEqual(postId);
    const postLink = (await t.runtime.services.news.previewLink(postId)).path;
    expect((await call(pages, "GET", `${ORIGIN}${postLink.replace("/news/", "/pages/")}`)).status).toBe(404);
    expect((await call(pages, "GET", `${ORIGIN}/pages/preview/${"1.2.".padEnd(47, "x")}`)).status).toBe(404);

    const publishing = await call(pages, "PATCH", "/api/dashboard/pages/harbour-charter", {
      token,
      json: { title: "Harbour charter", content: "<p>Second charter words.</p>", status: "published" },
    });
    expect(publishing.json).toMatchObject({ page: { status: "published" } });
    const published = await call(pages, "GET", `${ORIGIN}/manager/pages/harbour-charter`, { headers: { cookie } });
    expect(published.text).not.toContain("Preview link");
    expect((await open()).text).toContain("This page is published.");
    clock = new Date(Date.parse(expires_at) + 1000);
    const expired = await open();
    expect(expired.status).toBe(404);
    expect(expired.headers.get("cache-control")).toBe("no-store");
  });
});
