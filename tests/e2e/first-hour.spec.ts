import type { Locator, Page } from "@playwright/test";
import { ADMIN, expect, expectAccessible, signIn, test } from "./fixtures";

/** Issue 30 point 10 (decision 0041): the month grid on a phone, the home page's text, one message per save. */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  return box as Box;
}

test("on a phone the month grid's Today badge stays inside its day's cell", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto("/events?view=month");
  const today = page.locator('td[aria-current="date"]');
  await expect(today).toHaveCount(1);
  const badge = today.getByText("Today", { exact: true });
  await expect(badge).toBeVisible();
  const cell = await boxOf(today);
  const inner = await boxOf(badge);
  expect(inner.x).toBeGreaterThanOrEqual(cell.x);
  expect(inner.y).toBeGreaterThanOrEqual(cell.y);
  expect(inner.x + inner.width).toBeLessThanOrEqual(cell.x + cell.width);
  expect(inner.y + inner.height).toBeLessThanOrEqual(cell.y + cell.height);
  await page.locator("#month-title").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "tmp/screens/month-grid-390.png" });
});

test("the home page shows the Welcome page's text, which site search finds and links as /", async ({ page }) => {
  await page.goto("/");
  const welcome = page.getByRole("region", { name: "Welcome to Masthead" });
  await expect(welcome).toContainText("Since 1929 our members");
  await page.getByRole("searchbox").first().fill("Since 1929 our members");
  const result = page.locator("[data-result]", { hasText: "Welcome to Masthead" }).first();
  await expect(result).toBeVisible();
  await expect(result).toHaveAttribute("href", "/");
});

test("the pages editor's View link of the Welcome page opens the home page", async ({ page }) => {
  await page.goto("/login?redirect=%2Fmanager%2Fpages%2Fhome");
  await signIn(page, ADMIN);
  const view = page.getByRole("link", { name: "View /" });
  await expect(view).toHaveAttribute("href", "/");
  const response = await page.request.get("/");
  expect(response.status()).toBe(200);
});

/** The messages on the page after a save: notices and toasts alike. */
async function messages(page: Page) {
  await page.waitForTimeout(600); // a toast would have appeared by now (sonner loads with it)
  return {
    notices: await page.locator('main [role="status"]:not(:empty)').count(),
    toasts: await page.locator("[data-sonner-toast]").count(),
  };
}

for (const viewport of [DESKTOP, PHONE]) {
  test(`an admin save says so once, inline (${viewport.width} px)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto("/login?redirect=%2Fmanager%2Fsettings");
    await signIn(page, ADMIN);
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByRole("status")).toHaveText("Settings saved.");
    expect(await messages(page)).toEqual({ notices: 1, toasts: 0 });
    await page.screenshot({ path: `tmp/screens/settings-saved-${viewport.width}.png` });

    await page.goto("/manager/pages/history");
    await page.getByRole("button", { name: "Save page" }).click();
    await expect(page.getByRole("status")).toHaveText("Page saved.");
    expect(await messages(page)).toEqual({ notices: 1, toasts: 0 });

    // The person's own settings too.
    await page.goto("/dashboard/user-settings");
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(page.getByRole("status").first()).toContainText("Nothing was changed.");
    expect(await messages(page)).toEqual({ notices: 1, toasts: 0 });
  });

  test(`a toast covers none of the header's buttons (${viewport.width} px)`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto("/login");
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Login" }).click();
    const toast = page.locator("[data-sonner-toast]").first();
    await expect(toast).toBeVisible();
    await page.waitForTimeout(500); // its entrance animation
    const box = await boxOf(toast);
    await page.screenshot({ path: `tmp/screens/toast-${viewport.width}.png` });
    for (const control of await page.locator("header a:visible, header button:visible").all()) {
      expect(overlaps(box, await boxOf(control)), await control.innerText()).toBe(false);
    }
  });
}

for (const viewport of [DESKTOP, PHONE]) {
  test(`the admin's image forms ask for alt text, labelled and accessible (${viewport.width} px)`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await page.goto("/login?redirect=%2Fmanage-news%2Fnew");
    await signIn(page, ADMIN);
    await expect(page.getByLabel("Alt text", { exact: true })).toBeVisible();
    await page.getByLabel(/^Decorative/).check();
    await expect(page.getByLabel("Alt text", { exact: true })).toBeDisabled();
    await expectAccessible(page);
    await page.screenshot({ path: `tmp/screens/news-form-${viewport.width}.png`, fullPage: true });

    await page.goto("/manage-events?search=conference");
    await page
      .getByRole("link", { name: /^Edit / })
      .first()
      .click();
    const gallery = page.getByRole("region", { name: "Pictures of this meeting" });
    await expect(gallery).toBeVisible();
    // The demo's pictures are described; each has its text in its own form.
    await expect(gallery.getByLabel("Alt text", { exact: true }).first()).toHaveValue(/^Illustration of /);
    await expectAccessible(page);
    await gallery.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `tmp/screens/meeting-form-${viewport.width}.png` });

    await page.goto("/");
    await page.getByRole("region", { name: "Welcome to Masthead" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `tmp/screens/home-welcome-${viewport.width}.png` });
  });
}
