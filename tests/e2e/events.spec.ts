import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures";

const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });
const section = (page: Page, name: string | RegExp) => page.getByRole("region", { name, exact: true });
const cards = (page: Page, name: string | RegExp) => section(page, name).locator("ul > li article");
const startDates = async (page: Page, name: string) =>
  section(page, name)
    .locator("article time")
    .evaluateAll((els) => els.map((el) => el.getAttribute("datetime") ?? ""));

test("the Meetings submenu opens the events calendar, the conference and the workshop", async ({ page }) => {
  await page.goto("/");
  for (const [label, path, title] of [
    ["Events Calendar", "/events", /^Events Calendar$/],
    ["Annual Conference", "/conference", /^Masthead Annual Conference \d{4}$/],
    ["Annual Technical Workshop", "/workshop", /^Annual Technical Workshop \d{4}$/],
  ] as const) {
    await mainNav(page).getByRole("button", { name: "Meetings" }).click();
    await mainNav(page).getByRole("link", { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  }
});

test("the conference page shows its programme by day, its sponsors and the register slot", async ({ page }) => {
  await page.goto("/conference");
  await expect(page).toHaveTitle(/^Masthead Annual Conference \d{4} · Masthead$/);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/conference$/);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);

  // The first picture is the page's picture, with its size so that nothing moves when it arrives.
  const picture = page.locator("main img[fetchpriority=high]");
  await expect(picture).toHaveAttribute("width", /\d+/);
  await expect(picture).toHaveAttribute("height", /\d+/);

  // The programme: one table per day, with column and row headers; evening sessions say so.
  const programme = section(page, "Programme");
  const days = programme.getByRole("table");
  expect(await days.count()).toBeGreaterThanOrEqual(3);
  const firstDay = days.first();
  await expect(firstDay).toHaveAccessibleName(/^Monday \d+ \w+ \d{4}/);
  await expect(firstDay.getByRole("columnheader", { name: "Time" })).toBeVisible();
  await expect(firstDay.getByRole("columnheader", { name: "Session" })).toBeVisible();
  await expect(firstDay.getByRole("rowheader").first()).toHaveText("08:30–09:00");
  await expect(firstDay.getByRole("row", { name: /Evening/ })).toContainText("Welcome reception");

  // Sponsors: logos named after the sponsor, each opening the sponsor's site in a new tab.
  const sponsors = section(page, "Sponsors").getByRole("link");
  expect(await sponsors.count()).toBeGreaterThanOrEqual(3);
  for (const link of await sponsors.all()) {
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", "noopener noreferrer");
    await expect(link).toHaveAttribute("href", /^https?:\/\//);
    await expect(link.getByRole("img")).toHaveAttribute("alt", /\w/);
  }
  await expect(section(page, "Sponsors").getByRole("img", { name: "Zeeland Radio Services B.V." })).toBeVisible();

  // The registration form will sit in this block; the Register buttons lead there.
  const register = section(page, "Register");
  await expect(register).toHaveAttribute("id", "register");
  await expect(register).toContainText("Registration is open");
  await page.getByRole("link", { name: "Register" }).first().click();
  await expect(page).toHaveURL(/\/conference#register$/);
  await expect(register.getByRole("heading", { level: 2, name: "Register" })).toBeInViewport();

  await expectAccessible(page);
});

test("the events calendar lists upcoming events soonest first, then past ones newest first", async ({ page }) => {
  await page.goto("/events");
  await expect(page.getByRole("heading", { level: 1, name: "Events Calendar" })).toBeVisible();
  const upcoming = await startDates(page, "Upcoming events");
  const past = await startDates(page, "Past events");
  expect(upcoming.length).toBeGreaterThan(0);
  expect(upcoming).toEqual([...upcoming].sort());
  expect(past.length).toBeGreaterThan(0);
  expect(past).toEqual([...past].sort().reverse());
  // Each event shows its type, format and place.
  const first = cards(page, "Upcoming events").first();
  await expect(first).toContainText(/Conference|Workshop|Meeting|Webinar/);
  await expect(first).toContainText(/In person|Online|Hybrid/);
  await expectAccessible(page);

  // Load more appends the next page of past events in place.
  const shown = await cards(page, "Past events").count();
  await page.getByRole("link", { name: "Load more" }).click();
  await expect.poll(() => cards(page, "Past events").count()).toBeGreaterThan(shown);
  await expect(page).toHaveURL(/\/events$/);
});

test("choosing a type filters the calendar at once, in the URL", async ({ page }) => {
  await page.goto("/events");
  await page.getByRole("combobox", { name: "Type of event" }).selectOption({ label: "Webinars" });
  await expect(page).toHaveURL(/\/events\?type=webinar$/);
  await expect(page.getByText(/upcoming webinars? · \d+ past webinars?/)).toBeVisible();
  const all = page.locator("main article");
  expect(await all.count()).toBeGreaterThan(0);
  for (const text of await all.allInnerTexts()) expect(text).toContain("Webinar");
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(page).toHaveURL(/\/events$/);
  await expect(page.getByRole("combobox", { name: "Type of event" })).toHaveValue("");
});

test("a meeting opens from the calendar on its own page; an unknown one is the 404 page", async ({ page }) => {
  await page.goto("/events");
  const card = cards(page, "Past events").first();
  const title = (await card.getByRole("heading").textContent()) ?? "";
  await card.getByRole("link").click();
  await expect(page).toHaveURL(/\/events\/[a-z0-9-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link")).toHaveText("Events Calendar");
  await expect(page.getByText(/took place on/)).toBeVisible();
  await expect(section(page, "Register")).toBeVisible();

  const missing = await page.goto("/events/no-such-meeting");
  expect(missing?.status()).toBe(404);
  await expect(page.getByText("This page could not be found")).toBeVisible();
  expect((await page.goto("/events?type=party"))?.status()).toBe(400);
});

test("the site search finds meetings and leads to their page", async ({ page }) => {
  await page.goto("/news");
  await page.getByRole("searchbox").first().fill("Copenhagen workshop");
  const result = page
    .locator("[data-result]")
    .filter({ has: page.locator("span", { hasText: /^Meetings$/ }) })
    .first();
  await expect(result).toHaveAttribute("href", /^\/events\/annual-technical-workshop-\d{4}$/);
  await result.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Annual Technical Workshop \d{4}$/);
});

test("the home page shows the next three meetings", async ({ page }) => {
  await page.goto("/");
  const block = section(page, "Upcoming meetings");
  await expect(block.locator("article")).toHaveCount(3);
  const dates = await block.locator("article time").evaluateAll((els) => els.map((el) => el.getAttribute("datetime")));
  expect(dates).toEqual([...dates].sort());
  await block.locator("article").first().getByRole("link").click();
  await expect(page).toHaveURL(/\/(events\/[a-z0-9-]+|conference|workshop)$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("sitemap.xml lists the meeting pages", async ({ request }) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  for (const path of ["/events", "/conference", "/workshop"]) expect(sitemap).toContain(`${path}</loc>`);
  expect(sitemap.match(/\/events\/[a-z0-9-]+<\/loc>/g)?.length).toBeGreaterThanOrEqual(20);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the filter form applies the type with its button", async ({ page }) => {
    await page.goto("/events");
    const filters = page.getByRole("search", { name: "Filter the events" });
    await filters.getByRole("combobox", { name: "Type of event" }).selectOption({ label: "Conferences" });
    await filters.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/\/events\?type=conference$/);
    const all = page.locator("main article");
    expect(await all.count()).toBeGreaterThanOrEqual(2);
    for (const text of await all.allInnerTexts()) expect(text).toContain("Conference");
  });

  test("load-more is a next-page link to the older events", async ({ page }) => {
    await page.goto("/events");
    await page.getByRole("link", { name: "Load more" }).click();
    await expect(page).toHaveURL(/\/events\?page=2$/);
    await expect(section(page, "Upcoming events")).toHaveCount(0);
    expect(await cards(page, "Past events · page 2").count()).toBeGreaterThan(0);
    await expect(page.getByRole("link", { name: "Back to the upcoming events" })).toBeVisible();
  });
});
