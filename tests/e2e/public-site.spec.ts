import type { Page } from "@playwright/test";
import { LEGACY_REDIRECTS, MEETINGS_PAGES } from "../../app/lib/site-map";
import { ABOUT_PAGES, SERVICES_PAGES } from "../../core/pages/fixed-pages";
import { expect, expectAccessible, holdUntilProgressBar, MEMBER, signIn, test, waitForHydration } from "./fixtures";

const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });

test.describe("main menu (SPEC §2)", () => {
  for (const [group, pages] of [
    ["About the association", ABOUT_PAGES.slice(0, 5)],
    ["Meetings", MEETINGS_PAGES],
    ["Services", SERVICES_PAGES.slice(0, 8)],
  ] as const) {
    test(`every ${group} submenu item opens its page from the menu`, async ({ page }) => {
      await page.goto("/");
      for (const item of pages) {
        await mainNav(page).getByRole("button", { name: group }).click();
        await mainNav(page).getByRole("link", { name: item.label, exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`${item.to}$`));
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        // Each page is a new document: its menu answers once its script runs.
        await waitForHydration(page);
        // The active item follows the path, and so does its parent.
        await mainNav(page).getByRole("button", { name: group }).click();
        await expect(mainNav(page).getByRole("link", { name: item.label, exact: true })).toHaveAttribute(
          "aria-current",
          "page",
        );
        await mainNav(page).getByRole("button", { name: group }).click();
      }
    });
  }

  test("Home, News and the Membership items open their pages and become the active item", async ({ page }) => {
    await page.goto("/history");
    await mainNav(page).getByRole("link", { name: "News" }).click();
    await expect(page).toHaveURL(/\/news$/);
    await expect(mainNav(page).getByRole("link", { name: "News" })).toHaveAttribute("aria-current", "page");
    for (const [item, path] of [
      ["List of Members", "/members-list"],
      ["Join", "/members-join"],
    ]) {
      await mainNav(page).getByRole("button", { name: "Membership" }).click();
      await mainNav(page).getByRole("link", { name: item, exact: true }).click();
      // Wait for the navigation itself: the old page's heading is visible until it lands, and the
      // submenu opened meanwhile would close when it does.
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    }
    await mainNav(page).getByRole("link", { name: "Home" }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
    await expect(mainNav(page).getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");
  });

  test("a submenu toggles on click and closes with Escape, returning focus", async ({ page }) => {
    await page.goto("/");
    const button = mainNav(page).getByRole("button", { name: "Meetings" });
    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(mainNav(page).getByRole("link", { name: "Annual Conference" })).toBeVisible();
    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await button.focus();
    await page.keyboard.press("Enter");
    await expect(mainNav(page).getByRole("link", { name: "Events Calendar" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(mainNav(page).getByRole("link", { name: "Events Calendar" })).toBeHidden();
    await expect(button).toBeFocused();
  });

  test("the hamburger toggles the mobile menu on a 390 px screen", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/history");
    const burger = page.getByRole("button", { name: "Open menu" });
    await expect(mainNav(page).getByRole("link", { name: "News" })).toBeHidden();
    await burger.click();
    await expect(mainNav(page).getByRole("link", { name: "News" })).toBeVisible();
    await mainNav(page).getByRole("button", { name: "About the association" }).click();
    await expect(mainNav(page).getByRole("link", { name: "History" })).toHaveAttribute("aria-current", "page");
    await mainNav(page).getByRole("link", { name: "Purpose & Objectives" }).click();
    await expect(page).toHaveURL(/\/purpose-objectives$/);
    await expect(mainNav(page).getByRole("link", { name: "News" })).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("button", { name: "Close menu" }).click();
    await expect(mainNav(page).getByRole("link", { name: "News" })).toBeHidden();
  });
});

test.describe("layout behaviour (SPEC §2, §9)", () => {
  test("the header hides scrolling down past 128 px and returns scrolling up; scroll-to-top past 150 px", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 600 });
    await page.goto("/service-code-of-practice");
    const header = page.locator("header[data-hidden]");
    const toTop = page.getByRole("button", { name: "Scroll to top" });
    await page.evaluate(() => window.scrollTo(0, 120));
    await expect(header).toHaveAttribute("data-hidden", "false");
    await expect(toTop).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 400));
    await expect(header).toHaveAttribute("data-hidden", "true");
    await expect(toTop).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 300));
    await expect(header).toHaveAttribute("data-hidden", "false");
    await toTop.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(toTop).toHaveCount(0);
  });

  for (const [width, height] of [
    [320, 640],
    [390, 844],
    [1280, 800],
  ] as const) {
    test(`at the bottom of a page the scroll-to-top button covers no link, button or field (${width} px)`, async ({
      page,
    }) => {
      // 320 px is the width of WCAG's reflow criterion (1280 px at 400 %), 390 px a common phone.
      await page.setViewportSize({ width, height });
      for (const path of ["/history", "/news"]) {
        await page.goto(path);
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const toTop = page.getByRole("button", { name: "Scroll to top" });
        await expect(toTop).toBeVisible();
        await expect
          .poll(() => page.evaluate(() => window.scrollY + window.innerHeight - document.documentElement.scrollHeight))
          .toBe(0);
        const covered = await toTop.evaluate((button) => {
          const own = button.getBoundingClientRect();
          return [...document.querySelectorAll("a[href], button, input, select, textarea, summary, [tabindex]")]
            .filter((element) => element !== button && !button.contains(element))
            .filter((element) => {
              const box = element.getBoundingClientRect();
              return (
                box.width > 1 &&
                box.height > 1 &&
                getComputedStyle(element).visibility === "visible" &&
                box.left < own.right &&
                own.left < box.right &&
                box.top < own.bottom &&
                own.top < box.bottom
              );
            })
            .map((element) => `${element.tagName.toLowerCase()} "${element.textContent?.trim()}"`);
        });
        expect(covered, `${path} at ${width} px, scrolled to the bottom`).toEqual([]);
      }
    });
  }

  test("a navigation shows the progress bar while the next page loads, then the cover with the logo", async ({
    page,
  }) => {
    await page.goto("/");
    // Public pages are served as islands (decision 0033): the next page is a document, held back
    // until the old page has shown the bar.
    const barShown = await holdUntilProgressBar(page, (path) => path === "/secom");
    await mainNav(page).getByRole("button", { name: "Services" }).click();
    await mainNav(page).getByRole("link", { name: "SECOM" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "SECOM" })).toBeAttached();
    expect(barShown(), "the progress bar showed while the next page loaded").toBe(true);

    // The cover is CSS on the new document (app.css .route-cover): it shows from the first paint
    // because the root's inline script marked the page as the end of a route change.
    await expect(page.locator("html")).toHaveAttribute("data-route-change", "");
    const cover = page.getByTestId("route-cover");
    await expect(cover.locator("svg")).toBeAttached();
    // It goes by itself: hidden at the end of its animation.
    await expect(cover).toBeHidden({ timeout: 10_000 });
    // What it showed, read from its animation at set moments, so that a slow machine (a late
    // look) cannot make it seem never shown: full-screen and opaque for 800 ms, then fading
    // over 1000 ms (SPEC §2, §9).
    const states = await cover.evaluate((element) => {
      const [animation] = element.getAnimations();
      if (!animation) return null;
      animation.pause();
      const at = (ms: number) => {
        animation.currentTime = ms;
        const style = getComputedStyle(element);
        const box = element.getBoundingClientRect();
        return {
          visibility: style.visibility,
          opacity: Math.round(Number(style.opacity) * 100) / 100,
          fullScreen: box.width === window.innerWidth && box.height === window.innerHeight,
        };
      };
      return { start: at(0), before: at(790), fading: at(1300), end: at(1800) };
    });
    expect(states).not.toBeNull();
    expect(states?.start).toEqual({ visibility: "visible", opacity: 1, fullScreen: true });
    expect(states?.before).toEqual({ visibility: "visible", opacity: 1, fullScreen: true });
    expect(states?.fading.visibility).toBe("visible");
    expect(states?.fading.opacity).toBeGreaterThan(0);
    expect(states?.fading.opacity).toBeLessThan(1);
    expect(states?.end.visibility).toBe("hidden");
    await expect(page.getByRole("progressbar", { name: "Loading the page", includeHidden: true })).toHaveAttribute(
      "data-visible",
      "false",
    );
  });

  test("from the members' area a public page is a client navigation: it runs hydrated, and its next route change shows the cover", async ({
    page,
  }) => {
    // Decision 0033: links from a hydrated page stay React Router navigations, so the public
    // layout then runs as an app (the router's progress bar and cover), not as islands.
    await page.goto("/login");
    await signIn(page, MEMBER);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.evaluate(() => {
      (window as Window & { sameDocument?: boolean }).sameDocument = true;
    });
    const sameDocument = () => page.evaluate(() => (window as Window & { sameDocument?: boolean }).sameDocument);
    await page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(mainNav(page)).toBeVisible();
    expect(await sameDocument()).toBe(true);
    // The first public page after the members' area has no cover: it is the layout's first render.
    await expect(page.getByTestId("route-cover")).toBeHidden();

    // The router's cover (RouteCover) comes and goes within 1.8 s: the page notes each step as it
    // happens, so that a slow machine (a late look) cannot make it seem never shown.
    type Steps = { arrived?: number; shown?: number; fullScreen?: boolean; fading?: number; removed?: number };
    await page.evaluate(() => {
      const steps: Steps = {};
      (window as Window & { coverSteps?: Steps }).coverSteps = steps;
      new MutationObserver(() => {
        const now = performance.now();
        if (steps.arrived === undefined && document.querySelector("main h1")?.textContent === "SECOM")
          steps.arrived = now;
        const cover = document.querySelector('[data-testid="route-cover"]');
        if (
          cover &&
          steps.shown === undefined &&
          cover.classList.contains("opacity-100") &&
          cover.querySelector("svg")
        ) {
          const box = cover.getBoundingClientRect();
          steps.shown = now;
          steps.fullScreen = box.width === window.innerWidth && box.height === window.innerHeight;
        }
        if (cover?.classList.contains("opacity-0")) steps.fading ??= now;
        if (!cover && steps.shown !== undefined) steps.removed ??= now;
      }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });
    });
    const coverSteps = () => page.evaluate(() => ({ ...(window as Window & { coverSteps?: Steps }).coverSteps }));
    await mainNav(page).getByRole("button", { name: "Services" }).click();
    await mainNav(page).getByRole("link", { name: "SECOM" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "SECOM" })).toBeVisible();
    await expect.poll(async () => (await coverSteps()).removed, { timeout: 10_000 }).toBeDefined();
    const steps = await coverSteps();
    expect(steps.fullScreen, "the cover with the logo covered the screen").toBe(true);
    // In order, and timed from the new page's arrival (the route change the cover reacts to):
    // shown, fading after about 800 ms, gone 1000 ms later (SPEC §2). Timers run late, never early.
    const { arrived = Number.NaN, shown = Number.NaN, fading = Number.NaN, removed = Number.NaN } = steps;
    expect(shown).toBeGreaterThanOrEqual(arrived);
    expect(fading - arrived).toBeGreaterThanOrEqual(750);
    expect(removed - arrived).toBeGreaterThanOrEqual(1750);
    expect(removed).toBeGreaterThan(fading);
    expect(await sameDocument()).toBe(true);
    // The header's user menu is the hydrated one, with the member's initials.
    const menu = page.getByRole("banner").getByRole("button", { name: "User Profile" });
    await expect(menu).toContainText("MM");
    await menu.click();
    await expect(page.getByRole("menuitem", { name: "Settings" })).toBeVisible();
    await page.keyboard.press("Escape");

    // Load more appends through the router's data on a hydrated /news.
    await mainNav(page).getByRole("link", { name: "News", exact: true }).click();
    await expect(page).toHaveURL(/\/news$/);
    const cards = page.locator("main ul > li article");
    const before = await cards.count();
    await page.getByRole("link", { name: "Load more" }).click();
    await expect.poll(() => cards.count()).toBeGreaterThan(before);
    await expect(page).toHaveURL(/\/news$/);
    expect(await sameDocument()).toBe(true);
  });

  test("a link within the page, a new tab or a download starts no progress bar and leaves no cover behind", async ({
    page,
  }) => {
    await page.goto("/history");
    await page.getByRole("link", { name: "Skip to content" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("progressbar", { name: "Loading the page", includeHidden: true })).toHaveAttribute(
      "data-visible",
      "false",
    );
    expect(await page.evaluate(() => sessionStorage.getItem("masthead.route-change"))).toBeNull();
  });

  test("the first page load carries no cover, so the content is there for crawlers and screen readers", async ({
    page,
  }) => {
    await page.goto("/history");
    await expect(page.getByTestId("route-cover")).toBeHidden();
    // Nor does a page reached by a redirect or typed in after a navigation was started elsewhere.
    await page.evaluate(() => sessionStorage.setItem("masthead.route-change", "/somewhere-else"));
    await page.goto("/history");
    await expect(page.getByTestId("route-cover")).toBeHidden();
  });

  test("header and footer show the contact data and the copyright line from settings", async ({ page }) => {
    await page.goto("/");
    const header = page.locator("header");
    await expect(header.getByRole("link", { name: "secretariat@masthead.example" })).toHaveAttribute(
      "href",
      "mailto:secretariat@masthead.example",
    );
    await expect(header.getByRole("link", { name: "Masthead on LinkedIn" })).toHaveAttribute("href", /linkedin\.com/);
    const footer = page.locator("footer");
    await expect(footer.getByText("© Copyright. 2022. Masthead")).toBeVisible();
    await expect(footer.locator("#contact-us")).toContainText("Join the community");
    await expect(footer.getByRole("link", { name: "+44 20 7946 0321" })).toBeVisible();
  });

  test("the privacy policy opens in a modal fetched from the server; Escape returns focus", async ({ page }) => {
    await page.goto("/");
    // The footer's own link, in its last row: the join form above it has one too, beside its button (issue 35).
    const trigger = page.locator("footer").getByRole("link", { name: "Privacy Policy" }).last();
    await trigger.click();
    const dialog = page.getByRole("dialog", { name: "Privacy Policy" });
    await expect(dialog).toBeVisible();
    await expect(dialog.locator(".rich-text h2").first()).toBeVisible();
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
  });
});

test.describe("site search (SPEC §5, §8)", () => {
  test("typing searches once after a 400 ms pause and lists result links", async ({ page }) => {
    await page.goto("/history");
    const calls: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/search")) calls.push(request.url());
    });
    const box = page.getByRole("searchbox").first();
    await box.pressSequentially("secom", { delay: 60 });
    const results = page.locator("[data-result]");
    await expect(results.first()).toBeVisible();
    // Debounced: not one request per keystroke, and the last one carries the whole query.
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls.length).toBeLessThan(5);
    expect(calls.at(-1)).toContain("search_query=secom");
    await expect(results.first()).toContainText(/secom/i);
    await page.keyboard.press("ArrowDown");
    await expect(results.first()).toBeFocused();
    await expectAccessible(page);
  });

  test("no results says so; a click outside clears the box", async ({ page }) => {
    await page.goto("/");
    const box = page.getByRole("searchbox").first();
    await box.fill("zzqxv");
    await expect(page.getByText("There are no results for `zzqxv`")).toBeVisible();
    await page.getByRole("heading", { level: 1 }).click();
    await expect(page.getByText("There are no results for `zzqxv`")).toBeHidden();
    await expect(box).toHaveValue("");
  });

  test("Enter opens the full results page", async ({ page }) => {
    await page.goto("/");
    const box = page.getByRole("searchbox").first();
    await box.fill("route exchange");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/search\?q=route\+exchange$/);
    await expect(page.getByRole("heading", { name: "Search" })).toBeVisible();
    await expect(page.getByRole("link", { name: /S-421/ }).first()).toBeVisible();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the search form leads to the results page", async ({ page }) => {
    await page.goto("/");
    const box = page.getByRole("searchbox").first();
    await box.fill("standards");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/search\?q=standards$/);
    await expect(page.locator("ol li").first()).toBeVisible();
  });
});

test("legacy addresses answer with a permanent redirect to their current page", async ({ request }) => {
  for (const [from, to] of Object.entries(LEGACY_REDIRECTS)) {
    const response = await request.get(from, { maxRedirects: 0 });
    expect(response.status(), from).toBe(301);
    expect(response.headers().location, from).toBe(to);
  }
});

test("sitemap.xml lists the public pages and robots.txt keeps the private areas out", async ({ request, baseURL }) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  expect(sitemap).toContain(`<loc>${baseURL}/purpose-objectives</loc>`);
  expect(sitemap).toContain(`<loc>${baseURL}/secom</loc>`);
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toContain("Disallow: /dashboard");
  expect(robots).toContain("Disallow: /manager");
  expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
});

test("an about page has its title, description, canonical URL and sharing cards, and is accessible", async ({
  page,
  baseURL,
}) => {
  await page.goto("/purpose-objectives");
  await expect(page).toHaveTitle("Purpose & Objectives · Masthead");
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/purpose-objectives`);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", "Purpose & Objectives");
  await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary");
  await expectAccessible(page);
});

test.describe("membership pages", () => {
  test("the members list filters by country and name, in the URL", async ({ page }) => {
    await page.goto("/members-list");
    await expect(page.getByRole("heading", { level: 1, name: "List of Members" })).toBeVisible();
    // Every current company counted; a page of them shown (tests/e2e/members-directory.spec.ts pages on).
    const all = Number((await page.getByText(/^\d+ member companies$/).textContent())?.match(/\d+/)?.[0]);
    expect(all).toBeGreaterThanOrEqual(40);
    await page.getByLabel("Country").selectOption("Norway");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/country=NO/);
    await expect(page.getByText(/member compan(y|ies) match(es)? the filter/)).toBeVisible();
    const norwegian = page.locator("#members-list > li");
    expect(await norwegian.count()).toBeLessThan(all);
    for (const text of await norwegian.allInnerTexts()) expect(text).toContain("Norway");
    await expectAccessible(page);
  });

  test("the join page shows the membership text and leads to the contact form", async ({ page }) => {
    await page.goto("/members-join");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.getByRole("link", { name: "Send a membership request" }).click();
    await expect(page).toHaveURL(/#contact-us$/);
    await expect(page.locator("#contact-us")).toBeInViewport();
  });
});
