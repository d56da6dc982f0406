import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { categoryCreateSchema, PAPERS_PER_PAGE, paperInputSchema } from "../../core/library/library.schema";
import { meetingInputSchema } from "../../core/meetings/meetings.schema";
import { MEETINGS_PER_PAGE } from "../../core/meetings/meetings.values";
import { postInputSchema } from "../../core/news/news.schema";
import { NEWS_PER_PAGE } from "../../core/news/news.values";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

/**
 * Issue 30 point 8 (decision 0036): SPEC §7's load-more is the next page's address plus
 * `&search=` (admin news and meetings) or a POST to it with the search (papers). Where the next
 * address already carries the search, the search arrives twice: the same words are taken once;
 * different ones are a 422 that says so, never 'Invalid input'.
 */
let t: TestContext;
let admin: string;
let categoryId: number;
const WORD = "albatross";
const TWICE = { search: ["The search was given more than once with different values: send it once."] };

type ListAnswer = { data: { title?: string; name?: string }[]; current_page: number; next_page_url: string | null };

beforeAll(async () => {
  t = await createTestContext();
  admin = (await signIn(t.runtime.services, "admin")).token;
  const { news, meetingsAdmin, libraryAdmin } = t.runtime.services;
  // More matching items than a page holds, and some that do not match.
  for (let i = 1; i <= NEWS_PER_PAGE + 2; i++) {
    await news.create(postInputSchema.parse({ title: `${WORD} sighting ${i}`, content: "<p>At sea.</p>" }));
  }
  await news.create(postInputSchema.parse({ title: "Harbour works", content: "<p>Quay.</p>" }));
  for (let i = 1; i <= MEETINGS_PER_PAGE + 2; i++) {
    await meetingsAdmin.create(
      meetingInputSchema.parse({ title: `${WORD} working group ${i}`, type: "meeting", start_date: "2030-03-04" }),
    );
  }
  await meetingsAdmin.create(
    meetingInputSchema.parse({ title: "Harbour committee", type: "meeting", start_date: "2030-03-05" }),
  );
  const category = await libraryAdmin.createCategory(categoryCreateSchema.parse({ name: "Seabirds" }), null);
  categoryId = category.id;
  for (let i = 1; i <= PAPERS_PER_PAGE + 2; i++) {
    await libraryAdmin.createPaper(
      paperInputSchema.parse({ papers_category_id: String(categoryId), name: `${WORD} paper ${i}` }),
      null,
    );
  }
  await libraryAdmin.createPaper(
    paperInputSchema.parse({ papers_category_id: String(categoryId), name: "Harbour paper" }),
    null,
  );
}, 120_000);
afterAll(async () => t.close());

const names = (answer: ListAnswer) => answer.data.map((item) => item.title ?? item.name ?? "");

describe.each([
  { list: "admin news", path: "/api/dashboard/news", total: NEWS_PER_PAGE + 2 },
  { list: "admin meetings", path: "/api/dashboard/meeting", total: MEETINGS_PER_PAGE + 2 },
])("$list: GET next_page_url plus &search= (SPEC §7)", ({ path, total }) => {
  it("answers the second page of the search, whether or not next_page_url carries it already", async () => {
    const first = await call(t.app, "GET", `${path}?search=${WORD}`, { token: admin });
    expect(first.status, first.text).toBe(200);
    const next = (first.json as ListAnswer).next_page_url;
    expect(next).toMatch(/page=2/);
    const second = await call(t.app, "GET", `${next}&search=${WORD}`, { token: admin });
    expect(second.status, second.text).toBe(200);
    const page = second.json as ListAnswer;
    expect(page.current_page).toBe(2);
    const all = [...names(first.json as ListAnswer), ...names(page)];
    expect(all).toHaveLength(total);
    expect(all.every((name) => name.startsWith(WORD))).toBe(true);
  });

  it("takes the same search given twice once, and refuses two different ones with a field message", async () => {
    const same = await call(t.app, "GET", `${path}?page=1&search=${WORD}&search=%20${WORD}%20`, { token: admin });
    expect(same.status, same.text).toBe(200);
    expect(names(same.json as ListAnswer).every((name) => name.startsWith(WORD))).toBe(true);
    const different = await call(t.app, "GET", `${path}?page=2&search=${WORD}&search=harbour`, { token: admin });
    expect(different.status).toBe(422);
    expect(different.json?.errors).toEqual(TWICE);
  });
});

describe("papers: POST to next_page_url with the search (SPEC §7)", () => {
  const papers = (url: string, body: Record<string, string | readonly string[]>) => {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(body)) {
      for (const one of typeof value === "string" ? [value] : value) form.append(key, one);
    }
    return call(t.app, "POST", url, {
      token: admin,
      body: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
  };

  it("answers the second page when the search is in the body, in the address as well, or repeated", async () => {
    const first = await papers(`/api/dashboard/getPapersByCategory/${categoryId}`, { search: WORD });
    expect(first.status, first.text).toBe(200);
    const next = (first.json as ListAnswer).next_page_url as string;
    expect(next).toMatch(/page=2$/);
    for (const [url, body] of [
      [next, { search: WORD }],
      [`${next}&search=${WORD}`, { search: WORD }],
      [`${next}&search=${WORD}`, {}],
      [next, { search: [WORD, WORD] }],
    ] as const) {
      const second = await papers(url, body);
      expect(second.status, `${url} ${JSON.stringify(body)}: ${second.text}`).toBe(200);
      expect(names(second.json as ListAnswer)).toHaveLength(2);
      expect(names(second.json as ListAnswer).every((name) => name.startsWith(WORD))).toBe(true);
    }
  });

  it("refuses two different searches, in the address and the body or repeated in either, with a field message", async () => {
    const url = `/api/dashboard/getPapersByCategory/${categoryId}?page=2`;
    for (const [address, body] of [
      [`${url}&search=harbour`, { search: WORD }],
      [url, { search: [WORD, "harbour"] }],
      [`${url}&search=${WORD}&search=harbour`, {}],
    ] as const) {
      const res = await papers(address, body);
      expect(res.status, `${address} ${JSON.stringify(body)}`).toBe(422);
      expect(res.json?.errors).toEqual(TWICE);
    }
  });
});
