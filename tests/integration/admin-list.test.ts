import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filterParams } from "../../app/components/admin/admin-list";
import { postInputSchema } from "../../core/news/news.schema";
import { NEWS_PER_PAGE } from "../../core/news/news.values";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { createUser, signIn } from "../support/factories";
import { pagesApp, pageText } from "../support/pages";

/**
 * Issue 31 'one admin list building block' (decision 0050): what AdminList gives every admin list,
 * as the server renders it: the count line (with "Show all" once filtered, where the list asks
 * for it), what an empty list says, the next page's link keeping the filters, and the pager that
 * is the way back without JavaScript from page 2 on.
 */
/** The users screen's page size (core/accounts/accounts.service.ts). */
const USERS_PER_PAGE = 25;

let t: TestContext;
let pages: TestContext["app"];
let closePages: () => Promise<void>;
let admin: string;

const textOf = pageText;

const get = async (url: string) => {
  const answer = await call(pages, "GET", `${ORIGIN}${url}`, { cookie: admin });
  expect(answer.status, `${url}: ${answer.text.slice(0, 200)}`).toBe(200);
  return { html: answer.text.replace(/&amp;/g, "&"), page: textOf(answer.text) };
};

beforeAll(async () => {
  t = await createTestContext();
  ({ pages, close: closePages } = await pagesApp(t));
  admin = (await signIn(t.runtime.services, "admin")).cookie;
}, 120_000);
afterAll(async () => {
  await closePages?.();
  await t?.close();
});

describe("filterParams", () => {
  it("keeps the filters in the order given, leaves out what is not a filter, writes a ticked box as 1", () => {
    const params = filterParams({ kind: "join", spam: "", status: undefined, meeting: 7, due: true, old: false });
    expect(params.toString()).toBe("kind=join&meeting=7&due=1");
    expect(filterParams({ search: "" }).toString()).toBe("");
  });
});

describe("an admin list (AdminList)", () => {
  it("says an empty list is empty, searched or not", async () => {
    const empty = await get("/manage-news");
    expect(empty.page).toContain("0 posts No posts yet.");
    const searched = await get("/manage-news?search=zyxwv");
    expect(searched.page).toContain("0 posts No post matches “zyxwv”.");
  });

  it("counts the rows, links the next page with the filters kept, and shows the pager from page 2", async () => {
    for (let n = 1; n <= NEWS_PER_PAGE + 1; n++) {
      await t.runtime.services.news.create(
        postInputSchema.parse({ title: `Tidewater note ${n}`, content: "<p>Tide tables.</p>" }),
      );
    }
    const first = await get("/manage-news?search=Tidewater");
    expect(first.page).toContain(`${NEWS_PER_PAGE + 1} posts`);
    expect(first.html).toMatch(/<a[^>]*href="\/manage-news\?search=Tidewater&page=2"[^>]*>Load more<\/a>/);
    expect(first.page).not.toContain("Page 1 of 2");

    const second = await get("/manage-news?search=Tidewater&page=2");
    expect(second.page).toContain("Page 2 of 2");
    expect(second.html).toMatch(/<a[^>]*href="\/manage-news\?search=Tidewater&page=1"[^>]*>Previous<\/a>/);
    expect(second.page).not.toContain("Load more");

    // Past the last page the list is not said to be empty.
    const past = await get("/manage-news?search=Tidewater&page=5");
    expect(past.page).toContain(
      `${NEWS_PER_PAGE + 1} posts Page 5 is past the end of the list. Back to the first page`,
    );
    expect(past.html).toMatch(/<a[^>]*href="\/manage-news\?search=Tidewater"[^>]*>Back to the first page<\/a>/);
    expect(past.page).not.toContain("No post");
    expect(past.page).not.toContain("Page 5 of 2");
  });

  it("links 'Show all' once a filter is on, with the filter's value shown in its select", async () => {
    const all = await get("/manager/members");
    expect(all.page).toContain("0 companies No member companies yet");
    expect(all.page).not.toContain("Show all");

    const left = await get("/manager/members?status=left&due=1");
    expect(left.page).toContain("0 companies · Show all No companies match.");
    expect(left.html).toMatch(/<a[^>]*href="\/manager\/members"[^>]*>Show all<\/a>/);
    expect(left.html).toMatch(
      /<select[^>]*id="companies-status"[^>]*>.*?<option value="left" selected="">Left<\/option>/s,
    );
    expect(left.html).toMatch(/<input[^>]*type="checkbox"[^>]*name="due"[^>]*checked=""/);
  });

  it("pages a list without load-more with the pager alone, filters kept", async () => {
    for (let n = 1; n <= USERS_PER_PAGE + 1; n++) await createUser(t.runtime.services, { last_name: `Pagerson ${n}` });
    const first = await get("/manager/users?search=Pagerson&role=member");
    expect(first.page).toContain(`${USERS_PER_PAGE + 1} users`);
    expect(first.page).toContain("Page 1 of 2");
    expect(first.html).toMatch(/<a[^>]*href="\/manager\/users\?search=Pagerson&role=member&page=2"[^>]*>Next<\/a>/);
    expect(first.page).not.toContain("Load more");
    expect(first.page).not.toContain("Show all");
  });
});
