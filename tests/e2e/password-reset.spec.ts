import { expect, expectAccessible, linkMailedTo, test } from "./fixtures";

// An account of its own, so that changing its password disturbs no other test.
const ACCOUNT = { email: "e2e-reset@masthead.example", password: "e2e-reset-password" };
const resetLink = () => linkMailedTo(ACCOUNT.email, "/reset-password");

test("forgot password → mail → new password → sign in; the old password and the used link stop working", async ({
  page,
}) => {
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Forgot password" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Email").fill(ACCOUNT.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status")).toContainText("If an account exists for this e-mail address");

  await expect.poll(resetLink, { timeout: 10_000 }).not.toBeNull();
  const link = resetLink() as string;
  const token = new URL(link, "http://x").searchParams.get("token") as string;
  // Issue 30 §5: no request the page makes (its scripts, styles, fonts) carries the token in its Referer.
  const referers: string[] = [];
  page.on("request", async (request) => {
    const referer = (await request.allHeaders()).referer;
    if (referer) referers.push(referer);
  });
  const answer = await page.goto(link);
  expect(answer?.headers()["referrer-policy"]).toBe("no-referrer");
  await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(referers.filter((referer) => referer.includes(token))).toEqual([]);
  await expectAccessible(page);
  await page.getByLabel("New password", { exact: true }).fill("short");
  await page.getByLabel("Confirm the new password").fill("short");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page.getByText("The new password must be at least 10 characters.")).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("lighthouse-keeper-42");
  await page.getByLabel("Confirm the new password").fill("lighthouse-keeper-42");
  await page.getByRole("button", { name: "Save the new password" }).click();
  await expect(page).toHaveURL(/\/login\?notice=password-changed$/);
  await expect(page.getByRole("status")).toHaveText("Your password is changed. Sign in with the new one.");

  await page.getByLabel("Email").fill(ACCOUNT.email);
  await page.getByLabel("Password").fill(ACCOUNT.password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByText("The user name or password are incorrect")).toBeVisible();
  await page.getByLabel("Password").fill("lighthouse-keeper-42");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto(link);
  await expect(page.getByRole("alert")).toHaveText("This link is not valid any more. Ask for a new one.");
});
