import { ADMIN, expect, expectAccessible, MEMBER, signIn, test } from "./fixtures";

// Issue 36: an admin makes a group and names its chair; the chair adds a member on the group's page.
test("an admin creates a working group with a chair, who adds a member on the group's page", async ({ browser }) => {
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await adminPage.goto("/login?redirect=%2Fmanager%2Fgroups");
  await signIn(adminPage, ADMIN);
  await expect(adminPage.getByRole("heading", { level: 1, name: "Working groups" })).toBeVisible();
  await adminPage.getByText("New group").click();
  await adminPage.locator("#new-group-name").fill("Radar working group");
  await adminPage.locator("#new-group-chairs").fill(MEMBER.email);
  await adminPage.locator("#new-group-description").fill("Radar performance standards and their test methods.");
  await adminPage.getByRole("button", { name: "Create group" }).click();
  await expect(adminPage.getByText("The group “Radar working group” is created.")).toBeVisible();
  await expectAccessible(adminPage);
  await adminContext.close();

  const memberContext = await browser.newContext();
  const page = await memberContext.newPage();
  await page.goto("/login?redirect=%2Fdashboard%2Fgroups");
  await signIn(page, MEMBER);
  await page.getByRole("link", { name: /Radar working group/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Radar working group" })).toBeVisible();
  await expect(page.getByText("You chair this group.")).toBeVisible();
  await page.getByLabel("Add a member by e-mail address").fill("nobody-at-all@example.org");
  await page.getByRole("button", { name: "Add to the group" }).click();
  await expect(page.getByText("No active account uses this address.", { exact: false })).toBeVisible();
  await page.getByLabel("Add a member by e-mail address").fill("e2e-settings@masthead.example");
  await page.getByRole("button", { name: "Add to the group" }).click();
  await expect(page.getByText("is now in the group.")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Sven Settings" })).toBeVisible();
  await expectAccessible(page);
  // The dashboard (one render shared by the members) lists the person's own groups once it runs.
  await page.goto("/dashboard");
  const yours = page.getByRole("region", { name: "Your working groups" });
  await expect(yours.getByRole("link", { name: /Radar working group/ })).toContainText("(chair)");
  await memberContext.close();
});
