import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { pagesApp } from "../support/pages";

/**
 * Issue 33, 'Feeds': each public library category has an Atom feed of its papers
 * (/library/{slug}/feed.xml, linked from the page): the papers last added or changed in it and in
 * its public sub-categories, newest first; never a members-only one's, whoever asks.
 */
let t: TestContext;
let pages: TestContext["app"];
let closePages: () => Promise<void>;

beforeAll(async () => {
  t = await createTestContext();
  ({ pages, close: closePages } = await pagesApp(t));
}, 120_000);
afterAll(async () => {
  await closePages?.();
  await t?.close();
});

async function category(slug: string, isPublic: 0 | 1 | null, parentId: number | null = null) {
  const at = "2026-01-01T00:00:00.000Z";
  const row = await t.database.db
    .insertInto("paper_categories")
    .values({
      slug,
      name: slug.replace(/-/g, " "),
      is_active: 1,
      is_root: parentId === null ? 1 : 0,
      is_public: isPublic,
      parent_id: parentId,
      position: 0,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function paper(categoryId: number, name: string, updatedAt: string, file: string | null = null) {
  const row = await t.database.db
    .insertInto("papers")
    .values({
      papers_category_id: categoryId,
      name,
      number: name.startsWith("Standard") ? "MS-101" : null,
      revision: "2",
      uploaded_file: file,
      created_at: "2026-01-01T00:00:00.000Z",
      updated_at: updatedAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@" });
type Entry = { title: string; id: string; link: { "@href": string }; updated: string; summary: string };
const entriesOf = (xml: string): Entry[] => {
  const entries = parser.parse(xml).feed.entry ?? [];
  return Array.isArray(entries) ? entries : [entries];
};

describe("a public category's Atom feed", () => {
  it("lists the papers of the category and its public sub-categories, newest first, and no members-only one", async () => {
    const shelf = await category("feed-shelf", 1);
    const notes = await category("feed-notes", null, shelf);
    const drafts = await category("feed-drafts", 0, shelf);
    const older = await paper(shelf, "Standard for depth sounders", "2026-02-01T00:00:00.000Z", "papers/depth.pdf");
    await paper(notes, "Installation notes", "2026-03-01T00:00:00.000Z");
    await paper(drafts, "Secret draft", "2026-04-01T00:00:00.000Z", "papers/secret.pdf");

    const { cookie } = await signIn(t.runtime.services, "admin");
    for (const asked of [undefined, cookie]) {
      const res = await call(pages, "GET", `${ORIGIN}/library/feed-shelf/feed.xml`, { cookie: asked });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
      expect(res.text).not.toContain("Secret draft");
      const feed = parser.parse(res.text).feed;
      expect(feed.title).toBe("feed shelf · Masthead library");
      expect(feed.updated).toBe("2026-03-01T00:00:00.000Z");
      const entries = entriesOf(res.text);
      expect(entries.map((e) => e.title)).toEqual(["Installation notes", "MS-101 Standard for depth sounders"]);
      // A paper with a file links to it; one without, to the category's page.
      expect(entries.map((e) => e.link["@href"])).toEqual([
        `${ORIGIN}/library/feed-shelf`,
        `${ORIGIN}/papers/${older}/download`,
      ]);
      expect(entries[1].summary).toBe("Revision 2");
      expect(new Set(entries.map((e) => e.id)).size).toBe(2);
    }
  });

  it("is a 404 for a members-only category, to members and admins too, and for an unknown one", async () => {
    await category("feed-members-only", 0);
    const { cookie } = await signIn(t.runtime.services, "admin");
    for (const slug of ["feed-members-only", "feed-nowhere"]) {
      for (const asked of [undefined, cookie]) {
        const res = await call(pages, "GET", `${ORIGIN}/library/${slug}/feed.xml`, { cookie: asked });
        expect(res.status, slug).toBe(404);
        expect(res.text).not.toContain("<feed");
      }
    }
  });

  it("is linked from the category's page, for feed readers and for people", async () => {
    await category("feed-linked", 1);
    const res = await call(pages, "GET", `${ORIGIN}/library/feed-linked`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(
      /<link rel="alternate" type="application\/atom\+xml" title="feed linked \(Atom\)" href="\/library\/feed-linked\/feed.xml"\/>/,
    );
    expect(res.text).toMatch(/<a href="\/library\/feed-linked\/feed.xml"[^>]*>Feed of new documents \(Atom\)<\/a>/);
  });
});
