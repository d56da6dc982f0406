import { expect, test } from "./fixtures";

/**
 * Issue 15 / decision 0026: a cached page keeps the nonce of the render that made it. Prove in
 * Chromium that its CSP still blocks what an attacker could inject into it: an inline script
 * without the nonce, one carrying another cached page's nonce, and an inline event handler,
 * while the page's own scripts run and the page hydrates.
 */
const nonceOf = (csp: string | null) => /'nonce-([^']+)'/.exec(csp ?? "")?.[1] ?? "";

test("the CSP of a cached page blocks injected inline scripts, even with another page's nonce", async ({
  page,
  request,
}) => {
  // Both pages rendered and stored; the second request of each is a hit.
  for (const path of ["/news", "/events"]) {
    await request.get(path);
    expect((await request.get(path)).headers()["x-page-cache"]).toBe("hit");
  }
  const otherNonce = nonceOf((await request.get("/events")).headers()["content-security-policy"]);
  expect(otherNonce).not.toBe("");

  // Violations are collected by a script the test itself runs (DevTools init scripts are outside the page's CSP).
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener("securitypolicyviolation", (event) => seen.push(event.violatedDirective));
  });
  let servedFromCache = "";
  let ownNonce = "";
  await page.route("**/news", async (route) => {
    const response = await route.fetch();
    servedFromCache = response.headers()["x-page-cache"] ?? "";
    ownNonce = nonceOf(response.headers()["content-security-policy"]);
    const injected = [
      "<script>window.__injected = 'plain';</script>",
      `<script nonce="${otherNonce}">window.__injected = 'other-nonce';</script>`,
      '<img src="/favicon.svg" alt="" onload="window.__injected = \'handler\'">',
    ].join("");
    const body = (await response.text())
      .replace("<body", `<body data-injected="yes"`)
      .replace("</main>", `${injected}</main>`);
    await route.fulfill({ response, body });
  });

  await page.goto("/news");
  expect(servedFromCache).toBe("hit");
  expect(ownNonce).not.toBe(otherNonce);
  // The page's own scripts, carrying its nonce, ran: React took over the document.
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  expect(await page.evaluate(() => (window as unknown as { __injected?: string }).__injected)).toBeUndefined();
  const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
  expect(violations.filter((directive) => directive.startsWith("script-src")).length).toBeGreaterThanOrEqual(3);
});
