import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures";

/**
 * Issue 31 'The directory' in Chromium, on the demo data: the directory's filters live in the URL
 * and work with and without JavaScript, each company has a page with schema.org JSON-LD, and a
 * company that has left answers the site's 404 page.
 */

/** Screenshots at a phone's and a desktop's width, when SCREENSHOTS names a folder (to look at, not compared). */
async function shoot(page: Page, name: string) {
  const dir = process.env.SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** The companies the directory shows, by name. */
const cards = (page: Page) => page.locator("#members-list > li");

async function filterNorwayRadar(page: Page) {
  await page.goto("/members-list");
  await expect(page.getByRole("heading", { level: 1, name: "List of Members" })).toBeVisible();
  const form = page.getByRole("search", { name: "Filter the member companies" });
  await form.getByLabel("Country").selectOption("Norway");
  await form.getByLabel("Product", { exact: true }).selectOption("Radar");
  await form.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/[?&]country=NO\b/);
  await expect(page).toHaveURL(/[?&]product=radar\b/);
  await expect(page.getByText(/member compan(y|ies) match(es)? the filter: in Norway, listing Radar/)).toBeVisible();
  // The form shows what is applied.
  await expect(form.getByLabel("Country")).toHaveValue("NO");
  await expect(form.getByLabel("Product", { exact: true })).toHaveValue("radar");
  const shown = await cards(page).allInnerTexts();
  expect(shown.length).toBeGreaterThanOrEqual(1);
  for (const text of shown) {
    expect(text).toContain("Norway");
    expect(text).toContain("Radar");
  }
}

async function openFirstCompany(page: Page) {
  const first = cards(page).first().getByRole("heading", { level: 2 }).getByRole("link");
  const name = (await first.textContent())?.trim() ?? "";
  await first.click();
  await expect(page).toHaveURL(/\/members-list\/[\w-]+$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("Member since", { exact: true })).toBeVisible();
  await expect(page.getByRole("img", { name: `${name} logo` })).toBeVisible();
  const json = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
  expect(json).toMatchObject({ "@type": "Organization", name, address: { addressCountry: "NO" } });
  return name;
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the directory filters by country and product in the URL, and leads to a company's page", async ({ page }) => {
    // axe runs in the page's JavaScript: the same pages are checked in the test with JavaScript below.
    await filterNorwayRadar(page);
    await openFirstCompany(page);
  });
});

test.describe("with JavaScript", () => {
  test("the directory filters by country and product, loads more, and leads to a company's page", async ({ page }) => {
    await page.goto("/members-list");
    // More than a page of current companies: Load more appends the next page in place.
    await expect(cards(page)).toHaveCount(24);
    await page.getByRole("link", { name: "Load more" }).click();
    await expect.poll(() => cards(page).count()).toBeGreaterThan(24);
    await expect(page).toHaveURL(/\/members-list$/);

    await filterNorwayRadar(page);
    await expectAccessible(page);
    await shoot(page, "members-list");
    const name = await openFirstCompany(page);
    await expectAccessible(page);
    await shoot(page, "member-company");
    // A product on the company's page leads back to the directory, filtered by it.
    await page.getByRole("link", { name: /^Radar/ }).click();
    await expect(page).toHaveURL(/\/members-list\?product=radar$/);
    await expect(cards(page).filter({ hasText: name })).toHaveCount(1);
  });

  test("a company that has left is neither listed nor has a page", async ({ page }) => {
    await page.goto("/members-list?q=Malacca");
    await expect(page.getByText("No member company matches the filter.")).toBeVisible();
    const response = await page.goto("/members-list/malacca-strait-electronics-sdn-bhd");
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle(/404/);
  });
});
