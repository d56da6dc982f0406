import fs from "node:fs";
import { request } from "@playwright/test";
import { simpleParser } from "mailparser";
import { ADMIN, expect, expectAccessible, MEMBER, OUTBOX, signIn, test } from "./fixtures";

const SHOTS = "tmp/shots";

/** The raw .eml files in the server's outbox sent to `address`. */
function rawMailsTo(address: string): string[] {
  if (!fs.existsSync(OUTBOX)) return [];
  return fs
    .readdirSync(OUTBOX)
    .sort()
    .map((file) => fs.readFileSync(`${OUTBOX}/${file}`, "utf8"))
    .filter((text) => text.split(/\r?\n/).includes(`To: ${address}`));
}

/**
 * Issue 33's "done when", in Chromium against the production build: a member follows a category
 * from its page, an admin uploads three papers, one mail arrives within the batching window
 * (NOTIFY_BATCH_SECONDS=10 here) listing the three, the member unsubscribes with a one-click POST
 * as a mail provider sends it, and gets no more.
 */
test("a member follows a category, hears of three new papers in one mail, and unsubscribes in one click", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now();
  const api = await request.newContext({ baseURL });
  const login = await api.post("/api/login", { data: ADMIN });
  expect(login.status()).toBe(200);
  const admin = { authorization: `Bearer ${(await login.json()).access_token as string}` };
  const created = await api.post("/api/dashboard/papers-categories", {
    data: { name: `Notices ${stamp}`, is_public: true },
    headers: admin,
  });
  expect(created.status(), await created.text()).toBe(201);
  const category = (await created.json()).category as { id: number; slug: string; name: string };

  // The member follows it from the category's page.
  await page.goto(`/login?redirect=${encodeURIComponent(`/library/${category.slug}`)}`);
  await signIn(page, MEMBER);
  await expect(page).toHaveURL(new RegExp(`/library/${category.slug}$`));
  await page.getByRole("button", { name: "Follow: e-mail me new documents" }).click();
  await expect(page).toHaveURL(/\/dashboard\/notifications\?followed=/);
  await expect(page.getByText(`You now follow ${category.name}.`)).toBeVisible();
  await expect(page.getByLabel(`Library category ${category.name}`)).toHaveValue("instant");
  await expectAccessible(page);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/notifications-${width}.png`, fullPage: true });
  }

  // Three papers uploaded together.
  const names = ["Radar clutter", "AIS base stations", "ECDIS updates"].map((n) => `${n} ${stamp}`);
  const uploaded = await Promise.all(
    names.map((name) =>
      api.post("/api/dashboard/papers", { data: { papers_category_id: category.id, name }, headers: admin }),
    ),
  );
  for (const response of uploaded) expect(response.status(), await response.text()).toBe(201);
  const sentAt = Date.now();

  // One mail, within the window (and a few seconds for the job's turn and the queue).
  await expect
    .poll(() => rawMailsTo(MEMBER.email).filter((m) => m.includes(String(stamp))).length, { timeout: 30_000 })
    .toBe(1);
  expect(Date.now() - sentAt).toBeLessThan(25_000);
  const raw = rawMailsTo(MEMBER.email).find((m) => m.includes(String(stamp))) as string;
  const mail = await simpleParser(raw);
  for (const name of names) {
    expect(mail.text).toContain(name);
    expect(mail.html).toContain(name);
  }
  const unsubscribeHeader = mail.headerLines.find((h) => h.key === "list-unsubscribe")?.line ?? "";
  const address = /<([^>]+)>/.exec(unsubscribeHeader)?.[1] ?? "";
  expect(address).toMatch(new RegExp(`^${baseURL}/unsubscribe/\\d+\\.notices\\.[\\w-]{43}$`));
  expect(mail.headerLines.find((h) => h.key === "list-unsubscribe-post")?.line).toBe(
    "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
  );

  // The mail as a phone shows it.
  await page.setViewportSize({ width: 390, height: 900 });
  await page.setContent(mail.html || "");
  await page.screenshot({ path: `${SHOTS}/mail-notice-390.png`, fullPage: true });

  // A mail provider's one-click POST: from its own servers, no session, no cookie.
  const provider = await request.newContext();
  const unsubscribed = await provider.post(address, {
    headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://mail.example.net" },
    data: "List-Unsubscribe=One-Click",
  });
  expect(unsubscribed.status()).toBe(200);
  await provider.dispose();
  await page.goto("/dashboard/notifications");
  await expect(page.getByLabel(`Library category ${category.name}`)).toHaveCount(0);

  // Another paper: no more mail about it.
  const after = `After unsubscribing ${stamp}`;
  const again = await api.post("/api/dashboard/papers", {
    data: { papers_category_id: category.id, name: after },
    headers: admin,
  });
  expect(again.status()).toBe(201);
  // Past the window and the job's next turns: still only the one mail.
  await page.waitForTimeout(16_000);
  expect(rawMailsTo(MEMBER.email).filter((m) => m.includes(after))).toHaveLength(0);
  await api.dispose();
});
