import { expect, test } from "./fixtures";

/**
 * SPEC §3 'scrollTo target': the footer's 'Contact form' link leads to the contact form on the
 * page the visitor is on, not to the home page's.
 */

const footerLink = (page: import("@playwright/test").Page) =>
  page.locator("footer").getByRole("link", { name: "Contact form" });

test("on a page other than the home page, 'Contact form' scrolls to the form there and moves focus to it, without a navigation", async ({
  page,
}) => {
  await page.goto("/history");
  await page.evaluate(() => {
    (window as Window & { sameDocument?: boolean }).sameDocument = true;
  });
  const section = page.locator("#contact-us");
  await expect(section).not.toBeInViewport();
  await expect(footerLink(page)).toHaveAttribute("href", "#contact-us");
  await footerLink(page).click();
  await expect(section).toBeInViewport();
  await expect(section).toBeFocused();
  await expect(page).toHaveURL(/\/history$/);
  expect(await page.evaluate(() => (window as Window & { sameDocument?: boolean }).sameDocument)).toBe(true);
  // The next Tab reaches the form's first field.
  await page.keyboard.press("Tab");
  await expect(section.getByLabel("Company Name")).toBeFocused();
});

test("on /conference it stays on the page, with the registration wording", async ({ page }) => {
  await page.goto("/conference");
  const section = page.locator("#contact-us");
  const wording = await section.locator("p").nth(1).innerText();
  await footerLink(page).click();
  await expect(section).toBeInViewport();
  await expect(page).toHaveURL(/\/conference$/);
  await expect(section).toContainText(wording);
  await expect(section).not.toContainText("Tell us about your company");
});

test("on /join it leads to the page's own form", async ({ page }) => {
  await page.goto("/join");
  await expect(footerLink(page)).toHaveAttribute("href", "#contact-us");
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await footerLink(page).click();
  await expect(page.locator("#contact-us")).toBeInViewport();
  await expect(page.locator("#contact-us")).toBeFocused();
  await expect(page.locator("#contact-us")).toContainText("Company Name");
  await expect(page).toHaveURL(/\/join$/);
});

test("on /contact it leads to the message form the page promises", async ({ page }) => {
  await page.goto("/contact");
  await expect(footerLink(page)).toHaveAttribute("href", "#message-form");
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await footerLink(page).click();
  await expect(page.locator("#message-form")).toBeInViewport();
  await expect(page.locator("#message-form")).toBeFocused();
  await expect(page).toHaveURL(/\/contact$/);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("'Contact form' is a link to the form on the same page", async ({ page }) => {
    await page.goto("/history");
    await footerLink(page).click();
    await expect(page).toHaveURL(/\/history#contact-us$/);
    await expect(page.locator("#contact-us")).toBeInViewport();
  });
});
