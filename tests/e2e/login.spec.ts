import { ADMIN, expect, expectAccessible, MEMBER, openMenu, signIn, test, waitForHydration } from "./fixtures";

test.describe("member login (SPEC §2, §5, §8)", () => {
  test("the login screen has the spec's parts and is accessible", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Member Login" })).toBeVisible();
    await expect(page.getByLabel("Email")).toBeVisible();
    await expect(page.getByLabel("Password")).toBeVisible();
    await expect(page.getByLabel("Remember me")).toBeVisible();
    await expect(page.getByRole("link", { name: "Forgot password" })).toHaveAttribute("href", "/forgot-password");
    await expect(page.getByRole("link", { name: "Back to home" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Become a member" }).first()).toBeVisible();
    await expectAccessible(page);
  });

  test("an admin signs in and lands on /manager with the role in the header", async ({ page }) => {
    await page.goto("/login");
    await signIn(page, ADMIN);
    await expect(page).toHaveURL(/\/manager$/);
    await expect(page.getByText("You're logged in as:")).toContainText("admin");
    // The admin home counts what there is and what waits (requests and messages not yet handled).
    await expect(page.getByRole("link", { name: /^Inbox \d+ open$/ })).toBeVisible();
    await expect(page.getByRole("link", { name: /^News \d+ posts?$/ })).toBeVisible();
    await expect(page.getByRole("link", { name: /^Users \d+ users?$/ })).toBeVisible();
    await expect(page.getByRole("link", { name: /^Events [1-9]\d* upcoming$/ })).toBeVisible();
    await expectAccessible(page);
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name.startsWith("auth."));
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("Lax");
    expect(await page.evaluate(() => JSON.stringify(window.localStorage))).not.toContain(session?.value ?? "-");
  });

  test("empty fields show the messages and send no request", async ({ page }) => {
    await page.goto("/login");
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    await expect(page.getByText("Email is required.")).toHaveCount(0);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("You have validation errors! Please fix them all")).toBeVisible();
    await expect(page.getByText("Email is required.")).toBeVisible();
    await expect(page.getByText("Password is required.")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Email")).toBeFocused();
    // Errors follow corrections live once shown.
    await page.getByLabel("Email").fill("someone@example.org");
    await expect(page.getByText("Email is required.")).toHaveCount(0);
    await expect(page.getByText("Password is required.")).toBeVisible();
    expect(posts).toEqual([]);
    await expectAccessible(page);
  });

  test("a wrong password shows the toast for 5 seconds", async ({ page }) => {
    await page.goto("/login");
    await signIn(page, { email: MEMBER.email, password: "definitely-not-it" });
    const toast = page.getByText("The user name or password are incorrect");
    await expect(toast).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
    await expect(toast).toBeHidden({ timeout: 8_000 });
  });

  test("a guarded page sends a visitor to login and back to it afterwards", async ({ page }) => {
    await page.goto("/dashboard?tab=papers");
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard%3Ftab%3Dpapers$/);
    await signIn(page, MEMBER);
    await expect(page).toHaveURL(/\/dashboard\?tab=papers$/);
    await expect(page.getByRole("heading", { name: /Welcome, Marten/ })).toBeVisible();
    await expectAccessible(page);
    // Loaded anew, the dashboard is the members' shared render: the browser fills in the name.
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Welcome, Marten" })).toBeVisible();
  });

  test("the fragment of the guarded address survives the login", async ({ page }) => {
    await page.goto("/dashboard?view=list#documents");
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard%3Fview%3Dlist#documents$/);
    await signIn(page, MEMBER);
    await expect(page).toHaveURL(/\/dashboard\?view=list#documents$/);
  });

  test("a member is sent from admin pages to /dashboard", async ({ page }) => {
    await page.goto("/login?redirect=%2Fmanager");
    await signIn(page, MEMBER);
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("an outside redirect is ignored", async ({ page }) => {
    await page.goto("/login?redirect=%2F%2Fevil.example%2Fphish");
    await signIn(page, ADMIN);
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/manager$/);
  });

  test("logout from the member menu asks first, then returns to /login", async ({ page }) => {
    await page.goto("/login?redirect=%2Fdashboard");
    await signIn(page, MEMBER);
    await expect(page).toHaveURL(/\/dashboard$/);
    // The menu opens with JavaScript: a click before hydration does nothing (a busy CI machine got there first).
    await waitForHydration(page);
    const profile = page.getByRole("button", { name: "User Profile" });
    const logout = page.getByRole("menuitem", { name: "Logout" });
    await openMenu(profile, logout);
    await logout.click();
    const dialog = page.getByRole("dialog", { name: "Logout?" });
    await expect(dialog).toContainText("Do you want to logout of your account?");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await openMenu(profile, logout);
    await logout.click();
    await page.getByRole("dialog", { name: "Logout?" }).getByRole("button", { name: "Confirm" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard$/);
  });

  test("on a public page (served as islands) the member menu opens, names its items and logs out", async ({ page }) => {
    await page.goto("/login?redirect=%2Fnews");
    await signIn(page, MEMBER);
    await expect(page).toHaveURL(/\/news$/);
    const menu = page.getByRole("banner").getByRole("button", { name: "User Profile" });
    await expect(menu).toContainText("MM");
    await menu.click();
    await expect(page.getByRole("menuitem", { name: "Settings" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menuitem", { name: "Settings" })).toBeHidden();
    await expect(menu).toBeFocused();
    await menu.click();
    await page.getByRole("menuitem", { name: "Logout" }).click();
    await page.getByRole("dialog", { name: "Logout?" }).getByRole("button", { name: "Confirm" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdashboard$/);
  });

  test("logout from the admin header returns to /login", async ({ page }) => {
    await page.goto("/login");
    await signIn(page, ADMIN);
    await expect(page).toHaveURL(/\/manager$/);
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the login form still validates and signs in", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("You have validation errors! Please fix them all")).toBeVisible();
    await expect(page.getByText("Email is required.")).toBeVisible();
    await page.getByLabel("Email").fill(MEMBER.email);
    await page.getByLabel("Password").fill("wrong-password-here");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("The user name or password are incorrect")).toBeVisible();
    await page.getByLabel("Email").fill(MEMBER.email);
    await page.getByLabel("Password").fill(MEMBER.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/manager$|\/dashboard$/);
  });
});
