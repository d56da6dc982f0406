import { ADMIN, expect, expectAccessible, signIn, test } from "./fixtures";

/**
 * Issue 32 'Done when': the secretariat confirms a registration and checks an attendee in on a
 * phone-sized screen (decision 0055). Screenshots of both screens at 390 and 1280 px go to tmp/.
 */
const NAME = `Zelda Quayside ${Date.now().toString(36)}`;

test("the secretariat confirms a registration and checks the attendee in on a phone", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const registered = await page.request.post("/api/join", {
    data: {
      company_name: "Quayside Charts Ltd",
      representative_name: NAME,
      email: `${NAME.replace(/\W+/g, ".").toLowerCase()}@example.org`,
      phone_number: "+44 20 7946 0101",
      page_path: "/conference",
    },
  });
  expect(registered.status()).toBe(200);
  await page.goto("/login?redirect=%2Fmanage-events");
  await signIn(page, ADMIN);
  const inbox = await page.request.get(
    `/api/dashboard/join-requests?kind=registration&search=${encodeURIComponent(NAME)}`,
  );
  const meetingId = ((await inbox.json()) as { data: { meeting_id: number }[] }).data[0]?.meeting_id;
  expect(meetingId).toBeTruthy();

  // From the meetings' list to the meeting's registrations.
  await page.goto(`/manage-events/${meetingId}/registrations?search=${encodeURIComponent(NAME)}`);
  await expect(page.getByRole("heading", { level: 1, name: "Registrations" })).toBeVisible();
  const row = page.locator("li", { hasText: NAME });
  await expect(row.getByText("Pending", { exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: "tmp/registrations-390.png", fullPage: true });
  await row.getByRole("button", { name: `Confirm ${NAME}` }).click();
  await expect(page.getByRole("status").filter({ hasText: `Confirmed the registration of ${NAME}` })).toBeVisible();
  await expect(row.getByText("Confirmed", { exact: true })).toBeVisible();

  // At the door: find the name, tap it, tap it again.
  await page.getByRole("link", { name: "Check-in at the door" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Check-in" })).toBeVisible();
  await page.getByLabel("Name, company or e-mail").fill(NAME);
  await page.getByRole("button", { name: "Find" }).click();
  const tap = page.getByRole("button", { name: new RegExp(NAME) });
  await expect(tap).toHaveAttribute("aria-pressed", "false");
  await expectAccessible(page);
  await page.screenshot({ path: "tmp/check-in-390.png", fullPage: true });
  await tap.click();
  await expect(page.getByRole("status").filter({ hasText: `${NAME} checked in at` })).toBeVisible();
  await expect(tap).toHaveAttribute("aria-pressed", "true");
  await expect(tap).toContainText("tap to undo");
  await page.screenshot({ path: "tmp/check-in-390-checked.png", fullPage: true });
  await tap.click();
  await expect(page.getByRole("status").filter({ hasText: `Check-in of ${NAME} undone.` })).toBeVisible();
  await expect(tap).toHaveAttribute("aria-pressed", "false");

  // The wide screens, for looking at.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/manage-events/${meetingId}/registrations`);
  await expectAccessible(page);
  await page.screenshot({ path: "tmp/registrations-1280.png", fullPage: true });
  await page.goto(`/manage-events/${meetingId}/registrations/check-in`);
  await page.screenshot({ path: "tmp/check-in-1280.png", fullPage: true });
});
