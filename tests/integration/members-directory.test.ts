import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FILTER_REFUSED } from "../../app/components/members/directory";
import { type CompanyCreate, MEMBERS_PER_PAGE } from "../../core/members/members.schema";
import { addDays } from "../../core/members/members.values";
import { dateIn } from "../../lib/time-zones";
import { PAGE_CACHE_HEADER } from "../../server/middleware/page-cache";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { pagesApp } from "../support/pages";

/**
 * Issue 31 'The directory': /members-list lists current companies only, with search, country,
 * type and product in the URL (a GET form, no JavaScript needed) and pages; each company has its
 * page at /members-list/{slug} with schema.org Organization JSON-LD; company pages are in the
 * sitemap and the site search. A lapsed, suspended or left company answers 404 and leaves the
 * list, the sitemap and the search on its own: the tests change its row straight in the
 * database, as time passing would, with no request of ours in between.
 */
let t: TestContext;
let pages: TestContext["app"];
let closePages: (() => Promise<void>) | undefined;
const today = () => dateIn(new Date(), "Europe/London");
const slugs: Record<string, string> = {};
const ids: Record<string, number> = {};

const get = (url: string, options: Parameters<typeof call>[3] = {}) => call(pages, "GET", url, options);
const textOf = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
/** The names of the companies a directory page lists, in its order. */
const listed = (html: string) =>
  [...html.matchAll(/<h2[^>]*><a[^>]*href="\/members-list\/[^"]+"[^>]*>([^<]+)<\/a><\/h2>/g)].map((m) => m[1]);
const jsonLd = (html: string) => {
  const script = /<script type="application\/ld\+json"[^>]*>([^<]*)<\/script>/.exec(html);
  return script ? (JSON.parse(script[1]) as Record<string, unknown>) : null;
};
const searchUrls = async (query: string, token?: string) => {
  const res = await call(t.app, "GET", `/api/search?search_query=${encodeURIComponent(query)}`, token ? { token } : {});
  expect(res.status).toBe(200);
  return ((res.json?.results ?? []) as { url: string }[]).map((r) => r.url);
};
const sitemap = async () => {
  const res = await get("/sitemap.xml");
  expect(res.status).toBe(200);
  return res.text;
};
/** The company's row changed in the database alone, as a lapse by the date is. */
const setRow = (key: string, values: { renews_on?: string | null; status?: "active" | "suspended" | "left" }) =>
  t.database.db.updateTable("member_companies").set(values).where("id", "=", ids[key]).execute();

async function company(key: string, input: Partial<CompanyCreate> & { name: string }, logo?: Uint8Array) {
  const created = await t.runtime.services.members.create(
    { country: "NO", member_since: "2004-03-01", products: [], ...input } as CompanyCreate,
    logo,
  );
  slugs[key] = created.slug;
  ids[key] = created.id;
}

beforeAll(async () => {
  t = await createTestContext();
  ({ pages, close: closePages } = await pagesApp(t));
  const logo = await sharp({ create: { width: 600, height: 300, channels: 3, background: "#1c4a7d" } })
    .png()
    .toBuffer();
  await company(
    "aurora",
    {
      name: "Aurora Radar AS",
      country: "NO",
      website: "https://aurora.example",
      products: ["Radar", "AIS"],
      description: '<p>Radars for <strong>fishing fleets</strong>.</p><script>alert("x")</script>',
    },
    new Uint8Array(logo),
  );
  await company("baltic", {
    name: "Baltic Charts Oy",
    country: "FI",
    membership_type: "associate",
    products: ["ECDIS"],
  });
  await company("coral", { name: "Coral Sonar Pty Ltd", country: "AU", products: ["Sonar", "Radar"] });
  await company("grace", {
    name: "Grace Period Marine Ltd",
    country: "GB",
    products: ["Radar"],
    renews_on: addDays(today(), -10),
    member_since: "2001-01-01",
  });
  await company("lapsed", {
    name: "Lapsed Beacon Ltd",
    country: "GB",
    products: ["Radar"],
    renews_on: addDays(today(), -100),
    member_since: "2001-01-01",
  });
  await company("suspended", { name: "Suspended Gyro GmbH", country: "DE", products: ["Radar"], status: "suspended" });
  await company("left", { name: "Left Satcom SA", country: "FR", products: ["Radar"], status: "left" });
  // Enough companies with one product for two pages of it.
  for (let i = 1; i <= MEMBERS_PER_PAGE + 1; i++) {
    await company(`fleet${i}`, {
      name: `Fleet ${String(i).padStart(2, "0")} Systems`,
      country: "NL",
      products: ["Hull sensors"],
    });
  }
}, 120_000);
afterAll(async () => {
  await closePages?.();
  await t.close();
});

describe("the directory at /members-list", () => {
  it("lists current companies only, with logos (alt text) and links to their pages", async () => {
    const res = await get("/members-list?country=NO");
    expect(res.status).toBe(200);
    expect(listed(res.text)).toEqual(["Aurora Radar AS"]);
    expect(res.text).toContain(`href="/members-list/${slugs.aurora}"`);
    expect(res.text).toMatch(/<img[^>]+alt="Aurora Radar AS logo"/);
    const gb = await get("/members-list?country=GB");
    // In its grace period a company is current; past it, not.
    expect(listed(gb.text)).toEqual(["Grace Period Marine Ltd"]);
    for (const country of ["DE", "FR"])
      expect(listed((await get(`/members-list?country=${country}`)).text)).toEqual([]);
  });

  it("offers only current companies' countries and products as choices", async () => {
    const res = await get("/members-list");
    const countries = /<select id="members-country"[\s\S]*?<\/select>/.exec(res.text)?.[0] ?? "";
    expect(textOf(countries)).toContain("Australia");
    expect(countries).not.toContain("Germany");
    expect(countries).not.toContain("France");
    const products = /<select id="members-product"[\s\S]*?<\/select>/.exec(res.text)?.[0] ?? "";
    expect(products).toContain('value="ecdis"');
    expect(products).toContain('value="hull sensors"');
  });

  it("filters by country, type, product (any case) and search, all in the URL, shown back in the form", async () => {
    expect(listed((await get("/members-list?country=fi")).text)).toEqual(["Baltic Charts Oy"]);
    expect(listed((await get("/members-list?type=associate")).text)).toEqual(["Baltic Charts Oy"]);
    expect(listed((await get("/members-list?product=Radar")).text)).toEqual([
      "Aurora Radar AS",
      "Coral Sonar Pty Ltd",
      "Grace Period Marine Ltd",
    ]);
    // The search looks in names and products.
    expect(listed((await get("/members-list?q=sonar")).text)).toEqual(["Coral Sonar Pty Ltd"]);
    const both = await get("/members-list?q=&country=AU&type=full&product=radar");
    expect(listed(both.text)).toEqual(["Coral Sonar Pty Ltd"]);
    expect(textOf(both.text)).toContain(
      "1 member company matches the filter: in Australia, full members, listing Radar",
    );
    expect(both.text).toMatch(/<option value="AU" selected="">Australia<\/option>/);
    expect(both.text).toMatch(/<option value="full" selected="">Full member<\/option>/);
    expect(both.text).toMatch(/<option value="radar" selected="">Radar<\/option>/);
    // A plain GET form: the filter works without JavaScript.
    const form = /<form[^>]*aria-label="Filter the member companies"[^>]*>/.exec(both.text)?.[0] ?? "";
    expect(form).toContain('method="get"');
    expect(form).toContain('action="/members-list"');
    const none = await get("/members-list?country=JP");
    expect(textOf(none.text)).toContain("No member company matches the filter.");
  });

  it("refuses a filter it cannot read with 422, never a 500", async () => {
    for (const query of ["type=gold", "country=Norway", "page=0"]) {
      const res = await get(`/members-list?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.text).toContain(FILTER_REFUSED);
    }
  });

  it("pages as the other public lists: a Load more link to the next page with the filter kept", async () => {
    const first = await get("/members-list?product=hull%20sensors");
    expect(listed(first.text)).toHaveLength(MEMBERS_PER_PAGE);
    expect(textOf(first.text)).toContain(`${MEMBERS_PER_PAGE + 1} member companies`);
    expect(first.text).toContain("/members-list?product=hull+sensors&amp;page=2");
    const second = await get("/members-list?product=hull+sensors&page=2");
    expect(listed(second.text)).toEqual([`Fleet ${MEMBERS_PER_PAGE + 1} Systems`]);
    expect(second.text).not.toContain("page=3");
  });
});

describe("a company's page at /members-list/{slug}", () => {
  it("shows a current company: logo, sanitized description, website, country by name, products, member since", async () => {
    const res = await get(`/members-list/${slugs.aurora}`);
    expect(res.status).toBe(200);
    const text = textOf(res.text);
    expect(text).toContain("Aurora Radar AS");
    expect(res.text).toContain("Radars for <strong>fishing fleets</strong>.");
    expect(res.text).not.toContain('alert("x")');
    expect(res.text).toMatch(/<a[^>]+href="https:\/\/aurora\.example"/);
    expect(text).toContain("Country Norway");
    expect(text).toContain("Member since 1 March 2004");
    expect(res.text).toContain('href="/members-list?product=radar"');
    expect(res.text).toMatch(/<img[^>]+alt="Aurora Radar AS logo"/);
    expect(res.text).toContain(`<link rel="canonical" href="${ORIGIN}/members-list/${slugs.aurora}"/>`);
    expect(res.text).toContain("<title>Aurora Radar AS · ");
    expect((await get(`/members-list/${slugs.grace}`)).status).toBe(200);
  });

  it("answers the site's 404 page for a lapsed, suspended, left or unknown company", async () => {
    for (const slug of [slugs.lapsed, slugs.suspended, slugs.left, "no-such-company"]) {
      const res = await get(`/members-list/${slug}`);
      expect(res.status, slug).toBe(404);
      expect(res.text, slug).toContain("Page not found");
      expect(res.text, slug).not.toContain("application/ld+json");
    }
  });

  it("carries schema.org Organization JSON-LD, with nothing that could end its script", async () => {
    const html = (await get(`/members-list/${slugs.aurora}`)).text;
    const page = `${ORIGIN}/members-list/${slugs.aurora}`;
    expect(jsonLd(html)).toEqual({
      "@context": "https://schema.org",
      "@type": "Organization",
      "@id": `${page}#organization`,
      name: "Aurora Radar AS",
      mainEntityOfPage: page,
      url: "https://aurora.example",
      sameAs: ["https://aurora.example"],
      logo: expect.stringMatching(new RegExp(`^${ORIGIN}/uploads/members/[\\w-]+\\.webp$`)),
      description: "Radars for fishing fleets.",
      address: { "@type": "PostalAddress", addressCountry: "NO" },
      knowsAbout: ["Radar", "AIS"],
      memberOf: { "@type": "Organization", name: expect.any(String), url: ORIGIN },
    });
    await t.runtime.services.members.update(ids.coral, {
      description: "<p>Sonar &lt;/script&gt; experts</p>",
      remove_logo: false,
    });
    const coral = (await get(`/members-list/${slugs.coral}`)).text;
    expect(coral).toContain("\\u003c/script>");
    expect(jsonLd(coral)?.description).toBe("Sonar </script> experts");
  });

  it("is cached as the other public pages: one render per address for visitors, per role for members; a 404 never", async () => {
    const url = `/members-list/${slugs.baltic}`;
    expect((await get(url)).headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    expect((await get(url)).headers.get(PAGE_CACHE_HEADER)).toBe("hit");
    const member = await signIn(t.runtime.services, "member");
    expect((await get(url, { cookie: member.cookie })).headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    expect((await get(url, { cookie: member.cookie })).headers.get(PAGE_CACHE_HEADER)).toBe("hit");
    const gone = `/members-list/${slugs.left}`;
    await get(gone);
    expect((await get(gone)).headers.get(PAGE_CACHE_HEADER)).not.toBe("hit");
  });
});

describe("company pages in the sitemap and the site search", () => {
  it("the sitemap lists current companies' pages only", async () => {
    const xml = await sitemap();
    for (const key of ["aurora", "baltic", "coral", "grace"]) {
      expect(xml).toContain(`<loc>${ORIGIN}/members-list/${slugs[key]}</loc>`);
    }
    for (const key of ["lapsed", "suspended", "left"]) expect(xml).not.toContain(`/members-list/${slugs[key]}<`);
  });

  it("the site search finds current companies at their pages, for visitors and members alike", async () => {
    const member = await signIn(t.runtime.services, "member");
    for (const token of [undefined, member.token]) {
      const urls = await searchUrls("Radar", token);
      expect(urls).toEqual(expect.arrayContaining([`/members-list/${slugs.aurora}`, `/members-list/${slugs.grace}`]));
      for (const key of ["lapsed", "suspended", "left"]) expect(urls).not.toContain(`/members-list/${slugs[key]}`);
    }
    // Its products, country and description are found too.
    expect(await searchUrls("fishing fleets")).toEqual([`/members-list/${slugs.aurora}`]);
    expect(await searchUrls("Finland")).toContain(`/members-list/${slugs.baltic}`);
  });

  it("a company that lapses or leaves drops out of the page, the list, the sitemap and the search on its own, and comes back renewed", async () => {
    const url = `/members-list/${slugs.coral}`;
    await setRow("coral", { renews_on: addDays(today(), -100) });
    // A new address each time: the page cache keeps a page up to its time to live, as every public page.
    expect((await get(`${url}?after=lapse`)).status).toBe(404);
    expect(listed((await get("/members-list?country=AU&after=lapse")).text)).toEqual([]);
    expect(await sitemap()).not.toContain(url);
    expect(await t.runtime.services.search.search("Coral Sonar", { signedIn: false })).toEqual([]);

    await setRow("coral", { renews_on: addDays(today(), 100) });
    expect((await get(`${url}?after=renewal`)).status).toBe(200);
    expect(await sitemap()).toContain(url);
    expect((await t.runtime.services.search.search("Coral Sonar", { signedIn: false })).map((r) => r.url)).toEqual([
      url,
    ]);

    await setRow("coral", { status: "left" });
    expect((await get(`${url}?after=leaving`)).status).toBe(404);
    expect(await sitemap()).not.toContain(url);
    expect(await t.runtime.services.search.search("Coral Sonar", { signedIn: true })).toEqual([]);
    await setRow("coral", { status: "active" });
  });

  it("keeps a company's search entry with its writes: renamed at the same page, gone once deleted", async () => {
    await t.runtime.services.members.update(ids.baltic, { name: "Baltic Chartworks Oy", remove_logo: false });
    const found = await t.runtime.services.search.search("Chartworks", { signedIn: false });
    expect(found.map((r) => [r.url, r.title, r.subtitle])).toEqual([
      [`/members-list/${slugs.baltic}`, "Baltic Chartworks Oy", "Members"],
    ]);
    await t.runtime.services.members.remove(ids.baltic);
    expect(await t.runtime.services.search.search("Chartworks", { signedIn: false })).toEqual([]);
    const left = await t.database.db
      .selectFrom("search_documents")
      .select("id")
      .where("kind", "=", "member")
      .where("ref_id", "=", String(ids.baltic))
      .execute();
    expect(left).toEqual([]);
  });
});
