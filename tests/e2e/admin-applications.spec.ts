import fs from "node:fs";
import { request } from "@playwright/test";
import { ADMIN, expect, expectAccessible, linkMailedTo, MEMBER, outboxMailsTo, signIn, test } from "./fixtures";

// Approving makes a member company (the directory and the companies change): one after the other.
test.describe.configure({ mode: "serial" });

const SHOTS = "tmp/shots";

/** A membership application as an API client sends it (signed in with a Bearer token: no spam checks). */
async function apply(baseURL: string, fields: Record<string, string>) {
  const api = await request.newContext({ baseURL });
  const login = await api.post("/api/login", { data: MEMBER });
  expect(login.status()).toBe(200);
  const token = (await login.json()).access_token as string;
  const sent = await api.post("/api/join", {
    data: { phone_number: "+47 22 33 44 55", ...fields },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  await api.dispose();
}

test("the secretariat approves an application; the new representative accepts the invitation and reads a members-only paper", async ({
  page,
  browser,
  baseURL,
}) => {
  const stamp = Date.now();
  const company = `Harbour Lights Radio ${stamp} AS`;
  const email = `maren.${stamp}@harbourlights.example`;
  await apply(baseURL as string, { company_name: company, representative_name: "Maren Holt", email });

  await page.goto("/login?redirect=%2Fmanager%2Frequests%3Fstatus%3Dnew");
  await signIn(page, ADMIN);
  await expect(page.getByLabel("Status")).toHaveValue("new");
  const row = page.locator('li[id^="request-"]').filter({ hasText: company });
  await expect(row.getByText("New application")).toBeVisible();
  await expect(row.getByRole("heading", { name: "History" })).toBeVisible();
  await expect(row).toContainText("Received");
  await row.getByRole("link", { name: `Approve… the application of ${company}` }).click();

  // The form is prefilled from the request; the admin adds the country and the type.
  const form = page.getByRole("region", { name: `Approve the application of ${company}` });
  await expect(form.getByLabel("Company name")).toHaveValue(company);
  await expect(form.getByLabel("Representative's first name")).toHaveValue("Maren");
  await expect(form.getByLabel("Representative's last name")).toHaveValue("Holt");
  await expect(form.getByLabel("Representative's e-mail")).toHaveValue(email);
  await expect(form.getByLabel("Phone (from the request)")).toHaveValue("+47 22 33 44 55");
  await expect(form.getByLabel("Company", { exact: true })).toHaveValue("");
  await expectAccessible(page);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await form.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/inbox-approve-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/inbox-approve-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Without a country and type: refused beside the fields, with what was typed kept.
  await form.getByLabel("Representative's first name").fill("Maren Elise");
  await form.getByRole("button", { name: "Approve and invite" }).click();
  await expect(form.getByText("Choose a country: an ISO 3166-1 alpha-2 code such as NO or GB.")).toBeVisible();
  await expect(form.getByText("Choose the membership type: full or associate.")).toBeVisible();
  await expect(form.getByLabel("Representative's first name")).toHaveValue("Maren Elise");

  await form.getByLabel("Country").selectOption({ label: "Norway" });
  await form.getByLabel("Membership type").selectOption("full");
  await form.getByRole("button", { name: "Approve and invite" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Approved:" })).toContainText(
    `Approved: ${company} is a member company, and an invitation was sent to ${email}.`,
  );

  // The request leaves the new ones; among the approved, its history says who and what was mailed.
  await page.goto("/manager/requests?status=approved");
  const approved = page.locator('li[id^="request-"]').filter({ hasText: company });
  await expect(approved.getByText("Approved", { exact: true })).toBeVisible();
  await expect(approved).toContainText(`Approved by Erika Admin on`);
  await expect(approved).toContainText(`representative of ${company}`);
  await expect(approved).toContainText(`Invitation (approval) to ${email}`);
  await expect(approved.getByRole("link", { name: /Approve…/ })).toHaveCount(0);
  await expectAccessible(page);

  // The mail opens with the approval and carries the invitation's link.
  await expect.poll(() => linkMailedTo(email, "/welcome"), { timeout: 10_000 }).not.toBeNull();
  expect(outboxMailsTo(email).join("\n")).toContain(`Your application for ${company} to join`);
  const link = linkMailedTo(email, "/welcome") as string;

  const context = await browser.newContext();
  const maren = await context.newPage();
  await maren.goto(link);
  await expect(maren.getByRole("heading", { level: 1, name: "Welcome, Maren Elise" })).toBeVisible();
  await maren.getByLabel("Password", { exact: true }).fill("lighthouse-keeper-2026");
  await maren.getByLabel("Confirm the password").fill("lighthouse-keeper-2026");
  await maren.getByRole("button", { name: "Open my account" }).click();
  await expect(maren).toHaveURL(/\/dashboard\?notice=welcome$/);
  const me = await (await maren.request.get("/api/dashboard/user")).json();
  expect(me.user.company).toMatchObject({ name: company, current: true, primary: true });

  // A members-only paper opens for the company's new representative.
  await maren.goto("/dashboard/policies?search=consultation");
  const paper = maren.locator('li[id^="paper-"]').first();
  const [download] = await Promise.all([
    maren.waitForEvent("download"),
    paper.getByRole("link", { name: /^Download/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  await context.close();
});

test("the secretariat declines an application with a reason, which is mailed; it cannot be decided twice", async ({
  page,
  baseURL,
}) => {
  const stamp = Date.now();
  const company = `Quick Gadgets ${stamp}`;
  const email = `sales.${stamp}@quickgadgets.example`;
  await apply(baseURL as string, { company_name: company, representative_name: "Sam Parker", email });

  await page.goto("/login?redirect=%2Fmanager%2Frequests%3Fstatus%3Dnew");
  await signIn(page, ADMIN);
  const row = page.locator('li[id^="request-"]').filter({ hasText: company });
  await row.getByRole("link", { name: `Decline… the application of ${company}` }).click();
  const form = page.getByRole("region", { name: `Decline the application of ${company}` });
  await form.getByRole("button", { name: "Decline and e-mail the reason" }).click();
  await expect(form.getByText("Give the reason: it is e-mailed to the applicant.")).toBeVisible();
  await expectAccessible(page);
  const reason = "Membership is open to companies that make, install or service marine electronics.";
  await form.getByLabel(`Reason (e-mailed to ${email})`).fill(reason);
  await form.getByRole("button", { name: "Decline and e-mail the reason" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Declined:" })).toHaveText(
    "Declined: the reason was e-mailed to the applicant.",
  );

  await page.goto("/manager/requests?status=declined");
  const declined = page.locator('li[id^="request-"]').filter({ hasText: company });
  await expect(declined).toContainText(`Declined by Erika Admin on`);
  await expect(declined).toContainText(reason);
  await expect.poll(() => outboxMailsTo(email).some((mail) => mail.includes(reason)), { timeout: 10_000 }).toBe(true);

  // The API refuses a second decision.
  const id = (await declined.getAttribute("id"))?.replace("request-", "");
  const again = await page.request.post(`/api/dashboard/join-requests/${id}/approve`, {
    data: { country: "NO", membership_type: "full" },
    headers: { origin: baseURL as string },
  });
  expect(again.status()).toBe(409);
  expect((await again.json()).message).toBe("This application was already declined.");
});
