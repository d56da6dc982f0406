// Not the React app: the fixtures' page waits for hydration, which this page does not do.
import { expect, test } from "@playwright/test";

test("the API reference at /api/docs renders the OpenAPI document, within our CSP", async ({ page }) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  const outside: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith("http://127.0.0.1:")) outside.push(request.url());
  });

  const response = await page.goto("/api/docs");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
  // Swagger UI parses and lays out the whole document (over 60 operations) first: on a loaded two-core
  // machine that has taken longer than the default 7 s.
  await expect(page.getByRole("heading", { name: /Masthead API/ })).toBeVisible({ timeout: 30_000 });
  // The first operations of the document are listed, and one opens with its parameters.
  const login = page.locator(".opblock").filter({ hasText: "/api/login" }).first();
  await expect(login).toBeVisible();
  await login.locator(".opblock-summary").click();
  await expect(login.getByText("Request body").first()).toBeVisible();
  await expect(login.getByText("Retry-After").first()).toBeVisible();

  expect(problems.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
  expect(problems).toEqual([]);
  expect(outside, "nothing loaded from another origin").toEqual([]);
});
