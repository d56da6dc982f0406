import { expect, expectAccessible, signIn, test } from "./fixtures";

const MEMBER = { email: "e2e-member@masthead.example", password: "e2e-member-password" };

test("a member makes a private calendar address with members-only meetings; a new one ends the old", async ({
  page,
  request,
}) => {
  await page.goto("/login?redirect=%2Fdashboard%2Fevents");
  await signIn(page, MEMBER);
  // The members' calendar points to the private feed rather than the public one.
  await page.getByRole("link", { name: /Subscribe to your calendar/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/user-settings#calendar$/);

  // The address reads members-only meetings without a session: it takes the current password (issue 30 §3).
  await page.getByRole("button", { name: /Make (my calendar|a new) address/ }).click();
  await expect(page.getByText("Enter your current password to make this change.")).toBeVisible();
  await page.getByLabel("Current password, to make an address").fill(MEMBER.password);
  await page.getByRole("button", { name: /Make (my calendar|a new) address/ }).click();
  const field = page.getByLabel(/Your private calendar address/);
  await expect(field).toHaveValue(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  const first = await field.inputValue();
  await expect(page.getByRole("link", { name: "Open in my calendar app" })).toHaveAttribute("href", /^webcal:/);

  const feed = await request.get(first);
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
  const text = await feed.text();
  expect(text).toContain("SUMMARY:Board of Directors meeting");
  // The public feed has no members-only meeting.
  expect(await (await request.get("/events.ics")).text()).not.toContain("Board of Directors meeting");

  // After a reload the address is not shown again, only that one is active.
  await page.reload();
  await expect(page.getByText("Your private calendar address is active.")).toBeVisible();
  // Checked without the saved-notice toast, whose fade-in axe reads as low contrast.
  await expectAccessible(page);
  await page.getByLabel("Current password, to make an address").fill(MEMBER.password);
  await page.getByRole("button", { name: "Make a new address" }).click();
  const second = await page.getByLabel(/Your private calendar address/).inputValue();
  expect(second).not.toBe(first);
  expect((await request.get(first)).status()).toBe(404);
  expect((await request.get(second)).status()).toBe(200);

  await page.getByRole("button", { name: "Stop my calendar address" }).click();
  await expect(page.getByRole("status").first()).toContainText("Your private calendar address no longer works.");
  expect((await request.get(second)).status()).toBe(404);
});
