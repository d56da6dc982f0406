import { request } from "@playwright/test";
import { ADMIN, expect, expectAccessible, outboxMailsTo, signIn, test } from "./fixtures";

// An admin's change moves the content version (the page cache's entries): with the admin edits, after the rest.

const SHOTS = "tmp/shots";

/**
 * Issue 33, 'Announcements', in Chromium on the production build: from a post's edit screen an
 * admin previews the mail, sends a test to themselves, sends it to one membership type after a
 * confirmation, sees its progress, and is asked again (with the date) before a second send.
 */
test("an admin sends a news post to the members: preview, test, confirmed send, progress, never twice by mistake", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  // A post of the demo content: sending it changes nothing the other tests read (no new post).
  const api = await request.newContext({ baseURL });
  const latest = await api.get("/api/getLatestPosts/none");
  expect(latest.status()).toBe(200);
  const { id, title } = ((await latest.json()).data as { id: number; title: string }[])[0];
  await api.dispose();

  await page.goto(`/login?redirect=${encodeURIComponent(`/manage-news/${id}/edit`)}`);
  await signIn(page, ADMIN);
  const panel = page.getByRole("region", { name: "Send to the members by e-mail" });
  await expect(panel).toBeVisible();
  await panel.getByText("Preview the e-mail").click();
  await expect(panel.getByText(`Subject: ${title}`)).toBeVisible();

  const mailsBefore = outboxMailsTo(ADMIN.email).length;
  await panel.getByRole("button", { name: "Send a test to me" }).click();
  await expect(panel.getByText(`A test is on its way to ${ADMIN.email}.`)).toBeVisible();
  await expect.poll(() => outboxMailsTo(ADMIN.email).length).toBe(mailsBefore + 1);
  expect(outboxMailsTo(ADMIN.email).some((m) => /List-Unsubscribe:\s*<[^>]+\.announcements\.[\w-]+>/.test(m))).toBe(
    true,
  );

  await panel.getByLabel("To").selectOption("full");
  await panel.getByRole("button", { name: "Send to the members…" }).click();
  await expect(panel.getByText(/^Send “.+” to \d+ members? \(full members' representatives\) now\?$/)).toBeVisible();
  await expectAccessible(page);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await panel.screenshot({ path: `${SHOTS}/announce-confirm-${width}.png` });
  }
  await panel.getByRole("button", { name: "Yes, send it" }).click();
  await expect(panel.getByText(/e-mails? (is|are) queued/)).toBeVisible();
  const row = panel.getByRole("table", { name: "Sent to the members" }).getByRole("row").nth(1);
  await expect(row).toContainText("Full members' representatives");

  // Once more: asked again, with when it went; the box must be ticked.
  await panel.getByRole("button", { name: "Send to the members…" }).click();
  await expect(panel.getByText(/This post was sent to the members on \d{4}-\d{2}-\d{2}/)).toBeVisible();
  await expect(panel.getByLabel("Send it again")).toBeVisible();
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await panel.screenshot({ path: `${SHOTS}/announce-again-1280.png` });
});
