import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNPUBLISHED_NOT_SENT } from "../../core/notifications/announcements.service";
import { PUBLISH_AT_FORMAT } from "../../core/publication/publication";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { pagesApp } from "../support/pages";

/**
 * Drafts of news posts (issue 34, decision 0070): a draft is the admins' alone everywhere (lists,
 * its page, the home page, the month filters, site search, the sitemap, the feeds, the public
 * API, the page cache), nobody is told of it, and publishing it dates it now and announces it.
 */
let t: TestContext;
/** The site with its pages (React Router's routes) and the real page cache in front. */
let pages: TestContext["app"];
let closePages: () => Promise<void>;
let token: string;
let clock = new Date("2026-11-20T10:00:00Z");

beforeAll(async () => {
  t = await createTestContext({}, { clock: () => clock });
  ({ pages, close: closePages } = await pagesApp(t));
  token = (await signIn(t.runtime.services, "admin")).token;
}, 120_000);
afterAll(async () => {
  await closePages?.();
  await t?.close();
});

type AdminPost = { id: number; slug: string; status: string; published_at: string };
const postOf = (res: { json: Record<string, unknown> | null }) => (res.json as { post: AdminPost }).post;
const TITLE = "Quillwort sonar trials results";
const WORD = "quillwort";

const newsEvents = () =>
  t.database.db.selectFrom("notification_events").select(["ref_id"]).where("kind", "=", "news").execute();

/** Where a visitor could come across the post: every public surface, as a visitor sees it. */
async function seenBy(slug: string, month = "11-2026", title = TITLE) {
  const text = async (url: string) => {
    const answer = await call(pages, "GET", `${ORIGIN}${url}`);
    expect(answer.status, url).toBe(200);
    return answer.text;
  };
  const getPosts = (await call(pages, "POST", "/api/getPosts", { json: {} })).json as { data: { slug: string }[] };
  const latest = (await call(pages, "GET", "/api/getLatestPosts/some-other-post")).json as {
    data: { slug: string }[];
  };
  const search = (await call(pages, "GET", `/api/search?search_query=${WORD}`)).json as { results: { url: string }[] };
  const months = (await call(pages, "GET", "/api/getDateFilters")).json as { data: string[] };
  return {
    page: (await call(pages, "GET", `${ORIGIN}/post/${slug}`)).status,
    api: (await call(pages, "GET", `/api/getPostBySlug/${slug}`)).status,
    list: getPosts.data.some((p) => p.slug === slug),
    latest: latest.data.some((p) => p.slug === slug),
    search: search.results.some((r) => r.url === `/post/${slug}`),
    news: (await text("/news")).includes(title),
    home: (await text("/")).includes(title),
    sitemap: (await text("/sitemap.xml")).includes(`/post/${slug}`),
    rss: (await text("/news/rss.xml")).includes(title),
    atom: (await text("/news/atom.xml")).includes(title),
    month: months.data.includes(month),
  };
}
const NOWHERE = {
  page: 404,
  api: 404,
  list: false,
  latest: false,
  search: false,
  news: false,
  home: false,
  sitemap: false,
  rss: false,
  atom: false,
  month: false,
};
const EVERYWHERE = {
  page: 200,
  api: 200,
  list: true,
  latest: true,
  search: true,
  news: true,
  home: true,
  sitemap: true,
  rss: true,
  atom: true,
  month: true,
};

describe("a draft news post", () => {
  it("is seen by the admins alone, is announced to nobody, and appears everywhere once published, dated then", async () => {
    const eventsBefore = (await newsEvents()).length;
    const created = await call(pages, "POST", "/api/dashboard/news", {
      token,
      json: { title: TITLE, content: `<p>The ${WORD} trials are done.</p>`, status: "draft" },
    });
    expect(created.status).toBe(201);
    const draft = postOf(created);
    expect(draft.status).toBe("draft");
    // The month filters hold no other post of this month in the test's data: November 2026 is the draft's alone.
    expect(await seenBy(draft.slug)).toEqual(NOWHERE);
    expect(await newsEvents()).toHaveLength(eventsBefore);

    // The admins' list: with its state, and filtered by it.
    const all = (await call(pages, "GET", "/api/dashboard/news", { token })).json as {
      data: { id: number; status: string }[];
    };
    expect(all.data.find((p) => p.id === draft.id)?.status).toBe("draft");
    const drafts = (await call(pages, "GET", "/api/dashboard/news?status=draft", { token })).json as {
      data: { id: number }[];
    };
    expect(drafts.data.map((p) => p.id)).toEqual([draft.id]);
    const published = (await call(pages, "GET", "/api/dashboard/news?status=published", { token })).json as {
      data: { id: number }[];
    };
    expect(published.data.map((p) => p.id)).not.toContain(draft.id);
    expect((await call(pages, "GET", `/api/dashboard/news?status=someday`, { token })).status).toBe(422);

    // Sending it to the members is refused; an update without a state keeps it a draft.
    const sent = await t.runtime.services.announcements
      .send(draft.id, { audience: "all", again: false, by: 1 })
      .catch((error: unknown) => error);
    expect(sent).toMatchObject({ code: "conflict", message: UNPUBLISHED_NOT_SENT });
    const kept = await call(pages, "PATCH", `/api/dashboard/news/${draft.id}`, {
      token,
      json: { title: TITLE, content: `<p>The ${WORD} trials are done, with figures.</p>` },
    });
    expect(postOf(kept).status).toBe("draft");
    expect(await seenBy(draft.slug)).toEqual(NOWHERE);

    // Published a day later: dated then, everywhere at once (the page cache included), and announced once.
    clock = new Date("2026-11-21T08:30:00Z");
    // A day later the admin signs in again (the session ended while idle).
    token = (await signIn(t.runtime.services, "admin")).token;
    const out = await call(pages, "PATCH", `/api/dashboard/news/${draft.id}`, {
      token,
      json: { title: TITLE, content: `<p>The ${WORD} trials are done, with figures.</p>`, status: "published" },
    });
    expect(out.status).toBe(200);
    expect(postOf(out)).toMatchObject({ status: "published", published_at: "2026-11-21T08:30:00.000Z" });
    expect(await seenBy(draft.slug)).toEqual(EVERYWHERE);
    expect((await newsEvents()).filter((e) => e.ref_id === draft.id)).toHaveLength(1);

    // Made a draft again: gone from everywhere; published again later: not announced a second time.
    await call(pages, "PATCH", `/api/dashboard/news/${draft.id}`, {
      token,
      json: { title: TITLE, content: "<p>Withdrawn for corrections.</p>", status: "draft" },
    });
    expect(await seenBy(draft.slug)).toEqual(NOWHERE);
  });

  it("is published when a client says nothing of drafts, as SPEC's clients do; an unknown state is a 422", async () => {
    const created = await call(pages, "POST", "/api/dashboard/news", {
      token,
      json: { title: "Plain post from an old client", content: "<p>Hello.</p>" },
    });
    expect(postOf(created).status).toBe("published");
    expect((await call(pages, "GET", `/api/getPostBySlug/${postOf(created).slug}`)).status).toBe(200);
    const refused = await call(pages, "POST", "/api/dashboard/news", {
      token,
      json: { title: "Scheduled", content: "<p>Later.</p>", status: "someday" },
    });
    expect(refused.status).toBe(422);
    expect(refused.json?.errors).toEqual({ status: ["The status must be draft, scheduled or published."] });
  });
});

describe("a draft's preview link", () => {
  it("shows the draft as it will look to anyone with it, never cached nor indexed, for seven days", async () => {
    const created = await call(pages, "POST", "/api/dashboard/news", {
      token,
      json: { title: "Halyard preview draft", content: "<p>First words.</p>", status: "draft" },
    });
    const draft = postOf(created);
    const { path, expires_at } = await t.runtime.services.news.previewLink(draft.id);
    expect(Date.parse(expires_at) - clock.getTime()).toBe(7 * 86_400_000);
    const open = () => call(pages, "GET", `${ORIGIN}${path}`);

    const first = await open();
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.headers.get("x-robots-tag")).toBe("noindex");
    expect(first.text).toContain('<meta name="robots" content="noindex"/>');
    expect(first.text).toContain("Preview");
    expect(first.text).toContain("Halyard preview draft");
    expect(first.text).toContain("First words.");
    // Never kept by the page cache: an edit shows at once.
    await call(pages, "PATCH", `/api/dashboard/news/${draft.id}`, {
      token,
      json: { title: "Halyard preview draft", content: "<p>Second words.</p>" },
    });
    expect((await open()).text).toContain("Second words.");
    // Still the admins' alone at its own address.
    expect((await call(pages, "GET", `${ORIGIN}/post/${draft.slug}`)).status).toBe(404);

    // Another post's id under the same signature, a made-up token, and the link once expired: nothing.
    const forged = path.replace(/\/(\d+)\./, (_m, id) => `/${Number(id) + 1}.`);
    expect((await call(pages, "GET", `${ORIGIN}${forged}`)).status).toBe(404);
    expect((await call(pages, "GET", `${ORIGIN}/news/preview/${"1.2.".padEnd(47, "x")}`)).status).toBe(404);
    clock = new Date(Date.parse(expires_at) + 1000);
    const expired = await open();
    expect(expired.status).toBe(404);
    expect(expired.headers.get("cache-control")).toBe("no-store");
  });
});

describe("a scheduled post (decision 0071)", () => {
  it("is the admins' alone until its time, then everywhere at once with no job, the caches included, and announced once", async () => {
    clock = new Date("2026-12-31T23:59:20Z");
    token = (await signIn(t.runtime.services, "admin")).token;
    const title = "Quillwort schedule for the new year";
    const refusedPast = await call(pages, "POST", "/api/dashboard/news", {
      token,
      json: { title, content: `<p>${WORD} in January.</p>`, status: "scheduled", publish_at: "2026-12-31T23:00:00Z" },
    });
    expect(refusedPast.status).toBe(422);
    expect(refusedPast.json?.errors).toEqual({ publish_at: ["The publication time must be in the future."] });
    const refusedNoTime = await call(pages, "POST", "/api/dashboard/news", {
      token,
      json: { title, content: "<p>x</p>", status: "scheduled" },
    });
    expect(refusedNoTime.json?.errors).toEqual({ publish_at: ["Give the date and time the post is to appear."] });
    expect(
      (
        await call(pages, "POST", "/api/dashboard/news", {
          token,
          json: { title, content: "<p>x</p>", status: "scheduled", publish_at: "next tuesday" },
        })
      ).json?.errors,
    ).toEqual({ publish_at: [PUBLISH_AT_FORMAT] });

    const eventsBefore = (await newsEvents()).length;
    const created = await call(pages, "POST", "/api/dashboard/news", {
      token,
      json: {
        title,
        content: `<p>The ${WORD} schedule for the new year.</p>`,
        status: "scheduled",
        publish_at: "2027-01-01T01:00:00+01:00",
      },
    });
    expect(created.status).toBe(201);
    const post = postOf(created) as AdminPost & { publish_at: string };
    expect(post).toMatchObject({ status: "scheduled", publish_at: "2027-01-01T00:00:00.000Z" });
    // Seen (and cached) before its time: nowhere.
    expect(await seenBy(post.slug, "01-2027", title)).toEqual(NOWHERE);
    expect(await seenBy(post.slug, "01-2027", title)).toEqual(NOWHERE);
    const scheduled = (await call(pages, "GET", "/api/dashboard/news?status=scheduled", { token })).json as {
      data: { id: number; status: string }[];
    };
    expect(scheduled.data).toEqual([expect.objectContaining({ id: post.id, status: "scheduled" })]);
    expect(await t.runtime.services.news.announceDue()).toBe(0);
    expect(await newsEvents()).toHaveLength(eventsBefore);

    // A second past its time (41 s on, within the caches' lifetime), with nobody saving anything:
    // everywhere, though every page and list was cached before.
    clock = new Date("2027-01-01T00:00:01Z");
    expect(await seenBy(post.slug, "01-2027", title)).toEqual(EVERYWHERE);
    // The notices job tells those following the news once.
    expect(await t.runtime.services.news.announceDue()).toBe(1);
    expect(await t.runtime.services.news.announceDue()).toBe(0);
    expect((await newsEvents()).filter((e) => e.ref_id === post.id)).toHaveLength(1);
  });
});
