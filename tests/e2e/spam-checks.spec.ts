import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Locator, Page, Request } from "@playwright/test";
import Database from "better-sqlite3";
import { ADMIN, expect, expectAccessible, signIn, test } from "./fixtures";

/**
 * Issue 35, decision 0077: the join form's proof of work (ALTCHA) in Chromium, from our own
 * origin; its consent line beside the send button, with the Privacy Policy modal; the record of
 * it in the inbox. Every answer here is the real server's.
 */

const DATABASE = path.resolve(`tmp/e2e-data-${process.env.E2E_PORT ?? "3210"}/site.db`);
const SHOTS = process.env.SPAM_SHOTS ?? path.resolve("tmp/screenshots");

/** Reads the e2e server's database (SQLite, WAL: a reader beside the server is fine). */
function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(DATABASE, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** The widget's field in a multipart post of the form. */
function proofSent(request: Request): string | null {
  return /name="altcha"\r\n\r\n([^\r]*)\r\n/.exec(request.postData() ?? "")?.[1] ?? null;
}

/** How the server keeps a spent challenge: a hash of its signature. */
function spentKey(payload: string): string {
  const { challenge } = JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as {
    challenge: { signature: string };
  };
  return createHash("sha256").update(challenge.signature).digest("base64url");
}

async function fill(form: Locator, email: string) {
  await form.getByLabel("Company Name").fill("Baltic Radar Works");
  await form.getByLabel("Representative name").fill("Tomas Lind");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Phone number").fill("+46 31 123 45 67");
}

async function screenshots(page: Page, form: Locator, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await form.scrollIntoViewIfNeeded();
    await form.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("a join form sent through the ALTCHA widget: solved in the browser, spent once on the server, consent kept", async ({
  page,
}) => {
  await page.goto("/history");
  const contact = page.getByRole("region", { name: "Join the community" });
  const form = contact.locator("form");
  // Loaded only once the visitor starts on the form (decision 0028): nothing of it on the page before.
  await expect(form.locator("altcha-widget")).toHaveCount(0);
  const challenges: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/altcha/challenge") challenges.push(request.url());
  });

  // Beside the send button: how the details are used, and the Privacy Policy in its modal.
  await expect(form).toContainText(
    "We use these details to handle your request and to contact you about it, as described in our Privacy Policy.",
  );
  await form.getByRole("link", { name: "Privacy Policy" }).click();
  const policy = page.getByRole("dialog", { name: "Privacy Policy" });
  await expect(policy).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(policy).toHaveCount(0);

  // The first field's focus loads the widget, which solves a challenge from our own origin at once.
  await form.getByLabel("Company Name").focus();
  const check = form.getByRole("checkbox", { name: /spam check/i });
  await expect(check).toBeVisible();
  await expect(form.locator("altcha-widget label")).toHaveText("Spam check passed", { timeout: 20_000 });
  await expect(check).toBeChecked();
  expect(challenges).toHaveLength(1);
  expect(new URL(challenges[0]).origin).toBe(new URL(page.url()).origin);
  const address = `altcha-${Date.now()}@balticradar.example`;
  await fill(form, address);
  await expectAccessible(page);
  await screenshots(page, contact, "join-form-altcha");

  // A person takes a few seconds over four fields; the server keeps faster senders as probable spam.
  await page.waitForTimeout(3000);
  const posted = page.waitForRequest((request) => new URL(request.url()).pathname === "/api/join");
  await form.getByRole("button", { name: "Send" }).click();
  const dialog = page.getByRole("dialog", { name: "Thank you!" });
  await expect(dialog).toContainText("Your message was sent successfully.");
  const payload = proofSent(await posted);
  expect(payload).toBeTruthy();

  // Stored as a person's request, with the Privacy Policy's record; the challenge spent.
  const [stored] = query<{ spam_reason: string | null; privacy_shown_at: string | null }>(
    "select spam_reason, privacy_shown_at from join_requests where email = ?",
    address,
  );
  expect(stored).toEqual({ spam_reason: null, privacy_shown_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  expect(query("select 1 from spent_challenges where signature_hash = ?", spentKey(payload as string))).toHaveLength(1);

  // The same solution sent again, as a script replaying it would: refused, never thanked.
  const replay = await page.request.post("/api/join", {
    multipart: {
      company_name: "Baltic Radar Works",
      representative_name: "Tomas Lind",
      email: `replay-${address}`,
      phone_number: "+46 31 123 45 67",
      altcha: payload as string,
    },
  });
  expect(replay.status()).toBe(422);
  expect(((await replay.json()) as { errors: Record<string, string[]> }).errors.altcha[0]).toContain("already used");

  // The secretariat sees which Privacy Policy the form showed, and when.
  await dialog.getByRole("button", { name: "Close" }).click();
  await page.goto(`/login?redirect=${encodeURIComponent(`/manager/requests?search=${address}`)}`);
  await signIn(page, ADMIN);
  const row = page.locator('li[id^="request-"]').filter({ hasText: address });
  await expect(row).toContainText(/Privacy Policy shown: (revision \d+|no revision kept yet), \d+ \w+ \d{4}/);
});

test("a refused proof of work is said in the modal, the fields kept; sent again, the widget solves anew", async ({
  page,
}) => {
  await page.goto("/history");
  const form = page.getByRole("region", { name: "Join the community" }).locator("form");
  const address = `refused-${Date.now()}@balticradar.example`;
  await fill(form, address);
  await expect(form.locator("altcha-widget label")).toHaveText("Spam check passed", { timeout: 20_000 });
  await page.waitForTimeout(3000);

  // The solution is spoiled on its way (as an expired or forged one would be): the server's 422.
  await page.route("**/api/join", async (route) => {
    const body = route.request().postData() ?? "";
    await route.continue({ postData: body.replace(/(name="altcha"\r\n\r\n)[^\r]*/, "$1spoiled") });
  });
  await form.getByRole("button", { name: "Send" }).click();
  const refused = page.getByRole("dialog", { name: "Not sent" });
  await expect(refused).toContainText("The automatic spam check could not be confirmed.");
  await expect(refused).toContainText("What you typed is still in the form.");
  await expect(page.getByText("Thank you")).toHaveCount(0);
  await refused.getByRole("button", { name: "Close" }).click();
  await expect(form.getByLabel("Email")).toHaveValue(address);

  // Sent again unspoiled: a new challenge is solved, and the request goes through.
  await page.unroute("**/api/join");
  const posted = page.waitForRequest((request) => new URL(request.url()).pathname === "/api/join");
  await form.getByRole("button", { name: "Send" }).click();
  // The widget solved anew (started when the refusal came); on a loaded machine that may take seconds.
  await expect(page.getByRole("dialog", { name: "Thank you!" })).toContainText("Your message was sent successfully.", {
    timeout: 20_000,
  });
  expect(proofSent(await posted)).toMatch(/^[A-Za-z0-9+/=]{100,}$/);
  expect(query("select 1 from join_requests where email = ?", address)).toHaveLength(1);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the form shows its consent line with a plain link and is judged by the other checks", async ({ page }) => {
    await page.goto("/join");
    const form = page.locator("#contact-us form");
    await expect(form.locator("altcha-widget")).toHaveCount(0);
    await expect(form.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy-policy");
    const address = `plain-${Date.now()}@balticradar.example`;
    await fill(form, address);
    await page.waitForTimeout(3000);
    await form.getByRole("button", { name: "Send" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Thank you!" })).toBeVisible();
    const [stored] = query<{ spam_reason: string | null; privacy_shown_at: string | null }>(
      "select spam_reason, privacy_shown_at from join_requests where email = ?",
      address,
    );
    expect(stored.spam_reason).toBeNull();
    expect(stored.privacy_shown_at).toBeTruthy();
  });
});
