import { PDFDocument, StandardFonts } from "pdf-lib";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categoryCreateSchema, PAPERS_PER_PAGE, paperInputSchema } from "../../core/library/library.schema";
import { createApp } from "../../server/app";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { pagesBuild } from "../support/pages";

/**
 * Issue 14 'Browse' through the app, as a browser without JavaScript reads it: the members' home
 * with the library's root categories, a category with tabs and one with an accordion, paper lists
 * whose search, sort and page come from the URL, and what visitors may read at /library.
 */
let t: TestContext;
let build: () => Promise<ServerBuild>;
/** The app with its pages: the route modules rendered by Vite's SSR loader, as `npm run dev` serves them. */
let pages: TestContext["app"];
let member: string;
const slugs: Record<string, string> = {};
const paperIds: Record<string, number> = {};

/** A three-page PDF whose second page tells of albatrosses (the text search reads it page by page). */
async function pdf(text: string): Promise<File> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pages = [`${text}: introduction and scope`, "Measured albatross echoes at sea", "Conclusions"];
  for (const line of pages) doc.addPage().drawText(line, { x: 50, y: 700, font });
  return new File([Buffer.from(await doc.save())], "paper.pdf", { type: "application/pdf" });
}

async function category(
  key: string,
  fields: { name: string; view_type?: string; is_public?: string; parent?: string; content?: string },
) {
  const created = await t.runtime.services.libraryAdmin.createCategory(
    categoryCreateSchema.parse({
      name: fields.name,
      title: `${fields.name} title`,
      title_description: `About ${fields.name}`,
      description: `The ${fields.name} description.`,
      content: fields.content ?? "",
      view_type: fields.view_type ?? "",
      is_public: fields.is_public ?? "",
      parent_id: fields.parent ? String(categoryIds[fields.parent]) : "",
    }),
    null,
  );
  slugs[key] = created.slug;
  categoryIds[key] = created.id;
}
const categoryIds: Record<string, number> = {};

async function paper(key: string, categoryKey: string, fields: Record<string, string>, file: File | null = null) {
  const created = await t.runtime.services.libraryAdmin.createPaper(
    paperInputSchema.parse({ papers_category_id: String(categoryIds[categoryKey]), ...fields }),
    file,
  );
  paperIds[key] = created.id;
  return created;
}

beforeAll(async () => {
  t = await createTestContext();
  build = await pagesBuild();
  pages = createApp(t.runtime, { build });
  member = (await signIn(t.runtime.services, "member")).cookie;

  // Tabs: the bulletins view shows its children as tabs.
  await category("bulletins", { name: "Bulletins", view_type: "masthead-technical-bulletins" });
  await category("north", { name: "North bulletins", view_type: "masthead-technical-bulletins", parent: "bulletins" });
  await category("south", { name: "South bulletins", view_type: "masthead-technical-bulletins", parent: "bulletins" });
  await paper("north1", "north", { name: "Northern lights notice", number: "TB-1" });
  await paper("south1", "south", { name: "Southern cross notice", number: "TB-2" });

  // Accordion: the default view.
  await category("guides", {
    name: "Guides",
    content: '<p>Read the <a href="/news">news</a>.</p><script>alert(1)</script>',
  });
  await category("guidesA", { name: "Guides alpha", parent: "guides" });
  await category("guidesB", { name: "Guides beta", parent: "guides" });
  await paper("alpha1", "guidesA", { name: "Alpha handbook", number: "G-1", date: "2025-01-01" });
  await paper("beta1", "guidesB", { name: "Beta handbook", number: "G-2", date: "2025-02-01" });

  // A public shelf with more than a page of papers, one of them with a file and an earlier file.
  await category("shelf", { name: "Open shelf", view_type: "spotlight-magazine", is_public: "public" });
  for (let i = 1; i <= PAPERS_PER_PAGE + 3; i++) {
    const day = String(i).padStart(2, "0");
    await paper(`shelf${i}`, "shelf", { name: `Edition number ${i}`, date: `2024-01-${day}` });
  }
  const withFile = await paper(
    "shelfFile",
    "shelf",
    { name: "Albatross special", date: "2023-06-01", description: "The seabird issue." },
    await pdf("first"),
  );
  await t.runtime.services.libraryAdmin.updatePaper(
    withFile.id,
    paperInputSchema.parse({
      papers_category_id: String(categoryIds.shelf),
      name: "Albatross special",
      date: "2023-06-01",
      revision: "2",
      description: "The seabird issue.",
    }),
    await pdf("second"),
  );
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, cookie?: string) => call(pages, "GET", url, cookie ? { cookie } : {});
/** The opening tag of the link to `href` (React orders attributes as the component writes them). */
const linkTo = (html: string, href: string) =>
  [...html.matchAll(/<a\s[^>]*>/g)]
    .map((m) => m[0])
    .find((tag) => tag.includes(`href="${href.replace(/&/g, "&amp;")}"`)) ?? "";

/** The document's text without tags, whitespace collapsed (React splits text nodes with comments). */
const textOf = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

describe("the members' home", () => {
  it("shows the library's root categories as cards under a fixed title, and no dead library link", async () => {
    const page = await get("/dashboard", member);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Document library");
    for (const key of ["bulletins", "guides", "shelf"]) expect(page.text).toContain(`href="/dashboard/${slugs[key]}"`);
    expect(textOf(page.text)).toContain("Guides title");
    expect(textOf(page.text)).toContain("About Guides");
    // Children are reached through their parent, not listed at the top.
    expect(page.text).not.toContain(`href="/dashboard/${slugs.north}"`);
    expect(page.text).not.toContain('href="/dashboard/library"');
  });
});

describe("a category with tabs", () => {
  it("shows breadcrumbs, its children as tab links, and the open tab's papers only", async () => {
    const page = await get(`/dashboard/${slugs.bulletins}`, member);
    expect(page.status).toBe(200);
    expect(page.text).toContain('aria-label="Breadcrumb"');
    expect(linkTo(page.text, `/dashboard/${slugs.bulletins}?tab=${slugs.north}`)).toContain('aria-current="page"');
    const southTab = linkTo(page.text, `/dashboard/${slugs.bulletins}?tab=${slugs.south}`);
    expect(southTab).not.toBe("");
    expect(southTab).not.toContain("aria-current");
    expect(page.text).toContain("Northern lights notice");
    expect(page.text).toContain(`id="paper-${paperIds.north1}"`);
    expect(page.text).not.toContain("Southern cross notice");
    expect(page.text).not.toContain("<details");

    const south = await get(`/dashboard/${slugs.bulletins}?tab=${slugs.south}`, member);
    expect(south.text).toContain("Southern cross notice");
    expect(south.text).not.toContain("Northern lights notice");
    expect(linkTo(south.text, `/dashboard/${slugs.bulletins}?tab=${slugs.south}`)).toContain('aria-current="page"');
    // The search form keeps the open tab.
    expect(south.text).toContain(`name="tab" value="${slugs.south}"`);
  });

  it("breadcrumbs lead from a child back to its parent", async () => {
    const page = await get(`/dashboard/${slugs.north}`, member);
    expect(page.status).toBe(200);
    const crumbs = /<nav aria-label="Breadcrumb"[\s\S]*?<\/nav>/.exec(page.text)?.[0] ?? "";
    expect(crumbs).toContain(`href="/dashboard/${slugs.bulletins}"`);
    expect(crumbs).toContain('aria-current="page"');
    expect(textOf(crumbs)).toContain("North bulletins");
  });
});

describe("a category with an accordion", () => {
  it("shows a disclosure per child with its papers, and the sanitized content", async () => {
    const page = await get(`/dashboard/${slugs.guides}`, member);
    expect(page.status).toBe(200);
    expect(page.text.match(/<details/g)?.length).toBe(2);
    expect(page.text).toContain("Alpha handbook");
    expect(page.text).toContain("Beta handbook");
    expect(page.text).toContain('<a href="/news">news</a>');
    expect(page.text).not.toContain("<script>alert(1)");
    expect(page.text).not.toMatch(/<details open/);
  });

  it("opens the section the URL's list names, and searches only in it", async () => {
    const page = await get(`/dashboard/${slugs.guides}?list=${slugs.guidesB}&search=beta`, member);
    const open = /<details open=""[\s\S]*?<\/details>/.exec(page.text)?.[0] ?? "";
    expect(open).toContain("Beta handbook");
    expect(textOf(open)).toContain("1 document matching “beta”");
    // The other section still lists its papers, unsearched.
    expect(page.text).toContain("Alpha handbook");
  });
});

describe("a paper list from the URL (no JavaScript)", () => {
  const shelf = () => `/dashboard/${slugs.shelf}`;
  const order = (html: string, names: string[]) => names.map((n) => html.indexOf(`>${n}<`));

  it("offers exactly the category's sort options and sorts by the one in the URL", async () => {
    const page = await get(shelf(), member);
    const select = /<select[^>]*name="sort"[\s\S]*?<\/select>/.exec(page.text)?.[0] ?? "";
    expect([...select.matchAll(/<option value="([^"]+)"[^>]*>([^<]+)</g)].map((m) => [m[1], m[2]])).toEqual([
      ["date_desc", "Edition desc"],
      ["date_asc", "Edition asc"],
    ]);
    // Newest edition first by default; oldest first when asked.
    const [n23, n22] = order(page.text, ["Edition number 23", "Edition number 22"]);
    expect(n23).toBeGreaterThan(0);
    expect(n23).toBeLessThan(n22);
    const asc = await get(`${shelf()}?sort=date_asc`, member);
    const [special, n1] = order(asc.text, ["Albatross special", "Edition number 1"]);
    expect(special).toBeGreaterThan(0);
    expect(special).toBeLessThan(n1);
    expect(asc.text).toMatch(/<option value="date_asc" selected="">/);
  });

  it("pages with a load-more link to the next page that keeps search and sort", async () => {
    const first = await get(`${shelf()}?sort=date_asc`, member);
    expect(textOf(first.text)).toContain(`${PAPERS_PER_PAGE + 4} documents`);
    expect(first.text).toContain(`href="${shelf()}?sort=date_asc&amp;page=2#list-${slugs.shelf}"`);
    const second = await get(`${shelf()}?sort=date_asc&page=2`, member);
    expect(second.status).toBe(200);
    expect(second.text).toContain("Edition number 23");
    expect(second.text).not.toContain("Edition number 1<");
    expect(second.text).not.toContain("page=3");
  });

  it("searches the documents' fields and text, showing where the text matched", async () => {
    const page = await get(`${shelf()}?search=albatross`, member);
    expect(page.status).toBe(200);
    const text = textOf(page.text);
    expect(text).toContain("1 document matching “albatross”");
    expect(page.text).not.toContain("Edition number 1<");
    expect(page.text).toContain("<mark>");
    expect(page.text).toContain(`href="/papers/${paperIds.shelfFile}/view#page=2"`);
    expect(text).toContain("Found on page 2");
    expect(page.text).toContain(`id="paper-${paperIds.shelfFile}"`);
  });

  it("shows the file's type and size, and the earlier file in the revision history", async () => {
    const page = await get(`${shelf()}?search=albatross`, member);
    const item = new RegExp(`<li id="paper-${paperIds.shelfFile}"[\\s\\S]*?</details>`).exec(page.text)?.[0] ?? "";
    expect(item).toContain(`href="/papers/${paperIds.shelfFile}/download"`);
    expect(textOf(item)).toMatch(/PDF, \d+(\.\d)? KB/);
    expect(textOf(item)).toContain("Earlier versions (1)");
    expect(item).toMatch(new RegExp(`href="/papers/${paperIds.shelfFile}/revisions/\\d+/download"`));
    expect(textOf(item)).toContain("replaced");
  });

  it("a sort the list does not offer shows the default order with a notice, never an error", async () => {
    const page = await get(`${shelf()}?sort=organization_asc`, member);
    expect(page.status).toBe(200);
    expect(textOf(page.text)).toContain("cannot be sorted by “organization_asc”");
    const [n23, n22] = order(page.text, ["Edition number 23", "Edition number 22"]);
    expect(n23).toBeLessThan(n22);
    const junk = await get(`${shelf()}?sort=%3Cscript%3E&page=abc`, member);
    expect(junk.status).toBe(200);
    expect(junk.text).not.toContain("<script>&");
  });
});

describe("who may read what", () => {
  it("visitors are sent to sign in from /dashboard/{slug}", async () => {
    const page = await get(`/dashboard/${slugs.guides}`);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toMatch(/^\/login/);
  });

  it("visitors get 404 for a members-only category at /library/{slug}, as for an unknown one", async () => {
    const hidden = await get(`/library/${slugs.guides}`);
    const child = await get(`/library/${slugs.north}`);
    const unknown = await get("/library/no-such-category");
    expect(hidden.status).toBe(404);
    expect(child.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(textOf(hidden.text)).toContain("This page could not be found");
  });

  it("visitors read a public category and its papers, and /library lists only public categories", async () => {
    const page = await get(`/library/${slugs.shelf}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Edition number 23");
    expect(page.text).toContain('aria-label="Breadcrumb"');
    const home = await get("/library");
    expect(home.status).toBe(200);
    expect(home.text).toContain(`href="/library/${slugs.shelf}"`);
    expect(home.text).not.toContain(`/library/${slugs.guides}"`);
    expect(home.text).not.toContain(`/library/${slugs.bulletins}"`);
  });

  it("a member on a public link to a members-only category is sent to the members' page", async () => {
    const page = await get(`/library/${slugs.guides}`, member);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(`/dashboard/${slugs.guides}`);
    // A public one reads the same for members as for visitors.
    expect((await get(`/library/${slugs.shelf}`, member)).status).toBe(200);
  });

  it("the footer links the public library", async () => {
    expect((await get("/library")).text).toMatch(/<a[^>]*href="\/library"[^>]*>Document library<\/a>/);
  });
});

describe("icons a list repeats on every row", () => {
  it("are defined once per page as symbols and drawn with <use>, on the papers list and the events calendar", async () => {
    const count = (html: string, text: string) => html.split(text).length - 1;
    const shelf = (await get(`/library/${slugs.shelf}`)).text;
    expect(count(shelf, '<symbol id="icon-file-text"')).toBe(1);
    // One per paper shown (a page of papers); the icon's paths only once, in the symbol.
    expect(count(shelf, '<use href="#icon-file-text"')).toBe(PAPERS_PER_PAGE);
    expect(shelf.match(/<svg[^>]*lucide-file-text[^>]*>(?!<use)/g)).toHaveLength(1);

    const stamp = "2026-01-01T00:00:00.000Z";
    await t.database.db
      .insertInto("meetings")
      .values(
        ["in-person", "online"].map((slug, i) => ({
          slug: `sprite-${slug}`,
          title: `Sprite ${slug}`,
          type: "meeting",
          meeting_type: i === 0 ? "In person" : "Online",
          organization: "Masthead",
          start_date: `2099-05-0${i + 1}`,
          end_date: null,
          location: "Rotterdam, Netherlands",
          information: null,
          health: null,
          registration: null,
          content_title: null,
          content: "<p>x</p>",
          timezone: "Europe/Amsterdam",
          visibility: "public",
          registration_open: 1,
          registration_closes_on: null,
          capacity: null,
          created_at: stamp,
          updated_at: stamp,
        })),
      )
      .execute();
    const events = (await get("/events")).text;
    for (const icon of ["users", "monitor-play", "map-pin"]) expect(count(events, `<symbol id="icon-${icon}"`)).toBe(1);
    expect(count(events, '<use href="#icon-map-pin"')).toBe(2);
    expect(count(events, '<use href="#icon-users"')).toBe(1);
    expect(count(events, '<use href="#icon-monitor-play"')).toBe(1);
  });
});
