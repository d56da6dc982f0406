import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, type Page, request as requests } from "@playwright/test";
import { ALREADY_REGISTERED_MAILED, WAITLISTED_THANKS } from "../../core/join/join.values";
import { ADMIN, expect, expectAccessible, MEMBER, outboxMailsTo, signIn, test } from "./fixtures";

/**
 * Issue 32 'Done when': a visitor registers for a full meeting and is waitlisted; another attendee
 * cancels from the link in their e-mail; the visitor is moved up and gets the invitation. And a
 * member sees 'My registrations' on /dashboard/events and cancels one there. Meetings of their own
 * in 2099, so that no other test's pages change.
 */

const SHOTS = path.resolve("tmp/screenshots");
async function screenshots(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: width === 390 });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

const ownAddress = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
const stamp = Date.now().toString(36);

async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post("/api/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function createMeeting(request: APIRequestContext, title: string, extra: Record<string, string>) {
  const token = await adminToken(request);
  const res = await request.post("/api/dashboard/meeting", {
    data: { title, type: "meeting", start_date: "2099-07-14", timezone: "Europe/Oslo", location: "Bergen", ...extra },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { ...((await res.json()) as { event: { id: number; slug: string } }).event, token };
}

/** The last registrant link mailed to an address. */
function registrantLink(address: string): string | null {
  const links = outboxMailsTo(address).flatMap((mail) =>
    [...mail.matchAll(/\/registrations\/([A-Za-z0-9_-]{43})/g)].map((m) => `/registrations/${m[1]}`),
  );
  return links.at(-1) ?? null;
}

test("waitlisted, then moved up with the invitation when another attendee cancels from their e-mail", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const title = `Bergen ECDIS Forum ${stamp}`;
  const meeting = await createMeeting(request, title, { capacity: "1", auto_confirm: "on" });
  const first = `first.${stamp}@fjord-nav.example`;
  const visitor = `second.${stamp}@skagerrak-radio.example`;

  // The first attendee takes the only seat (confirmed at once) from elsewhere, with the form's
  // signed shown-at time (a form sent at once would be held as probable spam, never confirmed).
  await page.goto(`/events/${meeting.slug}`);
  const startedAt = await page.locator('input[name="started_at"]').first().inputValue();
  await page.waitForTimeout(3000);
  const elsewhere = await requests.newContext({ baseURL: test.info().project.use.baseURL });
  const taken = await elsewhere.post("/api/join", {
    data: {
      company_name: "Fjord Navigation AS",
      representative_name: "Frida Fjord",
      email: first,
      phone_number: "+47 55 00 00 01",
      page_path: `/events/${meeting.slug}`,
      started_at: startedAt,
    },
    headers: { "X-Forwarded-For": ownAddress() },
  });
  expect(taken.status(), await taken.text()).toBe(200);
  expect(await taken.json()).toEqual({ status: "success", registration: { status: "confirmed" } });

  // The visitor finds the meeting full, and registers for its waiting list with a note.
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": ownAddress() });
  await page.goto(`/events/${meeting.slug}`);
  const band = page.getByRole("region", { name: `Register for ${title}` });
  await expect(band.getByText("Full: join the waiting list")).toBeVisible();
  await band.getByLabel("Company Name").fill("Skagerrak Radio AB");
  await band.getByLabel("Representative name").fill("Sven Skagerrak");
  await band.getByLabel("Email").fill(visitor);
  await band.getByLabel("Phone number").fill("+46 31 00 00 02");
  await band.getByLabel(/Note for the organisers/).fill("Vegetarian meals, please.");
  await band.scrollIntoViewIfNeeded();
  await expectAccessible(page);
  await screenshots(page, "meeting-registration-form");
  await band.getByRole("button", { name: "Send" }).click();
  const thanks = page.getByRole("dialog", { name: "Thank you!" });
  await expect(thanks).toContainText(WAITLISTED_THANKS);
  await thanks.getByRole("button", { name: "Close" }).click();

  // Sent again from the same address: one registration, and its link goes to that address.
  await band.getByLabel("Company Name").fill("Skagerrak Radio AB");
  await band.getByLabel("Representative name").fill("Sven Skagerrak");
  await band.getByLabel("Email").fill(visitor);
  await band.getByLabel("Phone number").fill("+46 31 00 00 02");
  await band.getByRole("button", { name: "Send" }).click();
  const refused = page.getByRole("dialog", { name: "Not sent" });
  await expect(refused).toContainText(ALREADY_REGISTERED_MAILED);
  await screenshots(page, "meeting-registration-already");
  await refused.getByRole("button", { name: "Close" }).click();

  // The first attendee cannot come: they cancel from the link in their e-mail.
  const link = registrantLink(first);
  expect(link).toBeTruthy();
  await page.goto(link as string);
  await expect(page.getByRole("heading", { name: "Confirmed: we look forward to seeing you." })).toBeVisible();
  await page.getByRole("link", { name: "Cancel my registration…" }).click();
  await page.getByRole("button", { name: "Yes, cancel my registration" }).click();
  await expect(page.getByText("Your registration is cancelled.")).toBeVisible();

  // The visitor moves up, confirmed (the meeting confirms automatically), with the calendar invitation.
  await expect
    .poll(() => outboxMailsTo(visitor).find((mail) => mail.includes(`Subject: Registration confirmed: ${title}`)), {
      timeout: 15_000,
    })
    .toBeTruthy();
  const confirmed = outboxMailsTo(visitor).find((mail) => mail.includes(`Subject: Registration confirmed: ${title}`));
  expect(confirmed).toContain("METHOD:REQUEST");
  const answer = await request.get(`/api/dashboard/meeting/${meeting.id}/registrations`, {
    headers: { Authorization: `Bearer ${meeting.token}` },
  });
  const rows = ((await answer.json()) as { data: { email: string; status: string; note: string | null }[] }).data;
  expect(rows.find((r) => r.email === visitor)).toMatchObject({
    status: "confirmed",
    note: "Vegetarian meals, please.",
  });
  expect(rows.find((r) => r.email === first)).toMatchObject({ status: "cancelled" });
  await elsewhere.dispose();
});

test("a member sees My registrations on /dashboard/events and cancels one there", async ({ page, request }) => {
  test.setTimeout(120_000);
  const title = `Tromsø AIS Workshop ${stamp}`;
  const meeting = await createMeeting(request, title, { capacity: "20" });
  await page.goto("/login?redirect=%2Fdashboard%2Fevents");
  await signIn(page, MEMBER);
  // Registered from the meeting's page, signed in: the form is filled with the member's details.
  await page.goto(`/dashboard/events/${meeting.slug}`);
  const form = page.locator("#register");
  await expect(form.getByLabel("Email")).toHaveValue(MEMBER.email);
  await form.getByLabel("Company Name").fill("Arctic Bridge AS");
  if (!(await form.getByLabel("Phone number").inputValue()))
    await form.getByLabel("Phone number").fill("+47 77 00 00 03");
  if (!(await form.getByLabel("Representative name").inputValue())) {
    await form.getByLabel("Representative name").fill("Member Tester");
  }
  await form.getByRole("button", { name: "Send" }).click();
  const thanks = page.getByRole("dialog", { name: "Thank you!" });
  await expect(thanks).toBeVisible();
  await thanks.getByRole("button", { name: "Close" }).click();

  await page.goto("/dashboard/events");
  const mine = page.getByRole("region", { name: "My registrations" });
  const item = mine.getByRole("listitem").filter({ hasText: title });
  await expect(item.getByText("Received, to be confirmed")).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, "my-registrations");
  await item.getByRole("link", { name: `Cancel my registration for ${title}…` }).click();
  await item.getByRole("button", { name: "Yes, cancel my registration" }).click();
  await expect(mine.getByRole("status")).toContainText(`Your registration for ${title} is cancelled.`);
  await expect(item.getByText("Cancelled", { exact: true })).toBeVisible();
});
