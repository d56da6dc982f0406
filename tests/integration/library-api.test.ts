import fs from "node:fs";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

/**
 * Issue 14: the category tree and papers through the public and admin API (SPEC §7), with the
 * access rules of each caller, the sort options of SPEC §9, revisions and search inside documents.
 */
let t: TestContext;
let admin: string;
let member: string;

type Category = {
  id: number;
  slug: string;
  name: string;
  is_public: boolean;
  is_active: boolean;
  parent_id: number | null;
  url: string;
  children_display: string;
  sort_options: { label: string; value: string }[];
  default_sort: string;
  children: Category[];
};
type Paper = {
  id: number;
  name: string;
  number: string | null;
  revision: string | null;
  uploaded_file: string | null;
  file: { url: string; type: string; label: string; size: number } | null;
  revisions: { id: number; revision: string | null; file: { url: string } }[];
  match: { page: number | null; snippet: string; url: string | null } | null;
};

async function pdfWith(pages: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) doc.addPage().drawText(text, { x: 50, y: 700, font, size: 12 });
  return doc.save();
}

const pdfFile = (data: Uint8Array, name = "paper.pdf") =>
  new File([data as Uint8Array<ArrayBuffer>], name, { type: "application/pdf" });

async function createCategory(fields: Record<string, string>): Promise<Category> {
  const res = await call(t.app, "POST", "/api/dashboard/papers-categories", { token: admin, json: fields });
  expect(res.status, res.text).toBe(201);
  return (res.json as { category: Category }).category;
}

function paperForm(fields: Record<string, string>, file?: File, method?: string): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append("uploaded_file", file);
  if (method) form.append("_method", method);
  return form;
}

async function createPaper(fields: Record<string, string>, file?: File): Promise<Paper> {
  const res = await call(t.app, "POST", "/api/dashboard/papers", { token: admin, body: paperForm(fields, file) });
  expect(res.status, res.text).toBe(201);
  return (res.json as { paper: Paper }).paper;
}

const papersOf = async (id: number, body: Record<string, string> = {}, page = 1, token?: string) => {
  const res = await call(t.app, "POST", `/api/dashboard/getPapersByCategory/${id}?page=${page}`, { token, json: body });
  return res;
};

const search = async (query: string, token?: string) => {
  const res = await call(t.app, "GET", `/api/search?search_query=${encodeURIComponent(query)}`, { token });
  return (res.json as { results: { url: string; title: string; content: string; subtitle: string }[] }).results;
};

const privateFile = (key: string) => path.join(t.runtime.config.privateDir, key);
const storedKeys = () =>
  fs.existsSync(privateFile("papers")) ? fs.readdirSync(privateFile("papers")).sort() : ([] as string[]);

let standards: Category;
let papersRoot: Category;
let navigation: Category;
let radar: Category;
let magazine: Category;

beforeAll(async () => {
  t = await createTestContext();
  admin = (await signIn(t.runtime.services, "admin")).token;
  member = (await signIn(t.runtime.services, "member")).token;
  papersRoot = await createCategory({ name: "Technical papers", view_type: "masthead-technical-papers" });
  navigation = await createCategory({ name: "Navigation", parent_id: String(papersRoot.id) });
  radar = await createCategory({ name: "Radar", parent_id: String(navigation.id), view_type: "default" });
  standards = await createCategory({ name: "Upcoming standards", view_type: "upcoming-standards" });
  magazine = await createCategory({ name: "Spotlight", view_type: "spotlight-magazine", is_public: "true" });
});
afterAll(async () => t.close());

describe("the category tree", () => {
  it("nests children, gives breadcrumbs from the root and lists the roots in order", async () => {
    const res = await call(t.app, "GET", `/api/dashboard/getCategoryBySlug/${papersRoot.slug}`, { token: member });
    expect(res.status).toBe(200);
    const tree = (res.json as { data: Category }).data;
    expect(tree.children.map((c) => c.slug)).toEqual(["navigation"]);
    expect(tree.children[0].children.map((c) => c.slug)).toEqual(["radar"]);
    expect(tree.children_display).toBe("accordion");

    const crumbs = await call(t.app, "GET", "/api/dashboard/getBreadcrumbs/radar", { token: member });
    expect((crumbs.json as { data: unknown }).data).toEqual([
      { id: papersRoot.id, name: "Technical papers", slug: "technical-papers" },
      { id: navigation.id, name: "Navigation", slug: "navigation" },
      { id: radar.id, name: "Radar", slug: "radar" },
    ]);

    for (const path of ["getChildCategoryBySlug", "getTabCategoryBySlug"]) {
      const children = await call(t.app, "GET", `/api/dashboard/${path}/${navigation.slug}`, { token: member });
      expect((children.json as { data: Category[] }).data.map((c) => c.id)).toEqual([radar.id]);
    }
    const roots = await call(t.app, "GET", "/api/dashboard/root-categories", { token: member });
    expect(roots.json).toMatchObject({ status: "success" });
    expect((roots.json as { data: Category[] }).data.map((c) => c.slug)).toEqual([
      "technical-papers",
      "upcoming-standards",
      "spotlight",
    ]);
  });

  it("answers 404 for an unknown slug, and keeps a category's address when it is renamed", async () => {
    const res = await call(t.app, "GET", "/api/dashboard/getCategoryBySlug/no-such-thing", { token: member });
    expect(res.status).toBe(404);
    const renamed = await call(t.app, "POST", `/api/dashboard/papers-categories/${radar.id}`, {
      token: admin,
      json: { name: "Radar and ARPA", view_type: "default" },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((renamed.json as { category: Category }).category).toMatchObject({ slug: "radar", name: "Radar and ARPA" });
  });

  it("gives new categories free slugs, never one of the members' area's own pages", async () => {
    const events = await createCategory({ name: "Events", parent_id: String(standards.id) });
    expect(events.slug).toBe("events-2");
    const again = await createCategory({ name: "Navigation", parent_id: String(standards.id) });
    expect(again.slug).toBe("navigation-2");
    // /dashboard/company and /dashboard/registrations are pages of the members' area too.
    const company = await createCategory({ name: "Company", parent_id: String(standards.id) });
    expect(company.slug).toBe("company-2");
    const registrations = await createCategory({ name: "Registrations", parent_id: String(standards.id) });
    expect(registrations.slug).toBe("registrations-2");
    for (const c of [events, again, company, registrations]) {
      const res = await call(t.app, "POST", `/api/dashboard/papers-categories-delete/${c.id}`, { token: admin });
      expect(res.status).toBe(200);
    }
  });

  it("moves a category under another parent and orders siblings, never under itself", async () => {
    const a = await createCategory({ name: "Alpha", parent_id: String(standards.id) });
    const b = await createCategory({ name: "Beta", parent_id: String(standards.id) });
    const move = (id: number, body: Record<string, unknown>) =>
      call(t.app, "POST", `/api/dashboard/papers-categories/${id}/move`, { token: admin, json: body });

    expect((await move(b.id, { parent_id: standards.id, position: 0 })).status).toBe(200);
    const children = async (slug: string) =>
      (
        (await call(t.app, "GET", `/api/dashboard/getChildCategoryBySlug/${slug}`, { token: member })).json as {
          data: Category[];
        }
      ).data.map((c) => c.name);
    expect(await children(standards.slug)).toEqual(["Beta", "Alpha"]);

    const moved = await move(a.id, { parent_id: navigation.id });
    expect(moved.status).toBe(200);
    expect(await children(navigation.slug)).toEqual(["Radar and ARPA", "Alpha"]);
    const crumbs = await call(t.app, "GET", `/api/dashboard/getBreadcrumbs/${a.slug}`, { token: member });
    expect((crumbs.json as { data: { slug: string }[] }).data.map((c) => c.slug)).toEqual([
      "technical-papers",
      "navigation",
      a.slug,
    ]);

    const loop = await move(papersRoot.id, { parent_id: radar.id });
    expect(loop.status).toBe(422);
    expect((loop.json as { errors: Record<string, string[]> }).errors.parent_id).toEqual([
      "A category cannot be moved under itself or one of its sub-categories.",
    ]);
    const missing = await move(a.id, { parent_id: 999999 });
    expect(missing.status).toBe(422);

    for (const c of [a, b]) {
      expect(
        (await call(t.app, "POST", `/api/dashboard/papers-categories-delete/${c.id}`, { token: admin })).status,
      ).toBe(200);
    }
  });

  it("refuses to delete a category with sub-categories or papers, with a clear 422", async () => {
    const withChildren = await call(t.app, "POST", `/api/dashboard/papers-categories-delete/${papersRoot.id}`, {
      token: admin,
    });
    expect(withChildren.status).toBe(422);
    expect((withChildren.json as { errors: Record<string, string[]> }).errors.category).toEqual([
      "This category has sub-categories: move or delete them first.",
    ]);
    const holder = await createCategory({ name: "Holder" });
    const paper = await createPaper({ papers_category_id: String(holder.id), name: "Kept" });
    const withPapers = await call(t.app, "POST", `/api/dashboard/papers-categories-delete/${holder.id}`, {
      token: admin,
    });
    expect(withPapers.status).toBe(422);
    expect((withPapers.json as { errors: Record<string, string[]> }).errors.category).toEqual([
      "This category has papers: move or delete them first.",
    ]);
    await call(t.app, "DELETE", `/api/dashboard/papers/${paper.id}`, { token: admin });
    expect(
      (await call(t.app, "POST", `/api/dashboard/papers-categories-delete/${holder.id}`, { token: admin })).status,
    ).toBe(200);
    const gone = await call(t.app, "GET", `/api/dashboard/getCategoryBySlug/${holder.slug}`, { token: admin });
    expect(gone.status).toBe(404);
  });

  it("validates categories with field messages", async () => {
    const res = await call(t.app, "POST", "/api/dashboard/papers-categories", {
      token: admin,
      json: { name: " ", view_type: "gallery", parent_id: "999999", is_public: "maybe" },
    });
    expect(res.status).toBe(422);
    const errors = (res.json as { errors: Record<string, string[]> }).errors;
    expect(errors.name).toEqual(["The name field is required."]);
    expect(errors.view_type[0]).toMatch(/^The view type must be one of: masthead-policy, /);
    expect(errors.is_public).toEqual(["Public must be true, false or inherit."]);
    const orphan = await call(t.app, "POST", "/api/dashboard/papers-categories", {
      token: admin,
      json: { name: "Orphan", parent_id: "999999" },
    });
    expect((orphan.json as { errors: Record<string, string[]> }).errors.parent_id).toEqual([
      "The parent category does not exist.",
    ]);
    // Past PostgreSQL's integer range: refused as input, never a database error.
    for (const [url, body] of [
      ["/api/dashboard/papers-categories", { name: "Far", parent_id: "99999999999" }],
      ["/api/dashboard/papers", { name: "Far", papers_category_id: "99999999999" }],
    ] as const) {
      const far = await call(t.app, "POST", url, { token: admin, json: body });
      expect(far.status, url).toBe(422);
    }
  });
});

describe("who may read what", () => {
  it("keeps admin calls to admins: 401 without a session, 403 for a member", async () => {
    for (const [method, url] of [
      ["GET", "/api/dashboard/papers-categories"],
      ["POST", "/api/dashboard/papers-categories"],
      ["POST", `/api/dashboard/papers-categories/${radar.id}`],
      ["POST", `/api/dashboard/papers-categories/${radar.id}/move`],
      ["POST", `/api/dashboard/papers-categories-delete/${radar.id}`],
      ["POST", "/api/dashboard/papers"],
      ["DELETE", "/api/dashboard/papers/1"],
      ["DELETE", "/api/dashboard/papers/1/revisions/1"],
    ] as const) {
      const json = method === "GET" ? undefined : { name: "x" };
      expect((await call(t.app, method, url, { json })).status, `${method} ${url}`).toBe(401);
      expect((await call(t.app, method, url, { token: member, json })).status, `${method} ${url}`).toBe(403);
    }
    const unknown = await call(t.app, "POST", "/api/dashboard/papers-categories/999999", {
      token: admin,
      json: { name: "x" },
    });
    expect(unknown.status).toBe(404);
    expect((await call(t.app, "DELETE", "/api/dashboard/papers/99999999999", { token: admin })).status).toBe(404);
  });

  it("shows visitors public categories only, and 404 (never 401) for members-only ones", async () => {
    const roots = await call(t.app, "GET", "/api/dashboard/root-categories");
    expect((roots.json as { data: Category[] }).data.map((c) => c.slug)).toEqual(["spotlight"]);
    expect((await call(t.app, "GET", `/api/dashboard/getCategoryBySlug/${magazine.slug}`)).status).toBe(200);
    for (const url of [
      `/api/dashboard/getCategoryBySlug/${papersRoot.slug}`,
      `/api/dashboard/getBreadcrumbs/${radar.slug}`,
      `/api/dashboard/getChildCategoryBySlug/${navigation.slug}`,
    ]) {
      expect((await call(t.app, "GET", url)).status, url).toBe(404);
    }
    expect((await papersOf(papersRoot.id)).status).toBe(404);
    expect((await papersOf(magazine.id)).status).toBe(200);

    // The sitemap lists what visitors may read, nothing else.
    const sitemap = await t.runtime.services.library.sitemapEntries();
    expect(sitemap.map((c) => c.slug)).toEqual(["spotlight"]);
  });

  it("lets a public category's subtree inherit its flag unless a child says otherwise", async () => {
    const editions = await createCategory({ name: "Editions 2026", parent_id: String(magazine.id) });
    const internal = await createCategory({ name: "Drafts", parent_id: String(magazine.id), is_public: "false" });
    expect(editions.is_public).toBe(true);
    expect(internal.is_public).toBe(false);
    const tree = await call(t.app, "GET", `/api/dashboard/getCategoryBySlug/${magazine.slug}`);
    expect((tree.json as { data: Category }).data.children.map((c) => c.name)).toEqual(["Editions 2026"]);
    expect((await call(t.app, "GET", `/api/dashboard/getCategoryBySlug/${internal.slug}`)).status).toBe(404);
    const asMember = await call(t.app, "GET", `/api/dashboard/getCategoryBySlug/${magazine.slug}`, { token: member });
    expect((asMember.json as { data: Category }).data.children.map((c) => c.name)).toEqual(["Editions 2026", "Drafts"]);
    // A public category under a members-only one stands on its own for visitors.
    const open = await createCategory({ name: "Open radar notes", parent_id: String(radar.id), is_public: "true" });
    const roots = await call(t.app, "GET", "/api/dashboard/root-categories");
    // In the tree's order: the technical papers' subtree comes before the magazine.
    expect((roots.json as { data: Category[] }).data.map((c) => c.slug)).toEqual([open.slug, "spotlight"]);
    const crumbs = await call(t.app, "GET", `/api/dashboard/getBreadcrumbs/${open.slug}`);
    expect((crumbs.json as { data: { slug: string }[] }).data.map((c) => c.slug)).toEqual([open.slug]);
    for (const c of [editions, internal, open]) {
      await call(t.app, "POST", `/api/dashboard/papers-categories-delete/${c.id}`, { token: admin });
    }
  });

  it("shows inactive categories (and what is under them) to admins only", async () => {
    const hidden = await createCategory({ name: "Archive", is_active: "false" });
    const under = await createCategory({ name: "Old bulletins", parent_id: String(hidden.id) });
    for (const slug of [hidden.slug, under.slug]) {
      expect((await call(t.app, "GET", `/api/dashboard/getCategoryBySlug/${slug}`, { token: member })).status).toBe(
        404,
      );
      expect((await call(t.app, "GET", `/api/dashboard/getCategoryBySlug/${slug}`, { token: admin })).status).toBe(200);
    }
    const roots = await call(t.app, "GET", "/api/dashboard/root-categories", { token: member });
    expect((roots.json as { data: Category[] }).data.map((c) => c.slug)).not.toContain(hidden.slug);
    for (const c of [under, hidden]) {
      await call(t.app, "POST", `/api/dashboard/papers-categories-delete/${c.id}`, { token: admin });
    }
  });
});

describe("papers", () => {
  it("lists each view's sort options exactly as SPEC §9 gives them, and refuses any other (422)", async () => {
    const options = (c: Category) => c.sort_options.map((o) => `${o.label}=${o.value}`);
    expect(options(papersRoot)).toEqual([
      "Doc No. desc=no_desc",
      "Doc No. asc=no_asc",
      "Date desc=date_desc",
      "Date asc=date_asc",
    ]);
    expect(options(standards)).toEqual(["Org desc=organization_desc", "Org asc=organization_asc"]);
    expect(options(magazine)).toEqual(["Edition desc=date_desc", "Edition asc=date_asc"]);
    const policy = await createCategory({ name: "Policies", view_type: "masthead-policy" });
    expect(options(policy)).toEqual([
      "Title desc=no_desc",
      "Title asc=no_asc",
      "Date desc=date_desc",
      "Date asc=date_asc",
    ]);
    const bulletins = await createCategory({ name: "Bulletins", view_type: "masthead-technical-bulletins" });
    expect(options(bulletins)).toEqual(["Title desc=no_desc", "Title asc=no_asc"]);
    expect(bulletins.children_display).toBe("tabs");
    for (const c of [policy, bulletins]) {
      await call(t.app, "POST", `/api/dashboard/papers-categories-delete/${c.id}`, { token: admin });
    }

    const res = await papersOf(standards.id, { sortBy: "date_desc" }, 1, member);
    expect(res.status).toBe(422);
    expect((res.json as { errors: Record<string, string[]> }).errors.sortBy).toEqual([
      "The sort must be one of: organization_desc, organization_asc.",
    ]);
  });

  it("orders papers by each option, with the index's tie-break, and pages them with load-more", async () => {
    const orgs = ["IEC", "ISO", "ITU", "IMO", "IALA"];
    for (let i = 0; i < 25; i++) {
      await createPaper({
        papers_category_id: String(standards.id),
        name: `Standard ${String(i).padStart(2, "0")}`,
        organization: orgs[i % 5],
        forecast_date: `2027-0${(i % 9) + 1}-01`,
      });
    }
    const first = await papersOf(standards.id, { sortBy: "organization_asc" }, 1, member);
    expect(first.status).toBe(200);
    const page1 = first.json as {
      data: Paper[];
      total: number;
      last_page: number;
      next_page_url: string;
      per_page: number;
    };
    expect(page1).toMatchObject({ total: 25, last_page: 2, per_page: 20, current_page: 1, sort: "organization_asc" });
    expect(page1.next_page_url).toBe(`/api/dashboard/getPapersByCategory/${standards.id}?page=2`);
    const more = await call(t.app, "POST", page1.next_page_url, {
      token: member,
      json: { sortBy: "organization_asc" },
    });
    const page2 = more.json as { data: Paper[]; next_page_url: string | null };
    expect(page2.data).toHaveLength(5);
    expect(page2.next_page_url).toBeNull();
    const all = [...page1.data, ...page2.data] as (Paper & { organization: string })[];
    expect(all.map((p) => p.organization)).toEqual([...all.map((p) => p.organization)].sort());
    expect(new Set(all.map((p) => p.id)).size).toBe(25);

    const desc = await papersOf(standards.id, { sortBy: "organization_desc" }, 1, member);
    const descOrgs = (desc.json as { data: (Paper & { organization: string })[] }).data.map((p) => p.organization);
    expect(descOrgs[0]).toBe("ITU");
    // Default: the view's own order.
    expect((await papersOf(standards.id, {}, 1, member)).json).toMatchObject({ sort: "organization_asc" });

    const searched = await papersOf(standards.id, { search: "Standard 07", sortBy: "organization_asc" }, 1, member);
    expect((searched.json as { data: Paper[] }).data.map((p) => p.name)).toContain("Standard 07");
  });

  it("orders technical papers by number and date, a paper without a date where SQLite puts it", async () => {
    const cat = await createCategory({ name: "Ordering", parent_id: String(papersRoot.id) });
    await createPaper({ papers_category_id: String(cat.id), name: "B", number: "TP-2026-02", date: "2026-03-01" });
    await createPaper({ papers_category_id: String(cat.id), name: "A", number: "TP-2026-10", date: "2025-01-01" });
    await createPaper({ papers_category_id: String(cat.id), name: "C", number: "TP-2025-01" });
    const names = async (sortBy: string) =>
      ((await papersOf(cat.id, { sortBy }, 1, member)).json as { data: Paper[] }).data.map((p) => p.name);
    expect(await names("no_asc")).toEqual(["C", "B", "A"]);
    expect(await names("no_desc")).toEqual(["A", "B", "C"]);
    expect(await names("date_asc")).toEqual(["C", "A", "B"]);
    expect(await names("date_desc")).toEqual(["B", "A", "C"]);
  });

  it("validates papers with field messages", async () => {
    const res = await call(t.app, "POST", "/api/dashboard/papers", {
      token: admin,
      json: { papers_category_id: "999999", name: "", date: "2026-02-30", forecast_date: "soon" },
    });
    expect(res.status).toBe(422);
    const errors = (res.json as { errors: Record<string, string[]> }).errors;
    expect(errors.name).toEqual(["The name field is required."]);
    expect(errors.date).toEqual(["The date must be a date such as 2026-11-22."]);
    expect(errors.forecast_date).toEqual(["The forecast date must be a date such as 2026-11-22."]);
    const missing = await call(t.app, "POST", "/api/dashboard/papers", {
      token: admin,
      json: { papers_category_id: "999999", name: "Lost" },
    });
    expect((missing.json as { errors: Record<string, string[]> }).errors.papers_category_id).toEqual([
      "The selected category does not exist.",
    ]);
  });
});

describe("files: checked by content, private, revisions", () => {
  let paper: Paper;
  let firstPdf: Uint8Array;

  it("refuses a renamed executable and an HTML page posing as XML, keeping nothing", async () => {
    const before = storedKeys();
    const exe = new Uint8Array(4096);
    exe.set([0x4d, 0x5a, 0x90, 0x00]);
    const html = new TextEncoder().encode("<!DOCTYPE html><html><script>alert(1)</script></html>");
    for (const [file, message] of [
      [new File([exe], "report.pdf", { type: "application/pdf" }), /^The file must be a PDF, Word/],
      [new File([html], "schema.xml", { type: "application/xml" }), /^SVG images and HTML pages are not taken/],
    ] as const) {
      const res = await call(t.app, "POST", "/api/dashboard/papers", {
        token: admin,
        body: paperForm({ papers_category_id: String(radar.id), name: "Forged" }, file),
      });
      expect(res.status, file.name).toBe(415);
      expect((res.json as { errors: Record<string, string[]> }).errors.uploaded_file[0]).toMatch(message);
    }
    expect(storedKeys()).toEqual(before);
    const listed = await papersOf(radar.id, { search: "Forged" }, 1, member);
    expect((listed.json as { total: number }).total).toBe(0);
  });

  it("stores a PDF privately, reads its text page by page, and finds a word inside it with its page", async () => {
    firstPdf = await pdfWith(["Introduction to radar", "Measurements at sea", "The albatross effect on clutter"]);
    paper = await createPaper(
      { papers_category_id: String(radar.id), name: "Radar clutter study", number: "TP-2026-07", revision: "Rev. 1" },
      pdfFile(firstPdf, "clutter.pdf"),
    );
    expect(paper.file).toMatchObject({ url: `/papers/${paper.id}/download`, type: "application/pdf", label: "PDF" });
    expect(paper.file?.size).toBe(firstPdf.length);
    expect(paper.uploaded_file).toBe(`/papers/${paper.id}/download`);

    const listed = await papersOf(radar.id, { search: "albatross" }, 1, member);
    const found = (listed.json as { data: Paper[] }).data;
    expect(found.map((p) => p.id)).toEqual([paper.id]);
    expect(found[0].match).toMatchObject({ page: 3, url: `/papers/${paper.id}/view#page=3` });
    expect(found[0].match?.snippet).toContain("<mark>albatross</mark>");

    const results = await search("albatross", member);
    expect(results[0]).toMatchObject({
      url: `/papers/${paper.id}/view#page=3`,
      title: "Radar clutter study · page 3",
      subtitle: "Library",
    });
    // Members-only: a visitor finds neither the paper nor its text.
    expect(await search("albatross")).toEqual([]);
    expect(await search("clutter study")).toEqual([]);

    const row = await t.database.db
      .selectFrom("papers")
      .select("uploaded_file")
      .where("id", "=", paper.id)
      .executeTakeFirstOrThrow();
    expect(fs.readFileSync(privateFile(row.uploaded_file as string))).toEqual(Buffer.from(firstPdf));
    expect(fs.existsSync(path.join(t.runtime.config.uploadsDir, row.uploaded_file as string))).toBe(false);
  });

  it("serves the file to members only, 404 to visitors, by guessed ids, old addresses and traversal", async () => {
    const asMember = await t.app.request(`/papers/${paper.id}/download`, {
      headers: { authorization: `Bearer ${member}` },
    });
    expect(asMember.status).toBe(200);
    expect(new Uint8Array(await asMember.arrayBuffer())).toEqual(firstPdf);
    expect(asMember.headers.get("cache-control")).toBe("private, max-age=0, must-revalidate");
    for (const url of [
      `/papers/${paper.id}/download`,
      `/papers/${paper.id}/view`,
      `/papers/${paper.id + 1000}/download`,
      "/papers/..%2F..%2Fetc%2Fpasswd/download",
      "/papers/1e3/download",
      `/uploads/${(await t.database.db.selectFrom("papers").select("uploaded_file").where("id", "=", paper.id).executeTakeFirstOrThrow()).uploaded_file}`,
    ]) {
      expect((await t.app.request(url)).status, url).toBe(404);
    }
    const view = await t.app.request(`/papers/${paper.id}/view`, { headers: { authorization: `Bearer ${member}` } });
    expect(view.status).toBe(200);
    expect(view.headers.get("content-disposition")).toMatch(/^inline; /);
    expect(view.headers.get("content-security-policy")).toContain("sandbox");
  });

  it("keeps the download address when the file is replaced, and the old file as a revision with its labels", async () => {
    const secondPdf = await pdfWith(["Revised radar study", "Now with petrel observations"]);
    const res = await call(t.app, "POST", `/api/dashboard/papers/${paper.id}`, {
      token: admin,
      body: paperForm(
        { papers_category_id: String(radar.id), name: "Radar clutter study", number: "TP-2026-07", revision: "Rev. 2" },
        pdfFile(secondPdf, "clutter-rev2.pdf"),
        "PATCH",
      ),
    });
    expect(res.status, res.text).toBe(200);
    const updated = (res.json as { paper: Paper }).paper;
    expect(updated.uploaded_file).toBe(`/papers/${paper.id}/download`);
    expect(updated.revision).toBe("Rev. 2");
    expect(updated.revisions).toHaveLength(1);
    expect(updated.revisions[0]).toMatchObject({ revision: "Rev. 1" });

    const current = await t.app.request(`/papers/${paper.id}/download`, {
      headers: { authorization: `Bearer ${member}` },
    });
    expect(new Uint8Array(await current.arrayBuffer())).toEqual(secondPdf);
    const old = await t.app.request(updated.revisions[0].file.url, { headers: { authorization: `Bearer ${member}` } });
    expect(old.status).toBe(200);
    expect(new Uint8Array(await old.arrayBuffer())).toEqual(firstPdf);
    expect(old.headers.get("content-disposition")).toContain("TP-2026-07 Radar clutter study Rev. 1.pdf");
    expect((await t.app.request(updated.revisions[0].file.url)).status).toBe(404);
    // Another paper's id with this revision's id: no such revision.
    const other = await createPaper({ papers_category_id: String(radar.id), name: "Other" });
    expect(
      (
        await t.app.request(`/papers/${other.id}/revisions/${updated.revisions[0].id}/download`, {
          headers: { authorization: `Bearer ${member}` },
        })
      ).status,
    ).toBe(404);

    // The search follows the current text.
    expect((await search("petrel", member)).map((r) => r.url)).toEqual([`/papers/${paper.id}/view#page=2`]);
    expect(await search("albatross", member)).toEqual([]);

    const keysBefore = storedKeys();
    const removed = await call(
      t.app,
      "DELETE",
      `/api/dashboard/papers/${paper.id}/revisions/${updated.revisions[0].id}`,
      {
        token: admin,
      },
    );
    expect(removed.status).toBe(200);
    expect((removed.json as { paper: Paper }).paper.revisions).toEqual([]);
    expect(storedKeys()).toHaveLength(keysBefore.length - 1);
    expect(
      (await t.app.request(updated.revisions[0].file.url, { headers: { authorization: `Bearer ${member}` } })).status,
    ).toBe(404);
  });

  it("opens a category to visitors: its papers, files and text become public, with public caching", async () => {
    const res = await call(t.app, "POST", `/api/dashboard/papers-categories/${radar.id}`, {
      token: admin,
      json: { name: "Radar and ARPA", view_type: "default", is_public: "true" },
    });
    expect(res.status).toBe(200);
    const file = await t.app.request(`/papers/${paper.id}/download`);
    expect(file.status).toBe(200);
    expect(file.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    expect((await search("petrel")).map((r) => r.url)).toEqual([`/papers/${paper.id}/view#page=2`]);
    const hit = (await search("clutter study"))[0];
    expect(hit.url).toBe(`/library/radar#paper-${paper.id}`);
    await call(t.app, "POST", `/api/dashboard/papers-categories/${radar.id}`, {
      token: admin,
      json: { name: "Radar and ARPA", view_type: "default", is_public: "inherit" },
    });
    expect((await t.app.request(`/papers/${paper.id}/download`)).status).toBe(404);
    expect(await search("petrel")).toEqual([]);
  });

  it("deletes a paper with its files, text and search entries", async () => {
    const keys = storedKeys();
    const res = await call(t.app, "DELETE", `/api/dashboard/papers/${paper.id}`, { token: admin });
    expect(res.status).toBe(200);
    expect(storedKeys()).toHaveLength(keys.length - 1);
    expect(
      (await t.app.request(`/papers/${paper.id}/download`, { headers: { authorization: `Bearer ${member}` } })).status,
    ).toBe(404);
    expect(await search("petrel", member)).toEqual([]);
    const pages = await t.database.db.selectFrom("paper_pages").select("id").where("paper_id", "=", paper.id).execute();
    expect(pages).toEqual([]);
  });
});
