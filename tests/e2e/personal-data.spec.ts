import fs from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import { ADMIN, expect, expectAccessible, signIn, test } from "./fixtures";

// Her own account (scripts/e2e-server.ts): she leaves at the end of the first test.
const LEAVER = { email: "e2e-leaver@masthead.example", password: "e2e-leaver-password" };

/** The ZIP a click on `link` downloads, read. */
async function downloadZip(page: import("@playwright/test").Page, link: import("@playwright/test").Locator) {
  const download = page.waitForEvent("download");
  await link.click();
  const file = await (await download).path();
  return unzipSync(new Uint8Array(fs.readFileSync(file)));
}

test("a member downloads everything held about them, then deletes their account", async ({ page }) => {
  await page.goto("/login?redirect=%2Fdashboard%2Fuser-settings");
  await signIn(page, LEAVER);
  const section = page.locator("#your-data");
  await expect(section.getByRole("heading", { name: "Your data" })).toBeVisible();

  const files = await downloadZip(page, section.getByRole("link", { name: "Download my data" }));
  expect(Object.keys(files)).toEqual(expect.arrayContaining(["README.txt", "profile.json", "audit-log.json"]));
  expect(JSON.parse(strFromU8(files["profile.json"]))).toMatchObject({ email: LEAVER.email, first_name: "Lea" });

  // Deleting sits behind a disclosure; a wrong password is said beside its field and nothing changes.
  await section.getByText("Delete my account", { exact: true }).click();
  await section.getByLabel("Your password").fill("not my password");
  await section.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(section.getByText("The password is not right.")).toBeVisible();
  await expect(section.getByLabel("Your password")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);

  await section.getByLabel("Your password").fill(LEAVER.password);
  await section.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(page).toHaveURL(/\/login\?notice=account-deleted$/);
  await expect(
    page.getByText(
      "Your account is deleted. Your registrations and requests are anonymised, and the mails waiting to go to your address are removed; one already on its way may still arrive.",
    ),
  ).toBeVisible();

  // Gone: the members' area sends her to sign in, and her password no longer opens it.
  await page.goto("/dashboard/user-settings");
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await signIn(page, LEAVER);
  await expect(page.getByText("The user name or password are incorrect")).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test("the secretariat finds, exports and erases an applicant who never had an account", async ({ page, request }) => {
  const applicant = `applicant-${Date.now()}@privacy.example`;
  const form = new FormData();
  form.set("company_name", "Erasable Echo Sounders");
  form.set("representative_name", "Edda Erasable");
  form.set("email", applicant);
  form.set("phone_number", "+47 55 00 00 00");
  form.set("page_path", "/join");
  const sent = await request.post("/api/join", {
    multipart: form,
    // An address of its own, outside form-refusals.spec.ts's 198.51.100.0/24 (one of which it floods
    // to the join form's per-address limit: sharing it answered this one 429 in a CI rehearsal).
    headers: { "x-forwarded-for": "192.0.2.77", accept: "application/json" },
  });
  expect(sent.status()).toBe(200);

  await page.goto("/login?redirect=%2Fmanager%2Fprivacy");
  await signIn(page, ADMIN);
  await expect(page.getByRole("heading", { level: 1, name: "Personal data requests" })).toBeVisible();
  await page.getByLabel("E-mail address").fill(applicant.toUpperCase());
  await page.getByRole("button", { name: "Find" }).click();
  const held = page.getByRole("region", { name: /^Held about/ });
  await expect(held.getByText(/^Membership request #\d+: Erasable Echo Sounders/)).toBeVisible();
  await expect(held.getByText("None").first()).toBeVisible();
  await expectAccessible(page);

  const files = await downloadZip(page, held.getByRole("link", { name: "Download everything as a ZIP" }));
  expect(Object.keys(files)).not.toContain("profile.json");
  expect(JSON.parse(strFromU8(files["requests.json"]))).toEqual([
    expect.objectContaining({ email: applicant, representative_name: "Edda Erasable" }),
  ]);

  const erase = page.getByRole("region", { name: "Erase" });
  await erase.getByRole("button", { name: "Erase everything" }).click();
  await expect(erase.getByText("Type the e-mail address again, exactly, to confirm the erasure.")).toBeVisible();
  await erase.getByLabel(/^Type .* to confirm$/).fill(applicant);
  await erase.getByRole("button", { name: "Erase everything" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Erased: 1 request anonymised" })).toBeVisible();
  await expect(page.getByText("Nothing is held about this address.")).toBeVisible();
  await expectAccessible(page);
});
