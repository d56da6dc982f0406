import fs from "node:fs";
import type { Page } from "@playwright/test";
import { ADMIN, expect, expectAccessible, linkMailedTo, signIn, test } from "./fixtures";

/**
 * Issue 31 in Chromium: the secretariat moves a member spreadsheet in (checked first, then
 * imported), and a company that lapses takes the members-only library from its representative on
 * the very next request. These change the companies: after the read-only specs, one at a time.
 */
test.describe.configure({ mode: "serial" });

const SHOTS = "tmp/shots";

async function shoot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("the secretariat checks a member spreadsheet, then imports it", async ({ page }) => {
  const stamp = Date.now();
  const created = `Skagerrak Sonar ${stamp} AS`;
  const csv = [
    "Company name;Country;Type;Member since;Renews on;Products",
    `${created};Norway;Associate member;2024-02-01;2027-02-01;Sonar, Echo sounders`,
    `Nowhere ${stamp} Ltd;Atlantis;;;;`,
  ].join("\r\n");
  await page.goto("/login?redirect=%2Fmanager%2Fmembers");
  await signIn(page, ADMIN);
  await page.getByRole("link", { name: "Import from CSV" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Import member companies" })).toBeVisible();
  await page
    .getByLabel(/CSV file/)
    .setInputFiles({ name: "members.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page.getByRole("status")).toContainText("Checked members.csv: 1 company to create,");
  await expect(page.getByRole("status")).toContainText("1 refused. Nothing has been changed yet.");
  const refused = page.getByRole("row", { name: new RegExp(`Nowhere ${stamp} Ltd`) });
  await expect(refused).toContainText("Refused");
  await expect(refused).toContainText("Country: Choose a country");
  await expect(page.getByRole("row", { name: new RegExp(created) })).toContainText("New company");
  await expectAccessible(page);

  // Nothing was created by the check.
  expect((await (await page.request.get(`/api/dashboard/companies?search=${stamp}`)).json()).total).toBe(0);
  await page.getByRole("button", { name: "Import: create 1 company" }).click();
  await expect(page.getByRole("alert")).toContainText(`Imported members.csv: 1 company created,`);
  await expect(page.getByRole("alert")).toContainText("The refused rows below were not imported");
  await page.getByRole("link", { name: "Back to the member companies" }).click();
  await page.getByLabel("Name, country or product").fill(String(stamp));
  await page.getByRole("button", { name: "Filter" }).click();
  const row = page.locator("li", { has: page.getByRole("link", { name: created, exact: true }) });
  await expect(row).toContainText("Norway");
  await expect(row).toContainText("Associate member");

  // The same company in another file: the check shows each change as before → after.
  await page.goto("/manager/members/import");
  const change = `Name,Products,Seats\r\n${created},Sonar,3\r\n`;
  await page
    .getByLabel(/CSV file/)
    .setInputFiles({ name: "products.csv", mimeType: "text/csv", buffer: Buffer.from(change) });
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page.getByRole("status")).toContainText("0 companies to create, 1 to change, 0 unchanged, 0 refused.");
  const changed = page.getByRole("row", { name: new RegExp(created) });
  await expect(changed).toContainText("Products: Sonar, Echo sounders → Sonar");
  await expect(changed).toContainText("Seats: none → 3");
  await expect(page.getByRole("button", { name: "Import: change 1 company" })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, "manager-members-import");
});

test("a company lapses, and its representative loses the members-only library on the next request", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const stamp = Date.now();
  const company = `Fjord Compass ${stamp} AS`;
  const email = `ingrid.${stamp}@fjordcompass.example`;
  await page.goto("/login?redirect=%2Fmanager%2Fmembers%2Fnew");
  await signIn(page, ADMIN);
  await page.getByLabel("Name", { exact: true }).fill(company);
  await page.getByLabel("Country").selectOption({ label: "Norway" });
  await page.getByLabel("Member since").fill("2015-01-01");
  await page.getByRole("button", { name: "Create company" }).click();
  await expect(page.getByRole("heading", { level: 1, name: company })).toBeVisible();
  const firstName = page.getByLabel("First name");
  if (!(await firstName.isVisible())) await page.getByText("Invite a representative", { exact: true }).click();
  await firstName.fill("Ingrid");
  await page.getByLabel("Last name").fill("Berg");
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Invitation sent to ${email}.` })).toBeVisible();

  await expect.poll(() => linkMailedTo(email, "/welcome"), { timeout: 10_000 }).not.toBeNull();
  const context = await browser.newContext();
  const ingrid = await context.newPage();
  await ingrid.goto(linkMailedTo(email, "/welcome") as string);
  await ingrid.getByLabel("Password", { exact: true }).fill("compass-rose-2026");
  await ingrid.getByLabel("Confirm the password").fill("compass-rose-2026");
  await ingrid.getByRole("button", { name: "Open my account" }).click();
  await expect(ingrid).toHaveURL(/\/dashboard\?notice=welcome$/);
  await ingrid.goto("/dashboard/policies");
  await expect(ingrid.getByRole("heading", { level: 1 })).toBeVisible();
  const download = ingrid
    .locator('li[id^="paper-"]')
    .first()
    .getByRole("link", { name: /^Download/ });
  const href = (await download.getAttribute("href")) as string;
  expect((await ingrid.request.get(href)).status()).toBe(200);

  // The secretariat moves the renewal date far into the past: the company has lapsed.
  await page.getByLabel("Renews on").fill("2020-01-01");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Saved “${company}”.` })).toBeVisible();

  // Her very next requests: the notice, and what a visitor gets.
  await ingrid.goto("/dashboard");
  await expect(ingrid.getByText("Your company's membership has lapsed. Please contact the secretariat.")).toBeVisible();
  const library = await ingrid.goto("/dashboard/policies");
  expect(library?.status()).toBe(404);
  expect((await ingrid.request.get(href)).status()).not.toBe(200);
  await context.close();
});
