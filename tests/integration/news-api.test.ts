import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEWS_PER_PAGE } from "../../core/news/news.schema";
import { excerptOf } from "../../lib/html";
import { call, createTestContext, type TestContext } from "../support/app";

let t: TestContext;

/** 20 posts: 12 in December 2025 (the last at 23:30 UTC on the 31st), 8 in January 2026. */
beforeAll(async () => {
  t = await createTestContext();
  const rows = [];
  for (let i = 0; i < 20; i++) {
    const at = i < 12 ? new Date(Date.UTC(2025, 11, 31 - i, 23, 30)) : new Date(Date.UTC(2026, 0, 1 + (i - 12), 0, 15));
    const content =
      i === 5
        ? "<p>Radar <strong>interference</strong> study.</p>"
        : `<p>Routine news number ${i}.</p><script>x()</script>`;
    rows.push({
      slug: `post-${i}`,
      title: i === 5 ? "Radar interference in busy ports" : `Association update ${i}`,
      content,
      excerpt: excerptOf(content),
      author_name: "Secretariat",
      image: i === 0 ? "news/sample.jpg" : null,
      image_width: i === 0 ? 1600 : null,
      image_height: i === 0 ? 900 : null,
      published_at: at.toISOString(),
      created_at: at.toISOString(),
      updated_at: at.toISOString(),
    });
  }
  const inserted = await t.database.db
    .insertInto("news_posts")
    .values(rows)
    .returning(["id", "slug", "title", "content"])
    .execute();
  for (const post of inserted) {
    await t.runtime.services.search.index(
      {
        kind: "news",
        refId: post.id,
        url: `/post/${post.slug}`,
        title: post.title,
        html: post.content,
      },
      t.database.db,
    );
  }
});
afterAll(async () => t.close());

const getPosts = (body: unknown, query = "") => call(t.app, "POST", `/api/getPosts${query}`, { json: body });

describe("POST /api/getPosts", () => {
  it("pages newest first with the paging fields and a next_page_url", async () => {
    const first = await getPosts({});
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      status: "success",
      current_page: 1,
      per_page: NEWS_PER_PAGE,
      total: 20,
      last_page: 3,
    });
    const data = (first.json as { data: { slug: string; excerpt: string }[] }).data;
    expect(data.map((p) => p.slug).slice(0, 3)).toEqual(["post-19", "post-18", "post-17"]);
    expect(data[0].excerpt).not.toContain("<");
    expect(first.json?.next_page_url).toBe("/api/getPosts?page=2");
    const last = await getPosts({}, "?page=3");
    expect((last.json as { data: unknown[] }).data.length).toBe(20 - 2 * NEWS_PER_PAGE);
    expect(last.json?.next_page_url).toBeNull();
    const beyond = await getPosts({}, "?page=9");
    expect(beyond.json).toMatchObject({ data: [], current_page: 9, next_page_url: null });
  });

  it("filters by month in UTC, across the year end", async () => {
    const december = await getPosts({ filters: "12-2025" });
    expect(december.json?.total).toBe(12);
    const january = await getPosts({ filters: "01-2026" });
    expect(january.json?.total).toBe(8);
    const all = await getPosts({ filters: "all" });
    expect(all.json?.total).toBe(20);
    expect((await getPosts({ filters: "02-2026" })).json?.total).toBe(0);
  });

  it("answers 422 for a filter that is not a month, or a bad page", async () => {
    for (const filters of ["13-2025", "2025-12", "December", "00-2026", 42]) {
      const res = await getPosts({ filters });
      expect(res.status, String(filters)).toBe(422);
      expect(res.json?.errors).toHaveProperty("filters");
    }
    expect((await getPosts({}, "?page=0")).status).toBe(422);
    expect((await getPosts({}, "?page=abc")).status).toBe(422);
  });

  it("searches inside the list, combined with the month filter", async () => {
    const found = await getPosts({ search: "interference" });
    expect((found.json as { data: { slug: string }[] }).data.map((p) => p.slug)).toEqual(["post-5"]);
    expect((await getPosts({ search: "interference", filters: "01-2026" })).json?.total).toBe(0);
    expect((await getPosts({ search: "'; drop table news_posts; --" })).status).toBe(200);
  });
});

describe("single posts", () => {
  it("GET /api/getPostBySlug answers the sanitized post with its image URL and size", async () => {
    const res = await call(t.app, "GET", "/api/getPostBySlug/post-0");
    expect(res.json?.data).toMatchObject({
      slug: "post-0",
      image: "/uploads/news/sample.jpg",
      image_width: 1600,
      image_height: 900,
    });
    expect((res.json as { data: { content: string } }).data.content).not.toContain("script");
    expect((await call(t.app, "GET", "/api/getPostBySlug/nope")).status).toBe(404);
  });

  it("GET /api/getLatestPosts gives the newest posts other than this one", async () => {
    const res = await call(t.app, "GET", "/api/getLatestPosts/post-19");
    expect((res.json as { data: { slug: string }[] }).data.map((p) => p.slug)).toEqual([
      "post-18",
      "post-17",
      "post-16",
      "post-15",
    ]);
  });

  it("GET /api/getDateFilters lists the months with posts, newest first", async () => {
    const res = await call(t.app, "GET", "/api/getDateFilters");
    expect(res.json).toEqual({ status: "success", data: ["01-2026", "12-2025"] });
  });
});
