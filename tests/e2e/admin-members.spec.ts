import fs from "node:fs";
import type { Page } from "@playwright/test";
import { ADMIN, expect, expectAccessible, signIn, test } from "./fixtures";

/**
 * Issue 31's screens in Chromium: the secretariat creates a company and invites its representative
 * up to the seats; the demo member, a primary contact of Nordhavn Marine Electronics AS (5 seats,
 * 2 taken in the demo seed), invites colleagues on /dashboard/company until the seats are full.
 * In the 'admin-edits' project: it adds people to a demo company.
 */
test.describe.configure({ mode: "serial" });

const COMPANY = "Trondheim Echo e2e AS";
const DEMO_MEMBER = { email: "member@masthead.example", password: "masthead-demo-member" };
const NO_FREE_SEAT = "This company has no free seat.";

/** Screenshots to look at (SCREENSHOTS=dir), at the phone and desktop widths. */
async function shoot(page: Page, name: string) {
  const dir = process.env.SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ]) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
}

/** Opens the invitation form (closed until wanted) and sends it. */
async function invite(page: Page, first: string, last: string, email: string) {
  const firstName = page.getByLabel("First name");
  if (!(await firstName.isVisible())) await page.getByText("Invite a representative", { exact: true }).click();
  await firstName.fill(first);
  await page.getByLabel("Last name").fill(last);
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Send invitation" }).click();
}

test("the secretariat creates a company, invites its representative and is refused past the seats", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto("/login?redirect=%2Fmanager%2Fmembers");
  await signIn(page, ADMIN);
  await expect(page.getByRole("heading", { level: 1, name: "Member companies" })).toBeVisible();
  // The demo seed's companies, with the lapsed ones said so.
  await expect(page.getByRole("link", { name: "Atlantic Bridge Systems Ltd", exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Membership").selectOption("lapsed");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/current=lapsed/);
  const rows = page.locator("main li");
  await expect(rows.getByText("Lapsed", { exact: true }).first()).toBeVisible();
  await expect(rows.getByText("Current", { exact: true })).toHaveCount(0);
  // "Show all" lists every company again, and the filter bar no longer shows the filter.
  await page.getByRole("link", { name: "Show all" }).click();
  await expect(page).toHaveURL(/\/manager\/members$/);
  await expect(rows.getByText("Current", { exact: true }).first()).toBeVisible();
  await expect(page.getByLabel("Membership")).toHaveValue("");
  await page.goto("/manager/members");
  await shoot(page, "manager-members");

  await page.getByRole("link", { name: "New company" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New company" })).toBeVisible();
  // Refused beside its fields first.
  await page.getByRole("button", { name: "Create company" }).click();
  await expect(page.getByText("The company name is required.")).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Name", { exact: true }).fill(COMPANY);
  await page.getByLabel("Country").selectOption({ label: "Norway" });
  await page.getByLabel("Seats").fill("1");
  await page.getByLabel("Products").fill("Echo sounders, Sonar");
  await page.getByLabel("Website").fill("https://trondheim-echo.example.com");
  await page.getByRole("button", { name: "Create company" }).click();
  await expect(page.getByRole("heading", { level: 1, name: COMPANY })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: `Created “${COMPANY}”.` })).toBeVisible();

  await invite(page, "Astrid", "Lunde", "astrid@trondheim-echo.example");
  await expect(
    page.getByRole("status").filter({ hasText: "Invitation sent to astrid@trondheim-echo.example." }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Remove Astrid Lunde" })).toBeVisible();
  await invite(page, "Bjørn", "Vik", "bjorn@trondheim-echo.example");
  await expect(page.getByRole("alert").filter({ hasText: NO_FREE_SEAT })).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue("bjorn@trondheim-echo.example");
  await expectAccessible(page);

  // A company with a representative is not deleted: the dialog says why.
  await page.getByRole("button", { name: `Delete ${COMPANY}` }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(dialog.getByRole("alert")).toContainText("This company still has representatives");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await shoot(page, "manager-member");

  // The list finds it by product, with its seats.
  await page.goto("/manager/members?search=echo+sounders");
  const row = page.locator("li", { has: page.getByRole("link", { name: COMPANY, exact: true }) });
  await expect(row).toContainText("Norway");
  await expect(row).toContainText(/Seats used:\s*1 of 1/);
});

test("the demo member, a primary contact, invites colleagues on /dashboard/company up to the seats", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto("/login?redirect=%2Fdashboard");
  await signIn(page, DEMO_MEMBER);
  await page.getByRole("link", { name: /Your company/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Nordhavn Marine Electronics AS" })).toBeVisible();
  await expect(page.getByText("2 of 5")).toBeVisible();
  // Said inside the invitation form, which is closed until wanted.
  await expect(page.getByText("3 free seats left.")).toBeAttached();
  await expectAccessible(page);
  for (const [first, last] of [
    ["Eirik", "Dahl"],
    ["Marte", "Holm"],
    ["Jonas", "Strand"],
  ]) {
    const email = `${first.toLowerCase()}@nordhavn-marine.example`;
    await invite(page, first, last, email);
    await expect(page.getByRole("status").filter({ hasText: `Invitation sent to ${email}.` })).toBeVisible();
  }
  await expect(page.getByText("5 of 5")).toBeVisible();
  await invite(page, "Kari", "Lie", "kari@nordhavn-marine.example");
  await expect(page.getByRole("alert").filter({ hasText: NO_FREE_SEAT })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, "dashboard-company");

  // Removing a colleague asks first: Cancel keeps them, Remove removes them.
  await page.getByRole("button", { name: "Remove Jonas Strand" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove Jonas Strand?" });
  await expect(dialog).toContainText("Jonas Strand will no longer represent the company; their account stays.");
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Remove Jonas Strand" })).toBeFocused();
  await expect(page.getByText("5 of 5")).toBeVisible();
  await page.getByRole("button", { name: "Remove Jonas Strand" }).click();
  await dialog.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "The representative is removed from the company; their account stays." }),
  ).toBeVisible();
  await expect(page.getByText("4 of 5")).toBeVisible();
  await expect(page.getByRole("button", { name: "Remove Jonas Strand" })).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
});
