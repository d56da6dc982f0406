import fs from "node:fs";
import type { Page } from "@playwright/test";
import { ADMIN, expect, expectAccessible, MEMBER, outboxMailsTo, signIn, test, waitForHydration } from "./fixtures";

const form = (page: Page) => page.locator("#contact-us form");

test("the footer's join form validates on submit, thanks in a modal, clears itself and mails the sender", async ({
  page,
}) => {
  await page.goto("/history");
  await waitForHydration(page);
  const contact = page.getByRole("region", { name: "Join the community" });
  await expect(contact).toBeVisible();
  // Neither captcha nor analytics is configured on this server, so no third-party script loads.
  await expect(page.locator('script[src*="recaptcha"], script[src*="googletagmanager"]')).toHaveCount(0);

  // Nothing shows before a submit attempt; then every message of SPEC §5, and focus on the first field.
  await expect(contact.getByText("Company Name is required.")).toHaveCount(0);
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") sent.push(request.url());
  });
  await contact.getByRole("button", { name: "Send" }).click();
  await expect(contact.getByRole("alert")).toHaveText("You have validation errors! Please fix them all");
  for (const message of [
    "Company Name is required.",
    "Representative name is required.",
    "Email is required.",
    "Phone number is required.",
  ]) {
    await expect(contact.getByText(message)).toBeVisible();
  }
  await expect(contact.getByLabel("Company Name")).toBeFocused();
  await expect(contact.getByLabel("Company Name")).toHaveAttribute("aria-invalid", "true");
  expect(sent).toEqual([]);

  // Errors follow the corrections live.
  await contact.getByLabel("Company Name").fill("Baltic Radar Works");
  await expect(contact.getByText("Company Name is required.")).toHaveCount(0);
  await contact.getByLabel("Email").fill("not-an-address");
  await expect(contact.getByText("Email is not valid.")).toBeVisible();
  await contact.getByLabel("Phone number").fill("12 34");
  await expect(contact.getByText("Phone format is incorrect.")).toBeVisible();
  await expectAccessible(page);

  const address = `radar-${Date.now()}@balticradar.example`;
  await contact.getByLabel("Representative name").fill("Tomas Lind");
  await contact.getByLabel("Email").fill(address);
  await contact.getByLabel("Phone number").fill("+46 31 123 45 67");
  await expect(contact.getByRole("alert")).toHaveCount(0);
  // A person takes a few seconds over four fields; the server keeps faster senders as probable spam.
  await page.waitForTimeout(3000);
  await contact.getByRole("button", { name: "Send" }).click();

  const dialog = page.getByRole("dialog", { name: "Thank you!" });
  await expect(dialog).toContainText("Your message was sent successfully. We'll get in touch with you soon.");
  expect(sent.filter((url) => url.endsWith("/api/join"))).toHaveLength(1);
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(contact.getByLabel("Company Name")).toHaveValue("");
  await expect(contact.getByLabel("Email")).toHaveValue("");

  // Stored, then acknowledged by mail (written to the outbox on this server).
  await expect.poll(() => outboxMailsTo(address).length, { timeout: 10_000 }).toBe(1);
  // It repeats nothing typed into the form (decision 0039).
  expect(outboxMailsTo(address)[0]).toContain("We received your membership request on");
  expect(outboxMailsTo(address)[0]).not.toContain("Tomas Lind");
});

test("a signed-in member finds the fields of their record filled in", async ({ page }) => {
  await page.goto("/login?redirect=%2Fhistory");
  await signIn(page, MEMBER);
  await expect(page).toHaveURL(/\/history$/);
  const contact = page.getByRole("region", { name: "Join the community" });
  await expect(contact.getByLabel("Email")).toHaveValue(MEMBER.email);
  await expect(contact.getByLabel("Representative name")).toHaveValue("Marten Member");
  await expect(contact.getByLabel("Company Name")).toHaveValue("");

  // A page loaded afresh is the render every member shares (decision 0032): it names nobody, and the
  // browser fetches who is signed in, for the same fields and the initials in the user menu.
  const fresh = await page.goto("/news");
  const html = (await fresh?.text()) ?? "";
  // Served as islands (decision 0033): the root's facts the islands read are in the page as JSON.
  expect(html).toContain(`"roleOnly":true`);
  expect(html).not.toContain(MEMBER.email);
  const footer = page.getByRole("region", { name: "Join the community" });
  await expect(footer.getByLabel("Email")).toHaveValue(MEMBER.email);
  await expect(footer.getByLabel("Representative name")).toHaveValue("Marten Member");
  await expect(page.getByRole("button", { name: "User Profile" }).first()).toContainText("MM");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("errors come back from the server with the values, then a thank-you page", async ({ page }) => {
    await page.goto("/tributes");
    await form(page).getByLabel("Company Name").fill("Fjord Electronics");
    await form(page).getByLabel("Email").fill("bad@");
    await form(page).getByRole("button", { name: "Send" }).click();
    await expect(page).toHaveURL(/\/join$/);
    const again = page.locator("main form");
    await expect(again.getByRole("alert")).toHaveText("You have validation errors! Please fix them all");
    await expect(again.getByText("Email is not valid.")).toBeVisible();
    await expect(again.getByText("Representative name is required.")).toBeVisible();
    await expect(again.getByLabel("Company Name")).toHaveValue("Fjord Electronics");

    await again.getByLabel("Representative name").fill("Ola Nordmann");
    await again.getByLabel("Email").fill("ola@fjord.example");
    await again.getByLabel("Phone number").fill("+47 55 12 34 56");
    await page.waitForTimeout(3000);
    await again.getByRole("button", { name: "Send" }).click();
    // The form shown again on /join keeps the page it was sent from (decision 0039): "Back to the page" leads there.
    await expect(page).toHaveURL(/\/join\/thank-you\?from=%2Ftributes$/);
    await expect(page.getByRole("heading", { level: 1, name: "Thank you!" })).toBeVisible();
    await expect(page.getByText("Your message was sent successfully.")).toBeVisible();
  });
});

test("an admin works through the inbox: filter, mark handled, delete after confirming, export CSV", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto("/login?redirect=%2Fmanager%2Frequests");
  await signIn(page, ADMIN, { javaScript: false });
  await expect(page.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("Kind").selectOption("registration");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/kind=registration/);
  const items = page.locator("main ul > li");
  await expect(items.first()).toContainText("Registration");
  await expect(items.filter({ hasText: "Membership" })).toHaveCount(0);

  const first = items.first();
  const company = ((await first.locator("p span").first().textContent()) ?? "").trim();
  await first.getByRole("button", { name: /^Mark handled/ }).click();
  await expect(page.locator("main ul > li", { hasText: company }).getByText("Handled", { exact: true })).toBeVisible();

  await page.getByRole("button", { name: `Delete the request of ${company}` }).click();
  await page.getByRole("dialog", { name: "Delete this request?" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.locator("main ul > li", { hasText: company })).toHaveCount(0);

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csv = fs.readFileSync((await (await download).path()) as string, "utf8");
  expect(csv.split("\r\n")[0]).toContain('"Received","Kind","Meeting","Company"');
});

test("on the conference page the form registers for the conference and thanks with the registration text", async ({
  page,
}) => {
  await page.goto("/conference");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Go to the registration form" }).click();
  await expect(page).toHaveURL(/#contact-us$/);
  // On a meeting's page the form registers for it (issue 32): 'Register for {title}'.
  const contact = page.getByRole("region", { name: /^Register for / });
  await expect(contact).toContainText("confirms every registration within 48 hours");
  await contact.getByLabel("Company Name").fill("Kvarken Navigation Oy");
  await contact.getByLabel("Representative name").fill("Aino Virtanen");
  await contact.getByLabel("Email").fill(`aino-${Date.now()}@kvarken.example`);
  await contact.getByLabel("Phone number").fill("+358 9 123 4567");
  await page.waitForTimeout(3000);
  await contact.getByRole("button", { name: "Send" }).click();
  const dialog = page.getByRole("dialog", { name: "Thank you!" });
  await expect(dialog).toContainText("Thank you for submitting your registration.");
  await expect(dialog).toContainText("within 48 hours");
  // SPEC §2 'Modals': at most 450 px wide, at least 348 px high; it closes on a route change.
  const box = await dialog.boundingBox();
  expect(box?.width).toBeLessThanOrEqual(450);
  expect(box?.height).toBeGreaterThanOrEqual(348);
  await page.goBack();
  await expect(page).toHaveURL(/\/conference$/);
  await expect(dialog).toHaveCount(0);
});
