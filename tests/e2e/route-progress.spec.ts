import type { Page } from "@playwright/test";
import { ADMIN, expect, holdUntilProgressBar, MEMBER, signIn, test } from "./fixtures";

/**
 * SPEC §4 'Route change': the top progress bar shows on every route change, in the members',
 * admin and sign-in layouts as in the public one. The next page (or its data) is held back until
 * the bar (shown after 200 ms, SPEC §9) has shown (holdUntilProgressBar).
 */

const bar = (page: Page) => page.getByRole("progressbar", { name: "Loading the page", includeHidden: true });

/** A client navigation of the router (the members' and admin areas): the same document all along. */
async function expectBarDuringClientNavigation(page: Page, click: () => Promise<void>, landed: RegExp) {
  await page.evaluate(() => {
    (window as Window & { sameDocument?: boolean }).sameDocument = true;
  });
  await expect(bar(page)).toHaveAttribute("data-visible", "false");
  const shown = await holdUntilProgressBar(page, (path) => path.endsWith(".data"));
  await click();
  await expect(page).toHaveURL(landed);
  expect(shown(), "the progress bar showed while the next page's data loaded").toBe(true);
  await expect(bar(page)).toHaveAttribute("data-visible", "false");
  expect(await page.evaluate(() => (window as Window & { sameDocument?: boolean }).sameDocument)).toBe(true);
}

test("a route change in the members' area shows the progress bar until the next page is there", async ({ page }) => {
  await page.goto("/login");
  await signIn(page, MEMBER);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectBarDuringClientNavigation(
    page,
    () =>
      page
        .getByRole("main")
        .getByRole("link", { name: /^Settings/ })
        .click(),
    /\/dashboard\/user-settings$/,
  );
});

test("a route change in the admin area shows the progress bar until the next page is there", async ({ page }) => {
  await page.goto("/login?redirect=%2Fmanager");
  await signIn(page, ADMIN);
  await expect(page).toHaveURL(/\/manager$/);
  await expectBarDuringClientNavigation(
    page,
    () => page.getByRole("main").getByRole("link", { name: /^News/ }).click(),
    /\/manage-news$/,
  );
});

test("a route change between the sign-in pages shows the progress bar while the next page loads", async ({ page }) => {
  await page.goto("/login");
  // The sign-in pages are served as islands (decision 0033): the next page is a document.
  const shown = await holdUntilProgressBar(page, (path) => path === "/forgot-password");
  await page.getByRole("link", { name: "Forgot password" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(shown(), "the progress bar showed while the next page loaded").toBe(true);
  // The new page starts with the bar hidden, and has no second one.
  await expect(bar(page)).toHaveCount(1);
  await expect(bar(page)).toHaveAttribute("data-visible", "false");
});
