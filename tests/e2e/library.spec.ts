import type { Page } from "@playwright/test";
import { ADMIN, expect, expectAccessible, MEMBER, signIn, test, waitForHydration } from "./fixtures";

/**
 * The document library (issue 14 'Browse') on the demo content: a member goes from the members'
 * home through tabs and an accordion, sorts, searches and downloads; a visitor reads a public
 * category and is refused the members' files; the lists work without JavaScript too.
 */

async function signInAsMember(page: Page) {
  await page.goto("/login");
  await signIn(page, MEMBER);
  await expect(page).toHaveURL(/\/dashboard$/);
}

const library = (page: Page) => page.getByRole("region", { name: "Document library" });
const breadcrumb = (page: Page) => page.getByRole("navigation", { name: "Breadcrumb" });

test("a member browses from the dashboard through tabs and an accordion", async ({ page }) => {
  await signInAsMember(page);
  await expect(library(page).getByRole("heading", { name: "Document library" })).toBeVisible();
  await expect(page.locator('a[href="/dashboard/library"]')).toHaveCount(0);
  await expectAccessible(page);

  // Tabs: the bulletins' sections.
  await library(page)
    .getByRole("link", { name: /Technical bulletins/ })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/technical-bulletins$/);
  await expect(breadcrumb(page)).toContainText("Technical bulletins");
  const tabs = page.getByRole("navigation", { name: /sections/ });
  const first = tabs.getByRole("link").first();
  await expect(first).toHaveAttribute("aria-current", "page");
  const second = tabs.getByRole("link").nth(1);
  await second.click();
  await expect(page).toHaveURL(/\?tab=technical-bulletins-/);
  await expect(second).toHaveAttribute("aria-current", "page");
  await expect(first).not.toHaveAttribute("aria-current", "page");
  await expect(page.locator('li[id^="paper-"]').first()).toBeVisible();
  await expectAccessible(page);

  // Accordion: the technical papers' working groups.
  await page.goto("/dashboard");
  await library(page)
    .getByRole("link", { name: /Technical papers/ })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/technical-papers$/);
  const radio = page.locator("details").filter({ hasText: "Radiocommunications" });
  await expect(radio).not.toHaveAttribute("open", "");
  await radio.locator("summary").click();
  await expect(radio).toHaveAttribute("open", "");
  await expect(
    radio.getByRole("heading", { name: "VDES satellite component: link budget and coverage" }),
  ).toBeVisible();
  await expectAccessible(page);
});

test("a member sorts and searches a list, and the URL keeps it", async ({ page }) => {
  await signInAsMember(page);
  await page.goto("/dashboard/technical-papers");
  const radio = page.locator("details").filter({ hasText: "Radiocommunications" });
  await radio.locator("summary").click();
  const numbers = () =>
    radio
      .locator('li[id^="paper-"] dl div:has(dt:text-is("Doc No.")) dd')
      .evaluateAll((els) => els.map((el) => el.textContent ?? ""));

  // The sort applies at once (no button needed with JavaScript) and lands in the URL.
  await radio.getByLabel("Sort by").selectOption({ label: "Doc No. asc" });
  await expect(page).toHaveURL(/list=technical-papers-radiocommunications.*sort=no_asc/);
  const sortedRadio = page.locator("details[open]").filter({ hasText: "Radiocommunications" });
  await expect(sortedRadio.getByLabel("Sort by")).toHaveValue("no_asc");
  const asc = await numbers();
  expect(asc.length).toBeGreaterThan(1);
  expect(asc).toEqual([...asc].sort());

  await sortedRadio.getByLabel("Search the documents").fill("budget");
  await sortedRadio.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/search=budget/);
  await expect(page).toHaveURL(/sort=no_asc/);
  const searched = page.locator("details[open]").filter({ hasText: "Radiocommunications" });
  await expect(searched.getByText(/\d+ documents? matching “budget”/)).toBeVisible();
  await expect(
    searched.getByRole("heading", { name: "VDES satellite component: link budget and coverage" }),
  ).toBeVisible();
  await expect(searched.getByRole("heading", { name: "Shore-based maintenance of GMDSS equipment" })).toHaveCount(0);

  // Reloading the address shows the same list: the state is the URL's.
  await page.reload();
  await expect(page.locator("details[open]").getByLabel("Search the documents")).toHaveValue("budget");
});

test("a member finds a word that is only inside the PDFs, with its page, and every result leads somewhere", async ({
  page,
}) => {
  await signInAsMember(page);
  // "consultation" is in the policies' documents (their review clause), in none of their fields.
  await page.goto("/dashboard/policies?search=consultation");
  const hit = page.locator('li[id^="paper-"]').first();
  await expect(hit.locator("mark").first()).toHaveText(/consultation/i);
  const atPage = hit.getByRole("link", { name: /Found on page \d+/ });
  await expect(atPage).toHaveAttribute("href", /^\/papers\/\d+\/view#page=\d+$/);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    hit.getByRole("link", { name: /^Download/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);

  // The site search finds it too, as a page of the document; no result is a dead link.
  await page.goto("/search?q=consultation");
  const results = page
    .locator("main")
    .getByRole("link")
    .filter({ hasText: /· page \d+/ });
  await expect(results.first()).toBeVisible();
  // The page's address is the document, loaded by the browser (shown in its PDF viewer, or
  // downloaded where it has none), never the app's own 404 page. Whichever happens is waited for,
  // not a fixed time for a download that Chromium's viewer never starts.
  const opened = Promise.race([page.waitForEvent("download"), page.waitForURL(/\/papers\/\d+\/view#page=\d+$/)]);
  await results.first().click();
  await opened;
  await expect(page.getByText("This page could not be found")).toHaveCount(0);
  for (const query of ["consultation", "radar", "gmdss", "standards"]) {
    await page.goto(`/search?q=${query}`);
    const hrefs = await page
      .locator("main ol a, main ul a")
      .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
    for (const href of hrefs.filter((h) => h.startsWith("/"))) {
      const response = await page.request.get(href.split("#")[0]);
      expect(response.status(), href).toBe(200);
    }
  }
});

test("a member downloads a paper's PDF", async ({ page }) => {
  await signInAsMember(page);
  await page.goto("/dashboard/policies");
  const link = page
    .locator('li[id^="paper-"]')
    .first()
    .getByRole("link", { name: /^Download/ });
  await expect(link).toContainText(/PDF, [\d.]+ (KB|MB)/);
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  expect(await download.failure()).toBeNull();
});

test("a visitor reads a public category and is refused a members-only file and category", async ({ page, browser }) => {
  // A members-only paper's address, as a member sees it.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await memberPage.goto("/login");
  await signIn(memberPage, MEMBER);
  await expect(memberPage).toHaveURL(/\/dashboard$/);
  await memberPage.goto("/dashboard/policies");
  const href = await memberPage
    .locator('li[id^="paper-"]')
    .first()
    .getByRole("link", { name: /^Download/ })
    .getAttribute("href");
  await memberContext.close();
  expect(href).toMatch(/^\/papers\/\d+\/download$/);

  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Document library" }).click();
  await expect(page).toHaveURL(/\/library$/);
  await page.getByRole("link", { name: /Recently published standards/ }).click();
  await expect(page).toHaveURL(/\/library\/recently-published-standards$/);
  await expect(breadcrumb(page)).toContainText("Recently published standards");
  await expect(page.locator('li[id^="paper-"]').first()).toBeVisible();
  await expect(page.getByLabel("Sort by")).toContainText("Org asc");

  const refused = await page.request.get(href as string);
  expect(refused.status()).toBe(404);
  const hidden = await page.goto("/library/policies");
  expect(hidden?.status()).toBe(404);
  await expect(page.getByText("This page could not be found")).toBeVisible();
});

test("a visitor loads more of a long public list in place, each paper once, and a search keeps its own pages", async ({
  page,
  request,
}) => {
  // A public category longer than one page (20), built through the admin API and removed again.
  const login = await request.post("/api/login", { data: ADMIN, headers: { Accept: "application/json" } });
  const admin = { Authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
  const created = await request.post("/api/dashboard/papers-categories", {
    data: { name: "E2E long public list", is_public: true },
    headers: admin,
  });
  expect(created.status()).toBe(201);
  const { id, slug } = ((await created.json()) as { category: { id: number; slug: string } }).category;
  const paperIds: number[] = [];
  try {
    for (let n = 1; n <= 27; n++) {
      const paper = await request.post("/api/dashboard/papers", {
        data: {
          papers_category_id: id,
          name: `Long list paper ${String(n).padStart(2, "0")} ${n % 9 === 0 ? "withdrawn" : "current"}`,
          number: `LL-${n}`,
          organization: "E2E Standards Body",
        },
        headers: admin,
      });
      expect(paper.status()).toBe(201);
      paperIds.push(((await paper.json()) as { paper: { id: number } }).paper.id);
    }

    await page.goto(`/library/${slug}`);
    await waitForHydration(page);
    const papers = page.locator('li[id^="paper-"]');
    await expect(papers).toHaveCount(20);
    await page.getByRole("link", { name: "Load more" }).click();
    await expect(papers).toHaveCount(27);
    await expect(page.getByRole("link", { name: "Load more" })).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`/library/${slug}$`));
    const shown = await papers.evaluateAll((items) => items.map((item) => item.id));
    expect(new Set(shown).size).toBe(27);
    expect(shown.sort()).toEqual(paperIds.map((paperId) => `paper-${paperId}`).sort());

    // A search that still needs a second page: Load more brings only its matches.
    await page.goto(`/library/${slug}?search=current`);
    await waitForHydration(page);
    await expect(papers).toHaveCount(20);
    await page.getByRole("link", { name: "Load more" }).click();
    await expect(papers).toHaveCount(24);
    await expect(papers.filter({ hasText: "withdrawn" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Load more" })).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`/library/${slug}\\?search=current$`));
  } finally {
    for (const paperId of paperIds) await request.delete(`/api/dashboard/papers/${paperId}`, { headers: admin });
    await request.post(`/api/dashboard/papers-categories-delete/${id}`, { headers: admin });
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a visitor sorts and searches a public list with the form, and the URL keeps it", async ({ page }) => {
    await page.goto("/library/recently-published-standards");
    await page.getByLabel("Sort by").selectOption("organization_desc");
    await page.getByLabel("Search the documents").fill("radar");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/sort=organization_desc/);
    await expect(page).toHaveURL(/search=radar/);
    await expect(page.getByLabel("Sort by")).toHaveValue("organization_desc");
    await expect(page.getByText(/\d+ documents? matching “radar”/)).toBeVisible();

    // A sort this list does not offer shows the default order, never an error page.
    const bad = await page.goto("/library/recently-published-standards?sort=no_asc");
    expect(bad?.status()).toBe(200);
    await expect(page.getByText(/cannot be sorted by “no_asc”/)).toBeVisible();
  });
});

test("a visitor finds a public category's feed from its page (issue 33)", async ({ page, request }) => {
  await page.goto("/library/recently-published-standards");
  const link = page.getByRole("link", { name: "Feed of new documents (Atom)" });
  await expect(link).toBeVisible();
  await expectAccessible(page);
  const feed = await request.get((await link.getAttribute("href")) as string);
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toBe("application/atom+xml; charset=utf-8");
  expect(await feed.text()).toContain("<entry>");
});
