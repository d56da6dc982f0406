import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, type Page, request as requests } from "@playwright/test";
import { ADMIN, expect, expectAccessible, outboxMailsTo, signIn, test } from "./fixtures";

/**
 * Issue 30 point 10, decision 0039: the confirm modal opens at once (SPEC §4) but says why when
 * the server refuses, with the fields kept; nothing sent is dropped in silence; the contact form
 * of /contact and /feedback-forum. Every refusal here is the real server's answer.
 */

const SHOTS = path.resolve("tmp/screenshots");
/** The modal (or page) at a phone's and a desktop's width, for a person to look at. */
async function screenshots(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** A client address of this test's own, so that its requests count against no one else's limit. */
const ownAddress = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`;

/** Another visitor: a request context of its own, without the admin's session cookie. */
async function postAsVisitor(data: Record<string, string>) {
  const visitor = await requests.newContext({ baseURL: test.info().project.use.baseURL });
  const res = await visitor.post("/api/join", { data, headers: { "X-Forwarded-For": ownAddress() } });
  const status = res.status();
  await visitor.dispose();
  return status;
}

async function adminToken(request: APIRequestContext): Promise<string> {
  const res = await request.post("/api/login", { data: { email: ADMIN.email, password: ADMIN.password } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

const MEETING = (title: string, extra: Record<string, string> = {}) => ({
  title,
  type: "meeting",
  start_date: "2099-06-10",
  timezone: "Europe/London",
  ...extra,
});

async function createMeeting(request: APIRequestContext, token: string, body: Record<string, string>) {
  const res = await request.post("/api/dashboard/meeting", {
    data: body,
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { event: { id: number; slug: string } }).event;
}

async function fillJoinForm(form: ReturnType<Page["locator"]>, company: string, email: string) {
  await form.getByLabel("Company Name").fill(company);
  await form.getByLabel("Representative name").fill("Rita Refused");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Phone number").fill("+44 20 7946 0999");
}

test("a registration for a meeting that filled up meanwhile: the modal says it is full, the fields stay", async ({
  page,
  request,
}) => {
  const token = await adminToken(request);
  // Without a waiting list (on by default since issue 32), a full meeting refuses.
  const meeting = await createMeeting(
    request,
    token,
    MEETING(`Full meeting ${Date.now()}`, { capacity: "1", waitlist: "off" }),
  );
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": ownAddress() });
  await page.goto(`/events/${meeting.slug}`);
  const band = page.getByRole("region", { name: /^Register for / });
  await fillJoinForm(band, "Solent Sonar Ltd", "rita@solent-sonar.example");
  // Someone else takes the last seat while the visitor types.
  const other = await postAsVisitor({
    company_name: "Early Bird Marine",
    representative_name: "Eddie Early",
    email: "eddie@earlybird.example",
    phone_number: "+44 20 7946 0100",
    page_path: `/events/${meeting.slug}`,
  });
  expect(other).toBe(200);
  await page.waitForTimeout(3000);
  await band.getByRole("button", { name: "Send" }).click();

  const dialog = page.getByRole("dialog", { name: "Not sent" });
  await expect(dialog).toContainText("This meeting is full: registration is closed.");
  await expect(dialog).toContainText("Your registration was not recorded.");
  await expect(page.getByRole("dialog", { name: "Thank you!" })).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, "refusal-full-meeting");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(band.getByLabel("Company Name")).toHaveValue("Solent Sonar Ltd");
  await expect(band.getByLabel("Email")).toHaveValue("rita@solent-sonar.example");
});

test("a registration closed by the secretariat meanwhile: the modal says so", async ({ page, request }) => {
  const token = await adminToken(request);
  const body = MEETING(`Closing meeting ${Date.now()}`);
  const meeting = await createMeeting(request, token, body);
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": ownAddress() });
  await page.goto(`/events/${meeting.slug}`);
  const band = page.getByRole("region", { name: /^Register for / });
  await fillJoinForm(band, "Humber Helm AB", "helm@humber.example");
  const closed = await request.patch(`/api/dashboard/meeting/${meeting.id}`, {
    data: { ...body, registration_status: "closed" },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(closed.status(), await closed.text()).toBe(200);
  await page.waitForTimeout(3000);
  await band.getByRole("button", { name: "Send" }).click();
  const dialog = page.getByRole("dialog", { name: "Not sent" });
  await expect(dialog).toContainText("Registration for this meeting is closed.");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(band.getByLabel("Company Name")).toHaveValue("Humber Helm AB");
});

test("past the per-address limit: the modal says to try again and when", async ({ page, request }) => {
  const address = ownAddress();
  // The limit (JOIN_RATE_LIMIT, 30 an hour) used up from this address, by requests the honeypot catches.
  for (let i = 0; i < 30; i += 1) {
    const res = await request.post("/api/join", {
      data: {
        company_name: `Flood ${i}`,
        representative_name: "Flood",
        email: "flood@example.org",
        phone_number: "+44 20 7946 0000",
        website: "bot",
      },
      headers: { "X-Forwarded-For": address },
    });
    expect(res.status()).toBe(200);
  }
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": address });
  await page.goto("/history");
  const band = page.getByRole("region", { name: "Join the community" });
  await fillJoinForm(band, "Limited Radio Co", "limited@radio.example");
  await page.waitForTimeout(3000);
  await band.getByRole("button", { name: "Send" }).click();
  const dialog = page.getByRole("dialog", { name: "Not sent" });
  await expect(dialog).toContainText(/Too many requests from your network\. Please try again in \d+ minutes\./);
  await expect(dialog).toContainText("What you typed is still in the form.");
  await expectAccessible(page);
  await screenshots(page, "refusal-rate-limit");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(band.getByLabel("Company Name")).toHaveValue("Limited Radio Co");
});

test("fields the server refuses: the modal asks to correct them, closing it leads to the first", async ({ page }) => {
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": ownAddress() });
  await page.goto("/history");
  // A browser whose checks let through what the server's do not (an older script, say): what it sends
  // is rewritten on the way, and the real server answers.
  await page.route("**/api/join", (route) => {
    const body = new URLSearchParams({
      company_name: "Checks Differ Ltd",
      representative_name: "Dana Differ",
      email: "dana@",
      phone_number: "12",
      page_path: "/history",
    });
    return route.continue({
      postData: body.toString(),
      headers: { ...route.request().headers(), "content-type": "application/x-www-form-urlencoded" },
    });
  });
  const band = page.getByRole("region", { name: "Join the community" });
  await fillJoinForm(band, "Checks Differ Ltd", "dana@differ.example");
  await page.waitForTimeout(3000);
  await band.getByRole("button", { name: "Send" }).click();
  const dialog = page.getByRole("dialog", { name: "Not sent" });
  await expect(dialog).toContainText("Some details need correcting.");
  await expect(dialog).toContainText("Email is not valid.");
  await expect(dialog).toContainText("Phone format is incorrect.");
  await expectAccessible(page);
  await screenshots(page, "refusal-fields");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(band.getByLabel("Email")).toBeFocused();
  await expect(band.getByText("Email is not valid.")).toBeVisible();
  await expect(band.getByLabel("Company Name")).toHaveValue("Checks Differ Ltd");
});

test("a form without the site's own time stamp is thanked and kept as probable spam; the admin marks it not spam", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": ownAddress() });
  await page.goto("/history");
  // What a page opened before the site signed its forms' times sends (the browser's clock), or a script: the
  // server cannot tell when the form was shown (decision 0039). A request "too fast" on the server's clock
  // is kept the same way (tests/integration/join-api.test.ts); here the time is what changes, not the wait.
  await page.route("**/api/join", async (route) => {
    const original = route.request();
    const sent = await new Response(new Uint8Array(original.postDataBuffer() ?? Buffer.alloc(0)), {
      headers: { "content-type": original.headers()["content-type"] ?? "" },
    }).formData();
    const body = new URLSearchParams();
    for (const [name, value] of sent) body.set(name, String(value));
    body.set("started_at", String(Date.now() - 60_000));
    await route.continue({
      postData: body.toString(),
      headers: { ...original.headers(), "content-type": "application/x-www-form-urlencoded" },
    });
  });
  const band = page.getByRole("region", { name: "Join the community" });
  const company = `Autofill Avionics ${Date.now()}`;
  const address = `auto-${Date.now()}@avionics.example`;
  await fillJoinForm(band, company, address);
  await page.waitForTimeout(3000);
  await band.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("dialog", { name: "Thank you!" })).toContainText("Your message was sent successfully.");
  await page.getByRole("button", { name: "Close" }).click();
  await expect(band.getByLabel("Company Name")).toHaveValue("");

  const admin = await (await browser.newContext()).newPage();
  await admin.goto("/login?redirect=%2Fmanager%2Frequests%3Fspam%3Donly");
  await signIn(admin, ADMIN);
  await expect(admin.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
  const row = admin.locator("main ul > li", { hasText: company });
  await expect(row).toContainText("Probable spam: sent without the time stamp the site gives its forms");
  // Probable spam is not acknowledged: the address typed may be anyone's (decision 0039).
  await expect(row).not.toContainText("Reply to sender");
  expect(outboxMailsTo(address)).toEqual([]);
  await expectAccessible(admin);
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await admin.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await row.scrollIntoViewIfNeeded();
    await admin.screenshot({ path: path.join(SHOTS, `inbox-${width}.png`) });
  }
  await row.getByRole("button", { name: /^Not spam/ }).click();
  await expect(admin.locator("main ul > li", { hasText: company })).toHaveCount(0);
  await admin.goto("/manager/requests?spam=none");
  await expect(admin.locator("main ul > li", { hasText: company })).toHaveCount(1);
  await admin.context().close();
});

test("without JavaScript a full meeting's refusal comes back on /join, never the thanks", async ({
  browser,
  request,
}) => {
  const token = await adminToken(request);
  const meeting = await createMeeting(
    request,
    token,
    MEETING(`No-JS full ${Date.now()}`, { capacity: "1", waitlist: "off" }),
  );
  const context = await browser.newContext({
    javaScriptEnabled: false,
    extraHTTPHeaders: { "X-Forwarded-For": ownAddress() },
  });
  const page = await context.newPage();
  await page.goto(`/events/${meeting.slug}`);
  const form = page.locator("#contact-us form");
  await fillJoinForm(form, "Static Sextant Ltd", "static@sextant.example");
  expect(
    await postAsVisitor({
      company_name: "First Come Ltd",
      representative_name: "Fay First",
      email: "fay@first.example",
      phone_number: "+44 20 7946 0101",
      page_path: `/events/${meeting.slug}`,
    }),
  ).toBe(200);
  await page.waitForTimeout(3000);
  await form.getByRole("button", { name: "Send" }).click();
  await expect(page).toHaveURL(/\/join$/);
  await expect(page.getByRole("alert")).toContainText("This meeting is full: registration is closed.");
  await expect(page.getByText("Thank you")).toHaveCount(0);
  await expect(page.locator("main form").getByLabel("Company Name")).toHaveValue("Static Sextant Ltd");
  // The form shown again still registers for the meeting it came from.
  await expect(page.locator('main form input[name="page_path"]')).toHaveValue(`/events/${meeting.slug}`);
  await context.close();
});

test("/join shows its form once: no second 'Join the community' band below it", async ({ page }) => {
  await page.goto("/join");
  await expect(page.getByRole("heading", { name: "Join the community" })).toHaveCount(1);
  await expect(page.getByText("The form is above.")).toHaveCount(0);
  await expect(page.locator("main form")).toHaveCount(1);
  await expect(page.locator("#contact-us")).toHaveCount(1);
  await page.goto("/history");
  await expect(page.getByRole("region", { name: "Join the community" })).toBeVisible();
});

test("the contact page's message form: checks, thanks, an acknowledgement by mail, a message in the inbox", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": ownAddress() });
  await page.goto("/contact");
  const section = page.getByRole("region", { name: "Send us a message" });
  await expect(section).toBeVisible();
  // The first press loads the form's checks (decision 0033's islands); on a loaded CI machine one
  // press went unanswered for 7 s once. Pressed again as a person would: what is tested is what
  // the press shows, not how many it takes (as openMenu in fixtures.ts).
  await expect(async () => {
    await section.getByRole("button", { name: "Send message" }).click();
    await expect(section.getByRole("alert")).toHaveText("You have validation errors! Please fix them all", {
      timeout: 5_000,
    });
  }).toPass({ timeout: 30_000 });
  for (const message of ["Name is required.", "Email is required.", "Subject is required.", "Message is required."]) {
    await expect(section.getByText(message)).toBeVisible();
  }
  await expect(section.getByLabel("Name")).toBeFocused();
  await expectAccessible(page);
  await screenshots(page, "contact-form-errors");

  const address = `pilot-${Date.now()}@harbour.example`;
  const subject = `Radar alarm tones ${Date.now()}`;
  await section.getByLabel("Name").fill("Paula Pilot");
  await section.getByLabel("Email").fill(address);
  await section.getByLabel("Subject").fill(subject);
  await section.getByLabel("Message").fill("The alarm tones of two makers\nsound the same on our bridge.");
  await page.waitForTimeout(3000);
  await section.getByRole("button", { name: "Send message" }).click();
  const dialog = page.getByRole("dialog", { name: "Thank you!" });
  await expect(dialog).toContainText("Your message was sent successfully.");
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(section.getByLabel("Subject")).toHaveValue("");
  await expect.poll(() => outboxMailsTo(address).length, { timeout: 10_000 }).toBe(1);
  // The acknowledgement quotes nothing the sender typed (decision 0039).
  expect(outboxMailsTo(address)[0]).toContain("We received your message on");
  expect(outboxMailsTo(address)[0]).not.toContain("Paula");
  expect(outboxMailsTo(address)[0]).not.toContain("Radar alarm tones");

  const admin = await (await browser.newContext()).newPage();
  await admin.goto("/login?redirect=%2Fmanager%2Frequests%3Fkind%3Dmessage");
  await signIn(admin, ADMIN);
  const row = admin.locator("main ul > li", { hasText: subject });
  await expect(row).toContainText("Message");
  await expect(row).toContainText("sound the same on our bridge.");
  await expectAccessible(admin);
  await admin.context().close();
});

test("the contact form at a phone's and a desktop's width", async ({ page }) => {
  await page.goto("/feedback-forum");
  await page.getByRole("region", { name: "Send us a message" }).scrollIntoViewIfNeeded();
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page
      .getByRole("region", { name: "Send us a message" })
      .screenshot({ path: path.join(SHOTS, `contact-form-${width}.png`) });
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the message form posts to /message: errors with the values, then the thank-you page", async ({ page }) => {
    await page.setExtraHTTPHeaders({ "X-Forwarded-For": ownAddress() });
    await page.goto("/feedback-forum");
    const form = page.locator("#message-form form");
    await form.getByLabel("Name").fill("Nils Nojs");
    await form.getByLabel("Email").fill("nils@");
    await form.getByRole("button", { name: "Send message" }).click();
    await expect(page).toHaveURL(/\/message$/);
    const again = page.locator("main form");
    await expect(again.getByText("Email is not valid.")).toBeVisible();
    await expect(again.getByText("Subject is required.")).toBeVisible();
    await expect(again.getByLabel("Name")).toHaveValue("Nils Nojs");
    await again.getByLabel("Email").fill("nils@nojs.example");
    await again.getByLabel("Subject").fill("Feedback without scripts");
    await again.getByLabel("Message").fill("It works without JavaScript.");
    await page.waitForTimeout(3000);
    await again.getByRole("button", { name: "Send message" }).click();
    await expect(page).toHaveURL(/\/join\/thank-you\?from=%2Ffeedback-forum$/);
    await expect(page.getByText("Your message was sent successfully.")).toBeVisible();
  });
});
