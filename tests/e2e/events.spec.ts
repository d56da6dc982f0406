import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, MEMBER, signIn, test, waitForHydration } from "./fixtures";

/**
 * The events calendar and the meeting pages (issue 13): list and month views, filters, the
 * conference with its programme in its own zone and the viewer's, Add to calendar, JSON-LD,
 * registration, and the members' calendar with its members-only meetings.
 */

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

test("the conference page shows its programme by day in its zone, its sponsors, calendar links and JSON-LD", async ({
  page,
}) => {
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
  // Times in the conference's zone with that day's abbreviation; the zone named once over the programme.
  await expect(firstDay.getByRole("rowheader").first()).toHaveAccessibleName(/^08:30–09:00 CES?T\b/);
  await expect(programme.getByText(/^Times in Europe\/Amsterdam \(CES?T\)/)).toBeVisible();
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

  // Add to calendar: the .ics file, Google Calendar and Outlook with the meeting filled in.
  const calendar = page.getByRole("list", { name: "Add to calendar" });
  await expect(calendar.getByRole("link", { name: /Download \.ics/ })).toHaveAttribute(
    "href",
    /^\/events\/annual-conference-\d{4}\.ics$/,
  );
  // The visitor downloads it: a calendar file of this meeting, its programme in the meeting's zone.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    calendar.getByRole("link", { name: /Download \.ics/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^annual-conference-\d{4}\.ics$/);
  const ics = fs.readFileSync((await download.path()) as string, "utf8");
  expect(ics).toContain("BEGIN:VCALENDAR");
  expect(ics).toMatch(/SUMMARY:Masthead Annual Conference/);
  expect(ics).toMatch(/DTSTART;TZID=Europe\/[A-Za-z]+:\d{8}T\d{6}/);
  await expect(calendar.getByRole("link", { name: /^Google Calendar/ })).toHaveAttribute(
    "href",
    /^https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE&text=Masthead%20Annual%20Conference/,
  );
  await expect(calendar.getByRole("link", { name: /^Outlook/ })).toHaveAttribute(
    "href",
    /^https:\/\/outlook\.live\.com\/calendar\/0\/action\/compose\?subject=Masthead%20Annual%20Conference/,
  );

  // schema.org Event for search engines, in a script carrying the page's CSP nonce.
  const script = page.locator('script[type="application/ld+json"]');
  await expect(script).toHaveCount(1);
  expect(await script.evaluate((el) => (el as HTMLScriptElement).nonce)).toMatch(/\w{8,}/);
  const event = JSON.parse((await script.textContent()) ?? "{}");
  expect(event).toMatchObject({
    "@context": "https://schema.org",
    "@type": "Event",
    name: expect.stringMatching(/^Masthead Annual Conference \d{4}$/),
    startDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T08:30:00\+0[12]:00$/),
    endDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T17:00:00\+0[12]:00$/),
    eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
    location: { "@type": "Place", name: "Maaskade Congress Centre" },
    organizer: { "@type": "Organization", name: "Masthead" },
  });
  expect(event.image[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/uploads\//);

  // The registration form sits in the footer; the Register buttons lead to this block first.
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
  // The upcoming events are grouped under month headings.
  await expect(section(page, "Upcoming events").getByRole("heading", { level: 3 }).first()).toHaveText(
    /^[A-Z][a-z]+ \d{4}$/,
  );
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

test("a visitor switches to the month view, steps through months and opens the conference from its day", async ({
  page,
}) => {
  await page.goto("/events");
  await page.getByRole("navigation", { name: "Calendar view" }).getByRole("link", { name: "Month" }).click();
  await expect(page).toHaveURL(/\/events\?view=month$/);
  const grid = page.getByRole("table", { name: /^[A-Z][a-z]+ \d{4}$/ });
  await expect(grid.getByRole("columnheader")).toHaveCount(7);
  await expect(grid.getByRole("columnheader").first()).toHaveAccessibleName(/^Mon(day)?$/);
  await expect(grid.locator('td[aria-current="date"]')).toHaveCount(1);
  await expectAccessible(page);

  const title = (await page.locator("#month-title").textContent()) ?? "";
  await page.getByRole("link", { name: /^Next month, / }).click();
  await expect(page).toHaveURL(/view=month&month=\d{4}-\d{2}$/);
  await expect(page.locator("#month-title")).not.toHaveText(title);
  await expect(page.locator('td[aria-current="date"]')).toHaveCount(0);
  await page.getByRole("link", { name: "This month" }).click();
  await expect(page.locator("#month-title")).toHaveText(title);

  // The conference's month: its first day carries a link to it, reachable from the keyboard.
  await page.goto("/conference");
  const start = (await page.locator("main h1 ~ p time").first().getAttribute("datetime")) ?? "";
  await page.goto(`/events?view=month&month=${start.slice(0, 7)}`);
  const day = page.getByRole("cell").filter({ has: page.locator(`time[datetime="${start}"]`) });
  const link = day.getByRole("link", { name: /^Masthead Annual Conference \d{4}$/ });
  await link.focus();
  await expect(link).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/events\/annual-conference-\d{4}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Masthead Annual Conference \d{4}$/);
});

test("a start date lists the events from that day on, with the type, in the URL", async ({ page }) => {
  await page.goto("/events");
  const filters = page.getByRole("search", { name: "Filter the events" });
  const from = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
  await filters.getByLabel("Starting from").fill(from);
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`/events\\?start_date=${from}$`));
  const list = section(page, /^Events from /);
  // The address changes before React commits the new list; wait for the list itself.
  await expect(list.locator("article time").first()).toBeVisible();
  const dates = await list
    .locator("article time")
    .evaluateAll((els) => els.map((el) => el.getAttribute("datetime") ?? ""));
  expect(dates.length).toBeGreaterThan(0);
  expect(dates.every((d) => d >= from)).toBe(true);
  expect(dates).toEqual([...dates].sort());
  await expect(section(page, "Past events")).toHaveCount(0);

  await page.getByRole("combobox", { name: "Type of event" }).selectOption({ label: "Conferences" });
  await expect(page).toHaveURL(new RegExp(`/events\\?type=conference&start_date=${from}$`));
  // Retrying assertions: the list is committed after the address changes.
  await expect(page.locator("main article").first()).toBeVisible();
  await expect(page.locator("main article").filter({ hasNotText: "Conference" })).toHaveCount(0);
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(page).toHaveURL(/\/events$/);
});

test("from a start date, Load more appends the next events into their months, each month once", async ({ page }) => {
  // Every event of the demo, more than one page of them.
  await page.goto("/events?start_date=2000-01-01");
  const list = section(page, /^Events from /);
  const shown = await list.locator("article").count();
  await page.getByRole("link", { name: "Load more" }).click();
  await expect.poll(() => list.locator("article").count()).toBeGreaterThan(shown);
  await expect(page).toHaveURL(/\/events\?start_date=2000-01-01$/);
  const months = await list.locator("section > h3").allTextContents();
  expect(new Set(months).size).toBe(months.length);
  const dates = await list.locator("article time").evaluateAll((els) => els.map((el) => el.getAttribute("datetime")));
  expect(dates).toEqual([...dates].sort());
  // No event twice: the next page's entries join the list, they do not repeat it.
  const links = await list
    .locator("article a[href^='/events/']")
    .evaluateAll((els) => els.map((el) => el.getAttribute("href")));
  expect(new Set(links).size).toBe(await list.locator("article").count());
});

test("a visitor opens the conference from the calendar, sees Add to calendar and registers", async ({ page }) => {
  await page.goto("/events?type=conference");
  await cards(page, "Upcoming events").first().getByRole("link").click();
  await expect(page).toHaveURL(/\/events\/annual-conference-\d{4}$/);
  await expect(page.getByRole("heading", { level: 2, name: "Add to calendar" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Download \.ics/ })).toHaveAttribute("download", "");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Go to the registration form" }).click();
  // On a meeting's page the form registers for it (issue 32).
  const contact = page.getByRole("region", { name: /^Register for .*Annual Conference/ });
  await contact.getByLabel("Company Name").fill("Bothnia Marine Electronics Oy");
  await contact.getByLabel("Representative name").fill("Eero Laine");
  await contact.getByLabel("Email").fill(`eero-${Date.now()}@bothnia.example`);
  await contact.getByLabel("Phone number").fill("+358 9 765 4321");
  await page.waitForTimeout(3000);
  await contact.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("dialog", { name: "Thank you!" })).toContainText("registration");
});

test("a meeting that takes no registrations says so instead of showing the form", async ({ page }) => {
  await page.goto("/events?type=meeting");
  await cards(page, "Upcoming events")
    .filter({ hasText: "Joint Masthead–IALA expert meeting" })
    .getByRole("link")
    .click();
  await expect(section(page, "Register")).toContainText("Registration for this meeting is closed.");
  await expect(section(page, "Register").getByRole("link", { name: "Go to the registration form" })).toHaveCount(0);
  const contact = page.getByRole("region", { name: /^Register for Joint Masthead–IALA expert meeting/ });
  await expect(contact).toContainText("Registration for this meeting is closed.");
  await expect(contact.getByRole("button", { name: "Send" })).toHaveCount(0);
  // No Register buttons either (the page's table of contents still leads to the block).
  await expect(page.locator('main a[href="#register"]:not(nav[aria-label="On this page"] a)')).toHaveCount(0);
  await expectAccessible(page);
});

test.describe("in a browser in New York", () => {
  test.use({ timezoneId: "America/New_York" });

  test("each session shows the viewer's time too, in space reserved for it", async ({ page, request }) => {
    // The server renders a hidden placeholder of the same size, so nothing moves when the browser fills it in.
    const html = await (await request.get("/conference")).text();
    expect(html).toMatch(
      /<span data-utc-start="[^"]+Z" data-utc-finish="[^"]+Z" data-local-time="" aria-hidden="true" class="[^"]*\binvisible\b/,
    );
    await page.goto("/conference");
    const cell = section(page, "Programme").getByRole("table").first().getByRole("rowheader").first();
    const local = cell.locator("[data-local-time]");
    await expect(local).toBeVisible();
    const utc = (await local.getAttribute("data-utc-start")) ?? "";
    const expected = new Intl.DateTimeFormat("en-GB", {
      timeZone: "America/New_York",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(new Date(utc));
    await expect(local).toHaveText(new RegExp(`^${expected}–\\d{2}:\\d{2} your time$`));
  });
});

test.describe("in a browser in Amsterdam", () => {
  test.use({ timezoneId: "Europe/Amsterdam" });

  test("the viewer's time stays out where it is the meeting's own", async ({ page }) => {
    await page.goto("/conference");
    const local = section(page, "Programme").locator("[data-local-time]").first();
    await expect(local).toHaveCSS("visibility", "hidden");
  });
});

test("a member sees the members-only meetings in /dashboard/events and opens one; a visitor gets 404", async ({
  page,
  browser,
  baseURL,
}) => {
  await page.goto("/login");
  await signIn(page, MEMBER);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole("link", { name: /Members' events/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/events$/);
  await expect(page.getByRole("heading", { level: 1, name: "Members' events" })).toBeVisible();
  const card = cards(page, "Upcoming events").filter({ hasText: "Members only" }).first();
  await expect(card).toContainText("Board of Directors meeting");
  await card.getByRole("link").click();
  await expect(page).toHaveURL(/\/dashboard\/events\/board-of-directors-meeting-\d{4}-\d{2}$/);
  const slug = new URL(page.url()).pathname.split("/").at(-1) as string;
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Board of Directors meeting");
  await expect(page.getByRole("main").getByText("Members only").first()).toBeVisible();
  const crumbs = page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link");
  await expect(crumbs).toHaveText(["Members area", "Members' events"]);
  // The members' area has no footer form: the registration form is in the page.
  await expect(section(page, "Register").getByRole("button", { name: "Send" })).toBeVisible();
  await expect(section(page, "Register").getByLabel("Email")).toHaveValue(MEMBER.email);
  await expectAccessible(page);
  // Signed in, the public address leads to the members' page.
  await page.goto(`/events/${slug}`);
  await expect(page).toHaveURL(new RegExp(`/dashboard/events/${slug}$`));
  // The members' month view has it too.
  await page.goto(`/dashboard/events?view=month&month=${slug.slice(-7)}`);
  await expect(page.getByRole("table").getByRole("link", { name: "Board of Directors meeting" }).first()).toBeVisible();

  const visitor = await browser.newPage({ baseURL });
  expect((await visitor.goto(`/events/${slug}`))?.status()).toBe(404);
  await expect(visitor.getByText("This page could not be found")).toBeVisible();
  await visitor.goto("/events");
  await expect(visitor.getByText("Board of Directors meeting")).toHaveCount(0);
  await visitor.goto(`/dashboard/events/${slug}`);
  await expect(visitor).toHaveURL(/\/login/);
  await visitor.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the filter form applies the type with its button", async ({ page }) => {
    await page.goto("/events");
    const filters = page.getByRole("search", { name: "Filter the events" });
    await filters.getByRole("combobox", { name: "Type of event" }).selectOption({ label: "Conferences" });
    await filters.getByRole("button", { name: "Filter" }).click();
    // Without JavaScript the form sends its empty fields too.
    await expect(page).toHaveURL(/\/events\?type=conference&start_date=$/);
    const all = page.locator("main article");
    expect(await all.count()).toBeGreaterThanOrEqual(2);
    for (const text of await all.allInnerTexts()) expect(text).toContain("Conference");
  });

  test("the filter form applies a start date, and the month view steps by links", async ({ page }) => {
    await page.goto("/events?view=month");
    const filters = page.getByRole("search", { name: "Filter the events" });
    await filters.getByLabel("Starting from").fill("2030-01-15");
    await filters.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/\/events\?view=month&type=&start_date=2030-01-15$/);
    await expect(page.locator("#month-title")).toHaveText("January 2030");
    await page.getByRole("link", { name: "Previous month, December 2029" }).click();
    await expect(page).toHaveURL(/view=month&month=2029-12&start_date=2030-01-15$/);
    await expect(page.locator("#month-title")).toHaveText("December 2029");
    await page.getByRole("link", { name: "List", exact: true }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Events from 15 January 2030" })).toBeVisible();
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
