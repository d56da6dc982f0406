import type { Browser, Page } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { ADMIN, CHAIR, expect, expectAccessible, GROUP_MEMBER, OUTSIDER, signIn, test } from "./fixtures";

// Issue 36: an admin makes a group and names its chair; the chair adds a member on the group's page.
test("an admin creates a working group with a chair, who adds a member on the group's page", async ({ browser }) => {
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await adminPage.goto("/login?redirect=%2Fmanager%2Fgroups");
  await signIn(adminPage, ADMIN);
  await expect(adminPage.getByRole("heading", { level: 1, name: "Working groups" })).toBeVisible();
  await adminPage.getByText("New group").click();
  await adminPage.locator("#new-group-name").fill("Radar working group");
  // The chairs' account (not the demo member, whom other specs sign in as a plain member).
  await adminPage.locator("#new-group-chairs").fill(CHAIR.email);
  await adminPage.locator("#new-group-description").fill("Radar performance standards and their test methods.");
  await adminPage.getByRole("button", { name: "Create group" }).click();
  await expect(adminPage.getByText("The group “Radar working group” is created.")).toBeVisible();
  await expectAccessible(adminPage);
  await adminContext.close();

  const memberContext = await browser.newContext();
  const page = await memberContext.newPage();
  await page.goto("/login?redirect=%2Fdashboard%2Fgroups");
  await signIn(page, CHAIR);
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

async function pdfOf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText(text, { x: 50, y: 700, font, size: 14 });
  return Buffer.from(await doc.save());
}

/** On /manager/groups: a new group with its chair. */
async function createGroup(page: Page, name: string, chairEmail: string) {
  await page.getByText("New group").click();
  await page.locator("#new-group-name").fill(name);
  await page.locator("#new-group-chairs").fill(chairEmail);
  await page.getByRole("button", { name: "Create group" }).click();
  await expect(page.getByText(`The group “${name}” is created.`)).toBeVisible();
}

/** A page of a new browser context, signed in as `who` and sent on to `to`. */
async function signedIn(browser: Browser, who: { email: string; password: string }, to: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/login?redirect=${encodeURIComponent(to)}`);
  await signIn(page, who);
  return { context, page };
}

// Issue 36, 'Done when': a chair uploads a paper to their group's category; a member of the group
// finds it in search and downloads it; a member outside the group gets 404 from the page, the API,
// the download and the feed, and finds nothing.
test("a chair adds a paper for the group; its member finds and downloads it; anyone else gets 404", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // The admin: a group with its chair, and a library category for it.
  const admin = await signedIn(browser, ADMIN, "/manager/groups");
  await createGroup(admin.page, "Petrel working group", CHAIR.email);
  await admin.page.goto("/manager/library");
  await admin.page.getByRole("link", { name: "New category" }).click();
  const form = admin.page.getByRole("form", { name: "New top-level category" });
  await form.getByLabel("Name", { exact: true }).fill("Petrel drafts");
  await form.getByLabel("Who may read it").selectOption("groups");
  await form.getByRole("group", { name: "Working groups" }).getByLabel("Petrel working group").check();
  await form.getByRole("button", { name: "Create category" }).click();
  await expect(admin.page.getByRole("status").filter({ hasText: "Created “Petrel drafts”." })).toBeVisible();
  const item = admin.page.locator("li", { has: admin.page.getByText("Petrel drafts", { exact: true }) }).first();
  await expect(item).toContainText("Groups: Petrel working group");
  await expectAccessible(admin.page);
  await admin.context.close();

  // The chair: adds a member, then a paper from the group's page.
  const chair = await signedIn(browser, CHAIR, "/dashboard/groups");
  await chair.page.getByRole("link", { name: /Petrel working group/ }).click();
  await chair.page.getByLabel("Add a member by e-mail address").fill(GROUP_MEMBER.email);
  await chair.page.getByRole("button", { name: "Add to the group" }).click();
  await expect(chair.page.getByText("is now in the group.")).toBeVisible();
  await chair.page.getByText("Add a paper to the group's library").click();
  const paper = chair.page.getByRole("form", { name: "New paper" });
  await paper.getByLabel("Name", { exact: true }).fill("Petrel nesting survey");
  await paper
    .getByLabel("File")
    .setInputFiles({ name: "survey.pdf", mimeType: "application/pdf", buffer: await pdfOf("Petrelwort colonies") });
  await paper.getByRole("button", { name: "Create paper" }).click();
  await expect(chair.page.getByText("Created “Petrel nesting survey”.")).toBeVisible();
  const latest = chair.page.getByRole("link", { name: "Petrel nesting survey" });
  await expect(latest).toBeVisible();
  const download = await latest.getAttribute("href");
  expect(download).toMatch(/^\/papers\/\d+\/download$/);
  await expectAccessible(chair.page);
  await chair.context.close();

  // The group's member: finds it in search (its text), opens the folder, downloads the file.
  const member = await signedIn(browser, GROUP_MEMBER, "/search?q=petrelwort");
  await expect(member.page.getByRole("link", { name: /Petrel nesting survey/ }).first()).toBeVisible();
  await member.page.goto("/dashboard/petrel-drafts");
  await expect(member.page.getByRole("heading", { level: 1, name: "Petrel drafts" })).toBeVisible();
  const file = await member.page.request.get(download as string);
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toBe("application/pdf");
  await expectAccessible(member.page);
  await member.context.close();

  // A member outside the group: 404 from the page, the API, the download and the feed; nothing found.
  const outsider = await signedIn(browser, OUTSIDER, "/search?q=petrelwort");
  await expect(outsider.page.getByRole("link", { name: /Petrel nesting survey/ })).toHaveCount(0);
  const folder = await outsider.page.goto("/dashboard/petrel-drafts");
  expect(folder?.status()).toBe(404);
  for (const url of [
    "/api/dashboard/getCategoryBySlug/petrel-drafts",
    download as string,
    "/library/petrel-drafts/feed.xml",
  ]) {
    expect((await outsider.page.request.get(url)).status(), url).toBe(404);
  }
  await outsider.context.close();
});

// Issue 36 'A chair … creates and edits the group's meetings and their programme, sees the group's
// registrations; nothing else' (decision 0085): from the group's page to the Events screens.
test("a chair makes the group's meeting, its member registers, the chair confirms; nothing else is theirs", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const title = `Fulmar plenary ${Date.now().toString(36)}`;
  const admin = await signedIn(browser, ADMIN, "/manager/groups");
  await createGroup(admin.page, "Fulmar working group", CHAIR.email);
  await admin.context.close();

  // The chair: adds the member, then a meeting from the group's page, with a session.
  const chair = await signedIn(browser, CHAIR, "/dashboard/groups");
  await chair.page.getByRole("link", { name: /Fulmar working group/ }).click();
  await chair.page.getByLabel("Add a member by e-mail address").fill(GROUP_MEMBER.email);
  await chair.page.getByRole("button", { name: "Add to the group" }).click();
  await expect(chair.page.getByText("is now in the group.")).toBeVisible();
  await chair.page.getByRole("link", { name: "New meeting for the group" }).click();
  await expect(chair.page.getByRole("heading", { level: 1, name: "New meeting" })).toBeVisible();
  await expect(chair.page.getByText("You're logged in as: chair")).toBeVisible();
  // Their group's members, the one audience a chair has, with the group ticked.
  await expect(chair.page.getByLabel("Public", { exact: true })).toHaveCount(0);
  await expect(chair.page.getByLabel("Working groups only")).toBeChecked();
  const groups = chair.page.getByRole("group", { name: "Working groups" });
  await expect(groups.getByLabel("Fulmar working group")).toBeChecked();
  await chair.page.getByLabel("Title", { exact: true }).fill(title);
  await chair.page.getByLabel("Start date", { exact: true }).fill("2031-11-18");
  await chair.page.getByLabel("Location", { exact: true }).fill("Tórshavn");
  await chair.page.getByRole("button", { name: "Create meeting" }).click();
  await expect(chair.page.getByRole("status").first()).toContainText(`Saved “${title}”.`);
  await expect(chair.page).toHaveURL(/\/manage-events\/\d+\/edit$/);
  const meetingId = chair.page.url().match(/manage-events\/(\d+)/)?.[1];
  const view = await chair.page.getByRole("link", { name: "View page" }).getAttribute("href");
  expect(view).toMatch(/^\/dashboard\/events\//);
  await expectAccessible(chair.page);

  // The group's member registers on the meeting's page.
  const member = await signedIn(browser, GROUP_MEMBER, view as string);
  await expect(member.page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  // In the members' area the form is in the page's Register section.
  const form = member.page.getByRole("region", { name: "Register", exact: true });
  await form.getByLabel("Company Name").fill("Fulmar Radio ApS");
  await form.getByLabel("Representative name").fill("Gunnar Group");
  await form.getByLabel("Email").fill(GROUP_MEMBER.email);
  await form.getByLabel("Phone number").fill("+298 31 00 00");
  await member.page.waitForTimeout(3000);
  await form.getByRole("button", { name: "Send" }).click();
  await expect(member.page.getByRole("dialog", { name: "Thank you!" })).toContainText("registration");
  await member.context.close();

  // The chair sees it among their meetings and confirms it.
  await chair.page.goto("/manage-events");
  await expect(chair.page.getByText("The meetings of the groups you chair")).toBeVisible();
  await chair.page.getByRole("link", { name: `Registrations for ${title}`, exact: true }).click();
  const row = chair.page.locator("li", { hasText: "Gunnar Group" });
  await expect(row.getByText("Pending", { exact: true })).toBeVisible();
  await row.getByRole("button", { name: "Confirm Gunnar Group" }).click();
  await expect(
    chair.page.getByRole("status").filter({ hasText: "Confirmed the registration of Gunnar Group" }),
  ).toBeVisible();
  await expectAccessible(chair.page);
  await chair.page.screenshot({ path: "tmp/chair-registrations-1280.png", fullPage: true });
  await chair.page.setViewportSize({ width: 390, height: 844 });
  await chair.page.goto("/manage-events");
  await expectAccessible(chair.page);
  await chair.page.screenshot({ path: "tmp/chair-events-390.png", fullPage: true });
  await chair.page.goto(`/manage-events/${meetingId}/edit`);
  await chair.page.screenshot({ path: "tmp/chair-meeting-390.png", fullPage: true });
  // The secretariat's screens are not theirs: they read why.
  const home = await chair.page.goto("/manager/users");
  expect(home?.status()).toBe(403);
  await expect(chair.page.getByText("This screen is for the secretariat")).toBeVisible();
  const api = await chair.page.request.get("/api/dashboard/meeting?search=fulmar");
  expect(((await api.json()) as { data: { id: number }[] }).data.map((m) => String(m.id))).toEqual([meetingId]);
  await chair.context.close();

  // A member outside the group: the meeting is not there for them.
  const outsider = await signedIn(browser, OUTSIDER, "/dashboard");
  expect((await outsider.page.goto(view as string))?.status()).toBe(404);
  await outsider.context.close();
});
