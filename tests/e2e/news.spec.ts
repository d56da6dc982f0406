import type { Page } from "@playwright/test";
import { expect, expectAccessible, test, waitForHydration } from "./fixtures";

const cards = (page: Page) => page.locator("main ul > li article");

test("a visitor loads more news, filters by month, searches and opens an article", async ({ page }) => {
  await page.goto("/news");
  await expect(page.getByRole("heading", { level: 1, name: "News from the association" })).toBeVisible();
  await expect(page.getByText("36 posts")).toBeVisible();
  await expect(cards(page)).toHaveCount(9);
  await expectAccessible(page);
  // A card's picture comes in the width it is shown at, not the 1600 px upload.
  const picture = cards(page).first().locator("img");
  await expect(picture).toHaveAttribute("srcset", /-480\.webp 480w, .*-960\.webp 960w, .*-1600\.webp 1600w$/);
  expect(await picture.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/-480\.webp$/);

  // Load more appends the next page in place.
  await waitForHydration(page);
  await page.getByRole("link", { name: "Load more" }).click();
  await expect(cards(page)).toHaveCount(18);
  await expect(page).toHaveURL(/\/news$/);

  // The current month is labelled This month; choosing a month narrows the list at once and lives in the URL.
  const monthSelect = page.getByRole("combobox", { name: "Month" });
  await expect(monthSelect.getByRole("option", { name: "This month" })).toHaveCount(1);
  const label = (await monthSelect.locator("option").nth(2).textContent()) ?? "";
  await monthSelect.selectOption({ label });
  await expect(page).toHaveURL(/\?month=\d{2}-\d{4}$/);
  await expect(page.getByText(new RegExp(`posts? in ${label}`))).toBeVisible();
  const inMonth = await cards(page).count();
  expect(inMonth).toBeGreaterThan(0);
  expect(inMonth).toBeLessThan(9);

  // Search inside the news.
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(page).toHaveURL(/\/news$/);
  await expect(page.getByText("36 posts")).toBeVisible();
  await page.getByRole("searchbox", { name: "Search the news" }).fill("Rotterdam");
  await page.getByRole("searchbox", { name: "Search the news" }).press("Enter");
  await expect(page).toHaveURL(/\?q=Rotterdam$/);
  const first = cards(page).first();
  await expect(first).toContainText(/Rotterdam/i);

  // Open the article: title, image with its size, latest posts.
  const title = (await first.getByRole("heading").textContent()) ?? "";
  await first.getByRole("link").click();
  await expect(page).toHaveURL(/\/post\/[a-z0-9-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  const image = page.locator("article > img");
  await expect(image).toHaveAttribute("width", /\d+/);
  await expect(image).toHaveAttribute("height", /\d+/);
  await expect(page.getByRole("heading", { name: "Latest posts" })).toBeVisible();
  await expect(page.locator("aside article")).toHaveCount(4);
  await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveAttribute(
    "href",
    "/news/rss.xml",
  );
  await expectAccessible(page);
});

test("an unknown article is the 404 page; a bad month filter a clear 422 (as in the API)", async ({ page }) => {
  const missing = await page.goto("/post/no-such-article");
  expect(missing?.status()).toBe(404);
  await expect(page.getByText("This page could not be found")).toBeVisible();
  const bad = await page.goto("/news?month=13-2026");
  expect(bad?.status()).toBe(422);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("load-more is a next-page link", async ({ page }) => {
    await page.goto("/news");
    await page.getByRole("link", { name: "Load more" }).click();
    await expect(page).toHaveURL(/\/news\?page=2$/);
    await expect(cards(page)).toHaveCount(9);
  });

  test("the filter form applies month and search together", async ({ page }) => {
    await page.goto("/news");
    const filters = page.getByRole("search", { name: "Filter the news" });
    await filters.getByRole("combobox", { name: "Month" }).selectOption({ index: 2 });
    await filters.getByRole("searchbox", { name: "Search the news" }).fill("conference");
    await filters.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/news\?month=\d{2}-\d{4}&q=conference$/);
    await expect(page.getByText(/posts? in .+ matching “conference”/)).toBeVisible();
  });
});

test("the feeds list the latest posts", async ({ request }) => {
  const rss = await request.get("/news/rss.xml");
  expect(rss.headers()["content-type"]).toContain("application/rss+xml");
  const body = await rss.text();
  expect(body.match(/<item>/g)?.length).toBe(9);
  const atom = await (await request.get("/news/atom.xml")).text();
  expect(atom).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
  const sitemap = await (await request.get("/sitemap.xml")).text();
  expect(sitemap.match(/\/post\//g)?.length).toBe(36);
});
