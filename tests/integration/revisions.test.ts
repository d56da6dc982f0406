import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categoryCreateSchema, categoryUpdateSchema } from "../../core/library/library.schema";
import { meetingInputSchema } from "../../core/meetings/meetings.schema";
import { postInputSchema } from "../../core/news/news.schema";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

/**
 * Revisions (issue 34, decision 0073): every save of a news post, a CMS page, a meeting's texts and
 * a library category keeps the fields as saved with who and when; each is listed with what changed
 * from the one before it; restoring one is a new save (a new revision) that keeps the item's state.
 */
let t: TestContext;
let admin: Awaited<ReturnType<typeof signIn>>;
let member: string;

beforeAll(async () => {
  t = await createTestContext();
  admin = await signIn(t.runtime.services, "admin");
  member = (await signIn(t.runtime.services, "member")).token;
  await t.runtime.services.pages.ensureFixedPages();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

type Revision = {
  id: number;
  number: number;
  author: { id: number | null; name: string };
  restored_from: number | null;
  fields: Record<string, string | null>;
  changes: {
    field: string;
    label: string;
    formatting_only: boolean;
    parts: { value: string; added?: boolean; removed?: boolean }[];
  }[];
};
const revisionsAt = async (path: string) => {
  const answer = await call(t.app, "GET", path, { token: admin.token });
  expect(answer.status, path).toBe(200);
  return (answer.json as { data: Revision[] }).data;
};
const adminName = () => `${admin.user.first_name} ${admin.user.last_name}`.trim();

describe("a page's revisions", () => {
  it("keeps each save with who and when, shows what changed word by word, and restores one as a new save", async () => {
    const save = (content: string, title = "History") =>
      call(t.app, "PATCH", "/api/dashboard/pages/history", { token: admin.token, json: { title, content } });
    await save("<p>Founded in 1960 in London.</p>");
    await save("<p>Founded in 1960 in Oslo.</p>");
    // The same texts again: nothing new to keep.
    await save("<p>Founded in 1960 in Oslo.</p>");
    await save("<p>Founded in <strong>1960</strong> in Oslo.</p>", "Our history");
    const revisions = await revisionsAt("/api/dashboard/pages/history/revisions");
    expect(revisions.map((r) => r.number)).toEqual([3, 2, 1]);
    expect(revisions[0].author).toEqual({ id: admin.user.id, name: adminName() });
    // Against the one before it: a word replaced, and then only the formatting.
    const oslo = revisions[1].changes;
    expect(oslo).toHaveLength(1);
    expect(oslo[0]).toMatchObject({ field: "content", label: "Content", formatting_only: false });
    expect(oslo[0].parts.filter((p) => p.removed).map((p) => p.value)).toEqual(["London"]);
    expect(oslo[0].parts.filter((p) => p.added).map((p) => p.value)).toEqual(["Oslo"]);
    expect(revisions[0].changes.map((c) => [c.field, c.formatting_only])).toEqual([
      ["title", false],
      ["content", true],
    ]);
    expect(revisions[2].changes).toEqual([]);

    const first = revisions[2];
    const restored = await call(t.app, "POST", `/api/dashboard/pages/history/revisions/${first.id}/restore`, {
      token: admin.token,
    });
    expect(restored.status).toBe(200);
    expect((restored.json as { page: { title: string; content: string } }).page).toMatchObject({
      title: "History",
      content: "<p>Founded in 1960 in London.</p>",
    });
    expect((await call(t.app, "GET", "/api/page/history")).json).toMatchObject({
      content: "<p>Founded in 1960 in London.</p>",
    });
    const after = await revisionsAt("/api/dashboard/pages/history/revisions");
    expect(after[0]).toMatchObject({ number: 4, restored_from: first.id, fields: first.fields });
  });

  it("restores a draft page as a draft, and refuses a revision of another page, a stranger and a member", async () => {
    const created = await call(t.app, "POST", "/api/dashboard/pages", {
      token: admin.token,
      json: { slug: "charter", title: "Charter", content: "<p>One.</p>", status: "draft" },
    });
    expect(created.status).toBe(201);
    await call(t.app, "PATCH", "/api/dashboard/pages/charter", {
      token: admin.token,
      json: { title: "Charter", content: "<p>Two.</p>" },
    });
    const [, one] = await revisionsAt("/api/dashboard/pages/charter/revisions");
    const restored = await call(t.app, "POST", `/api/dashboard/pages/charter/revisions/${one.id}/restore`, {
      token: admin.token,
    });
    expect((restored.json as { page: { status: string; content: string } }).page).toMatchObject({
      status: "draft",
      content: "<p>One.</p>",
    });
    expect((await call(t.app, "GET", "/api/page/charter")).status).toBe(404);
    // Another page's revision is not this page's.
    const [history] = await revisionsAt("/api/dashboard/pages/history/revisions");
    expect(
      (
        await call(t.app, "POST", `/api/dashboard/pages/charter/revisions/${history.id}/restore`, {
          token: admin.token,
        })
      ).status,
    ).toBe(404);
    expect((await call(t.app, "GET", "/api/dashboard/pages/charter/revisions")).status).toBe(401);
    expect((await call(t.app, "GET", "/api/dashboard/pages/charter/revisions", { token: member })).status).toBe(403);
    expect((await call(t.app, "GET", "/api/dashboard/pages/nowhere/revisions", { token: admin.token })).status).toBe(
      404,
    );
    // Deleted with the page.
    await call(t.app, "DELETE", "/api/dashboard/pages/charter", { token: admin.token });
    const left = await t.database.db
      .selectFrom("content_revisions")
      .select("id")
      .where("entity", "=", "page")
      .where("entity_id", "=", (created.json as { page: { id: number } }).page.id)
      .execute();
    expect(left).toEqual([]);
  });
});

describe("a news post's revisions", () => {
  it("restores the texts of an earlier save and never publishes a draft", async () => {
    const created = await call(t.app, "POST", "/api/dashboard/news", {
      token: admin.token,
      json: { title: "Radar rules", content: "<p>First words.</p>", author_name: "Ann", status: "draft" },
    });
    const post = (created.json as { post: { id: number; slug: string } }).post;
    await call(t.app, "PATCH", `/api/dashboard/news/${post.id}`, {
      token: admin.token,
      json: postInputSchema.parse({ title: "Radar rules", content: "<p>Second words.</p>", author_name: "Bo" }),
    });
    const revisions = await revisionsAt(`/api/dashboard/news/${post.id}/revisions`);
    expect(revisions.map((r) => r.changes.map((c) => c.field))).toEqual([["author_name", "content"], []]);
    const restored = await call(t.app, "POST", `/api/dashboard/news/${post.id}/revisions/${revisions[1].id}/restore`, {
      token: admin.token,
    });
    expect(restored.status).toBe(200);
    expect((restored.json as { post: Record<string, unknown> }).post).toMatchObject({
      status: "draft",
      content: "<p>First words.</p>",
      author_name: "Ann",
    });
    expect((await call(t.app, "GET", `/api/getPostBySlug/${post.slug}`)).status).toBe(404);
    expect((await revisionsAt(`/api/dashboard/news/${post.id}/revisions`))[0].restored_from).toBe(revisions[1].id);
  });
});

describe("a meeting's and a category's revisions", () => {
  it("keeps a meeting's texts and restores them, its dates left alone", async () => {
    const meeting = await t.runtime.services.meetingsAdmin.create(
      meetingInputSchema.parse({ title: "Radar group", type: "meeting", start_date: "2030-03-04", location: "Oslo" }),
    );
    const update = await call(t.app, "PATCH", `/api/dashboard/meeting/${meeting.id}`, {
      token: admin.token,
      json: { title: "Radar working group", type: "meeting", start_date: "2030-03-05", location: "Bergen" },
    });
    expect(update.status).toBe(200);
    const revisions = await revisionsAt(`/api/dashboard/meeting/${meeting.id}/revisions`);
    expect(revisions).toHaveLength(2);
    // The first save came from no request: the system's.
    expect(revisions[1].author).toEqual({ id: null, name: "System" });
    expect(revisions[0].changes.map((c) => c.field)).toEqual(["title", "location"]);
    const restored = await call(
      t.app,
      "POST",
      `/api/dashboard/meeting/${meeting.id}/revisions/${revisions[1].id}/restore`,
      { token: admin.token },
    );
    expect(restored.status).toBe(200);
    expect((restored.json as { event: Record<string, unknown> }).event).toMatchObject({
      title: "Radar group",
      location: "Oslo",
      start_date: "2030-03-05",
    });
  });

  it("keeps a category's texts and restores them", async () => {
    const { libraryAdmin } = t.runtime.services;
    const category = await libraryAdmin.createCategory(
      categoryCreateSchema.parse({ name: "Radar", description: "Old words" }),
      null,
    );
    await call(t.app, "POST", `/api/dashboard/papers-categories/${category.id}`, {
      token: admin.token,
      json: categoryUpdateSchema.parse({ name: "Radar", description: "New words" }),
    });
    const revisions = await revisionsAt(`/api/dashboard/papers-categories/${category.id}/revisions`);
    expect(revisions[0].changes.map((c) => c.field)).toEqual(["description"]);
    await call(t.app, "POST", `/api/dashboard/papers-categories/${category.id}/revisions/${revisions[1].id}/restore`, {
      token: admin.token,
    });
    expect((await libraryAdmin.category(category.id)).description).toBe("Old words");
  });
});
