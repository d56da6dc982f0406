import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** Accounts the e2e server creates next to the demo content (scripts/e2e-server.ts). */
export const ADMIN = { email: "e2e-admin@masthead.example", password: "e2e-admin-password" };
export const MEMBER = { email: "e2e-member@masthead.example", password: "e2e-member-password" };

export async function signIn(page: Page, account: { email: string; password: string }) {
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Login" }).click();
}

/** No serious or critical accessibility findings on the page as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}
