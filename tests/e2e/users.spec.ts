import type { Page } from "@playwright/test";
import { ADMIN, expect, expectAccessible, linkMailedTo, MEMBER, openMenu, signIn, test } from "./fixtures";

// An account of its own: the role and activity changes below disturb no other test.
const ULLA = { email: "e2e-users@masthead.example", password: "e2e-users-password" };

async function openUsersScreen(page: Page) {
  await page.goto("/login?redirect=/manager/users");
  await signIn(page, ADMIN);
  await expect(page).toHaveURL(/:\d+\/manager\/users$/);
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
}

/** The invitation form is folded away until asked for. */
async function openInviteForm(page: Page) {
  if (!(await page.getByLabel("First name").isVisible())) {
    await page.locator("summary", { hasText: "Invite a user" }).click();
  }
  await expect(page.getByLabel("First name")).toBeVisible();
}

async function inviteFrom(page: Page, person: { first: string; last: string; email: string }) {
  await openInviteForm(page);
  await page.getByLabel("First name").fill(person.first);
  await page.getByLabel("Last name").fill(person.last);
  await page.getByLabel("E-mail", { exact: true }).fill(person.email);
  await page.getByRole("button", { name: "Send invitation", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText(`Invitation sent to ${person.email}.`);
}

test("invite → welcome mail → choose a password → members area; the link then stops working", async ({
  page,
  browser,
}) => {
  await openUsersScreen(page);
  await expect(page.getByLabel("First name")).toBeHidden();
  await openInviteForm(page);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Send invitation", exact: true }).click();
  await expect(page.getByText("First name is required.")).toBeVisible();
  await expect(page.getByLabel("First name")).toBeFocused();
  await expect(page.getByText("Email is required.")).toBeVisible();

  const email = `ines.invited.${Date.now()}@masthead.example`;
  await inviteFrom(page, { first: "Ines", last: "Invited", email });
  await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue("");
  const row = page.getByRole("listitem").filter({ hasText: email });
  await expect(row.getByText("Invited", { exact: true })).toBeVisible();
  await expect(row).toContainText("Invitation link valid until");

  await expect.poll(() => linkMailedTo(email, "/welcome"), { timeout: 10_000 }).not.toBeNull();
  const link = linkMailedTo(email, "/welcome") as string;

  // The invited person, in a browser of their own.
  const context = await browser.newContext();
  const invited = await context.newPage();
  await invited.goto(link);
  await expect(invited.getByRole("heading", { level: 1, name: "Welcome, Ines" })).toBeVisible();
  await expect(invited.getByText(email)).toBeVisible();
  await expectAccessible(invited);
  await invited.getByLabel("Password", { exact: true }).fill("harbour-pilot-2026");
  await invited.getByLabel("Confirm the password").fill("harbour-pilot-2027");
  await invited.getByRole("button", { name: "Open my account" }).click();
  await expect(invited.getByText("The passwords do not match.")).toBeVisible();
  await invited.getByLabel("Password", { exact: true }).fill("harbour-pilot-2026");
  await invited.getByLabel("Confirm the password").fill("harbour-pilot-2026");
  await invited.getByRole("button", { name: "Open my account" }).click();
  await expect(invited).toHaveURL(/\/dashboard\?notice=welcome$/);
  await expect(invited.getByRole("heading", { level: 1 })).toContainText("Ines");
  await expect(invited.getByRole("status")).toContainText("Your account is ready.");

  await invited.goto(link);
  await expect(invited.getByRole("alert")).toContainText("This invitation link is not valid any more.");
  await context.close();

  // The admin sees the account active now.
  await page.goto(`/manager/users?search=${encodeURIComponent(email)}`);
  await expect(
    page.getByRole("listitem").filter({ hasText: email }).getByText("Active", { exact: true }),
  ).toBeVisible();
});

test("the admin changes a role, deactivates (sessions end) and reactivates a user, and deletes one after confirming", async ({
  page,
  browser,
}) => {
  // Ulla is signed in elsewhere while the admin works.
  const context = await browser.newContext();
  const ulla = await context.newPage();
  await ulla.goto("/login");
  await signIn(ulla, ULLA);
  await expect(ulla).toHaveURL(/\/dashboard$/);

  await openUsersScreen(page);
  // The admin header carries the user menu with the admin's picture or initials.
  const profile = page.getByRole("banner").getByRole("button", { name: "User Profile" });
  await expect(profile).toContainText("EA");
  await openMenu(profile, page.getByRole("menuitem", { name: "Go to Website" }));
  await expect(page.getByRole("menuitem", { name: "Settings" })).toBeVisible();
  await page.keyboard.press("Escape");
  await page.getByLabel("Name or e-mail").fill("Ulla");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/search=Ulla/);
  await expect(page.getByText("1 user", { exact: true })).toBeVisible();
  const row = page.getByRole("listitem").filter({ hasText: ULLA.email });

  await row.getByRole("button", { name: "Make admin for Ulla Userscreen" }).click();
  await expect(page.getByRole("status")).toHaveText("Ulla Userscreen is now an admin.");
  await expect(row.getByText("Admin", { exact: true })).toBeVisible();
  await row.getByRole("button", { name: "Make member for Ulla Userscreen" }).click();
  await expect(page.getByRole("status")).toHaveText("Ulla Userscreen is now a member.");

  await row.getByRole("button", { name: "Deactivate for Ulla Userscreen" }).click();
  await expect(page.getByRole("status")).toHaveText("Ulla Userscreen is deactivated and signed out.");
  await expect(row.getByText("Deactivated", { exact: true })).toBeVisible();
  await expectAccessible(page);
  await ulla.goto("/dashboard");
  await expect(ulla).toHaveURL(/\/login/);
  await signIn(ulla, ULLA);
  await expect(ulla.getByText("The user name or password are incorrect")).toBeVisible();

  await row.getByRole("button", { name: "Reactivate for Ulla Userscreen" }).click();
  await expect(page.getByRole("status")).toHaveText("Ulla Userscreen is active again.");
  await signIn(ulla, ULLA);
  await expect(ulla).toHaveURL(/\/dashboard$/);
  await context.close();

  // The admin's own row offers nothing that could lock them out.
  await page.goto("/manager/users?search=e2e-admin");
  const mine = page.getByRole("listitem").filter({ hasText: ADMIN.email });
  await expect(mine.getByText("(you)")).toBeVisible();
  await expect(mine.getByRole("button")).toHaveCount(0);

  // Delete asks first; Cancel keeps the user.
  const email = `dora.delete.${Date.now()}@masthead.example`;
  await page.goto("/manager/users");
  await inviteFrom(page, { first: "Dora", last: "Delete", email });
  await page.goto(`/manager/users?search=${encodeURIComponent(email)}`);
  await page.getByRole("button", { name: "Delete Dora Delete" }).click();
  await expect(page.getByRole("dialog", { name: "Delete this user?" })).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByText("1 user", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Delete Dora Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("No users match.")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  // The deleted row's button is gone: focus lands on the page heading, not on nothing.
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeFocused();
});

test("a member reaches neither the users screen nor its actions", async ({ page }) => {
  // Not Ulla: the test above makes her an admin for a moment, and the two run side by side.
  await page.goto("/login?redirect=/manager/users");
  await signIn(page, MEMBER);
  await expect(page).toHaveURL(/\/dashboard$/);
  const me = (await (await page.request.get("/api/dashboard/user")).json()) as { user: { id: number } };
  // A forged form post to the screen's action, with the member's own cookie: no promotion.
  const forged = await page.request.post("/manager/users", {
    form: { intent: "role", id: String(me.user.id), role: "admin" },
    headers: { origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  // The admin guard answers first: back to the members' home.
  expect(forged.status()).toBe(302);
  expect(forged.headers().location).toBe("/dashboard");
  const after = (await (await page.request.get("/api/dashboard/user")).json()) as { user: { role: { name: string } } };
  expect(after.user.role.name).toBe("member");
});

test("admin list actions answer a vanished or malformed id plainly, never with a 500", async ({ page }) => {
  await openUsersScreen(page);
  const origin = new URL(page.url()).origin;
  const post = (path: string, form: Record<string, string>) =>
    page.request.post(path, { form, headers: { origin }, maxRedirects: 0 });
  // Another admin deleted the row a moment ago.
  expect((await post("/manage-news", { intent: "delete", id: "999999" })).status()).toBe(404);
  expect((await post("/manager/requests", { intent: "handled", id: "999999" })).status()).toBe(404);
  expect((await post("/manager/users", { intent: "deactivate", id: "999999" })).status()).toBe(404);
  // Ids are decimal digits only.
  for (const id of ["0x10", "1e3", "", "-1"]) {
    expect((await post("/manager/requests", { intent: "delete", id })).status(), id).toBe(400);
  }
});
