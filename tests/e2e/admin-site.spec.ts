import { readFile } from "node:fs/promises";
import { Secret, TOTP } from "otpauth";
import { ADMIN, expect, expectAccessible, signIn, test } from "./fixtures";

// These tests change shared site content; they run one after the other.
test.describe.configure({ mode: "serial" });

test("an admin changes the contact data; header and footer show it on the next request", async ({ page }) => {
  await page.goto("/login?redirect=%2Fmanager%2Fsettings");
  await signIn(page, ADMIN);
  await expect(page.getByRole("heading", { name: "Site settings" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Contact e-mail").fill("not an address");
  await page.getByLabel("Twitter page").fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Enter a valid e-mail address.")).toBeVisible();
  await expect(page.getByText("Enter the full https:// address of the Twitter page.")).toBeVisible();
  await page.getByLabel("Contact e-mail").fill("office@masthead.example");
  await page.getByLabel("Twitter page").fill("https://twitter.com/masthead_assoc");
  await page.getByLabel("Contact phone").fill("+31 10 123 4567");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status")).toHaveText("Settings saved.");

  await page.goto("/");
  await expect(page.locator("header").getByRole("link", { name: "office@masthead.example" })).toBeVisible();
  await expect(page.locator("footer").getByRole("link", { name: "office@masthead.example" })).toHaveAttribute(
    "href",
    "mailto:office@masthead.example",
  );
  await expect(page.locator("footer").getByRole("link", { name: "+31 10 123 4567" })).toBeVisible();
  const api = await page.request.get("/api/getContactData");
  expect((await api.json()).data["site.email"]).toBe("office@masthead.example");
});

test("an admin edits a page in the rich-text editor; visitors see it, without the hostile parts", async ({ page }) => {
  await page.goto("/login?redirect=%2Fmanager%2Fpages");
  await signIn(page, ADMIN);
  await page.getByRole("link", { name: "Edit History" }).click();
  await expect(page.getByRole("heading", { name: "Edit page" })).toBeVisible();
  const editor = page.getByRole("textbox", { name: "Content" });
  await expect(editor).toBeVisible();
  await page.getByLabel("Title").fill("Our history");
  await editor.click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Seventy years at sea");
  await page.getByRole("button", { name: "Heading 2" }).click();
  await expect(editor.locator("h2", { hasText: "Seventy years at sea" })).toBeVisible();
  await editor.locator("h2", { hasText: "Seventy years at sea" }).click();
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("A new chapter");
  await page.keyboard.press("Shift+Home");
  await page.getByRole("button", { name: "Bold" }).click();
  await expect(editor.locator("strong", { hasText: "A new chapter" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Save page" }).click();
  await expect(page.getByRole("status")).toHaveText("Page saved.");

  await page.goto("/history");
  await expect(page.getByRole("heading", { level: 1, name: "Our history" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Seventy years at sea" })).toBeVisible();
  await expect(page.locator("article strong", { hasText: "A new chapter" })).toBeVisible();

  // The API path sanitizes too: a script or handler sent by a client never reaches visitors.
  const response = await page.request.patch("/api/dashboard/pages/history", {
    headers: { origin: new URL(page.url()).origin },
    data: { title: "Our history", content: '<p>Safe</p><script>alert(1)</script><img src="x" onerror="alert(1)">' },
  });
  expect(response.status()).toBe(200);
  await page.goto("/history");
  const article = await page.locator("article").innerHTML();
  expect(article).toContain("<p>Safe</p>");
  expect(article).not.toMatch(/script|onerror/);
  // And search finds the new text.
  await page.goto("/search?q=safe");
  await expect(page.getByRole("link", { name: "Our history" })).toBeVisible();
});

test("an admin adds a page of the association's own under Services, in the menu and the footer", async ({ page }) => {
  await page.goto("/login?redirect=%2Fmanager%2Fpages");
  await signIn(page, ADMIN);
  await page.getByRole("link", { name: "New page" }).click();
  await expect(page.getByRole("heading", { name: "New page" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Title").fill("Type approval help desk");
  // An address the site answers itself is refused, with what to do; what was typed stays.
  await page.getByRole("textbox", { name: "Address" }).fill("news");
  await page.getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("Ask us about type approval.");
  await page.getByLabel("Section", { exact: true }).selectOption("services");
  await page.getByLabel("In the section's submenu of the main menu").check();
  await page.getByLabel("In the footer", { exact: false }).check();
  await page.getByRole("button", { name: "Create page" }).click();
  await expect(page.getByText("This address is the site's own: choose another.")).toBeVisible();
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("Type approval help desk");
  await page.getByRole("textbox", { name: "Address" }).fill("type-approval");
  await page.getByRole("button", { name: "Create page" }).click();
  await expect(page.getByRole("status")).toHaveText("Page saved.");
  await expect(page.getByText("Published: everyone sees it.")).toBeVisible();

  await page.goto("/");
  await page.locator("header").getByRole("button", { name: "Services" }).click();
  await page.locator("header").getByRole("link", { name: "Type approval help desk" }).click();
  await expect(page).toHaveURL(/\/type-approval$/);
  await expect(page.getByRole("heading", { level: 1, name: "Type approval help desk" })).toBeVisible();
  await expect(page.getByText("Ask us about type approval.")).toBeVisible();
  await expect(page.locator("footer").getByRole("link", { name: "Type approval help desk" })).toBeVisible();
  await expectAccessible(page);

  // Made a draft: gone from the menus, and its address is "not found" for visitors.
  await page.goto("/manager/pages/type-approval");
  await page.getByLabel(/^Draft/).check();
  await page.getByRole("button", { name: "Save page" }).click();
  await expect(page.getByText("A draft: only admins see it", { exact: false })).toBeVisible();
  const visitor = await page.request.get("/type-approval", { headers: { cookie: "" } });
  expect(visitor.status()).toBe(404);

  // Deleted from the list, after a confirmation.
  await page.goto("/manager/pages?kind=own");
  await page.getByRole("button", { name: "Delete Type approval help desk" }).click();
  await page.getByRole("dialog", { name: "Delete this page?" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("No page matches these filters.")).toBeVisible();
  expect((await page.request.get("/manager/pages/type-approval")).status()).toBe(404);
});

test("an admin restores an earlier revision of a page, after reading what each save changed", async ({ page }) => {
  await page.goto("/login?redirect=%2Fmanager%2Fpages%2Ftributes");
  await signIn(page, ADMIN);
  const origin = new URL(page.url()).origin;
  for (const words of ["In memory of our founders.", "In memory of our founding members."]) {
    const saved = await page.request.patch("/api/dashboard/pages/tributes", {
      headers: { origin },
      data: { title: "Tributes", content: `<p>${words}</p>` },
    });
    expect(saved.status()).toBe(200);
  }
  await page.reload();
  const revisions = page.getByRole("region", { name: "Revisions" });
  await expect(revisions.getByText("Revision 2", { exact: true })).toBeVisible();
  await revisions.getByText("What revision 2 changed").click();
  await expect(revisions.locator("del", { hasText: "founders" })).toBeVisible();
  await expect(revisions.locator("ins", { hasText: "founding members" })).toBeVisible();
  await expectAccessible(page);

  await revisions.getByRole("button", { name: "Restore revision 1" }).click();
  await expect(page.getByText("Restored: the texts are back as revision 3.")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Content" })).toContainText("In memory of our founders.");
  await page.goto("/tributes");
  await expect(page.locator("article")).toContainText("In memory of our founders.");
});

test("the secretariat reads the audit log: who changed a page, filtered, with the fields before and after, exported", async ({
  page,
}) => {
  await page.goto("/login?redirect=%2Fmanager%2Faudit");
  await signIn(page, ADMIN);
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  await page.getByLabel("What").selectOption("page");
  await page.getByLabel("Action").selectOption("restore");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/entity=page/);
  const row = page.getByRole("listitem").filter({ hasText: "Page “Tributes” restored from an earlier revision" });
  await expect(row).toBeVisible();
  await row.getByText(/changed field/).click();
  await expect(row.getByText("In memory of our founders.", { exact: false })).toBeVisible();
  await expectAccessible(page);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await readFile(await file.path(), "utf8");
  expect(text).toContain("restored from an earlier revision");
});

test("an admin turns on an authenticator app, signs out, and signs in with a code; then turns it off with a recovery code", async ({
  page,
}) => {
  const totpAt = (secret: string, at: number) =>
    new TOTP({
      secret: Secret.fromBase32(secret.replace(/\s/g, "")),
      digits: 6,
      period: 30,
      algorithm: "SHA1",
    }).generate({
      timestamp: at,
    });
  await page.goto("/login?redirect=%2Fdashboard%2Fuser-settings");
  await signIn(page, ADMIN);
  const section = page.getByRole("region", { name: "Two-factor sign-in" });
  await section.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(section.getByRole("img", { name: "QR code to scan with your authenticator app" })).toBeVisible();
  await expectAccessible(page);
  const secret = (await section.locator("code").innerText()).trim();
  await section.getByLabel("Code from the app").fill("000000");
  await section.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await expect(section.getByText("That code is not right", { exact: false })).toBeVisible();
  await section.getByLabel("Code from the app").fill(totpAt(secret, Date.now()));
  await section.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  const codes = section.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.first().innerText()).trim();

  // A new browser: the password, then the second step with the app's next code.
  await page.context().clearCookies();
  await page.goto("/login?redirect=%2Fmanager");
  await signIn(page, ADMIN);
  await expect(page.getByText("Your password is right.", { exact: false })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Code").fill("123456");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("That code is not right");
  await page.getByLabel("Code").fill(totpAt(secret, Date.now() + 30_000));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/manager$/);

  // Off again with the password and a recovery code, so that the other tests sign in with the password alone.
  await page.goto("/dashboard/user-settings#two-factor");
  await section.getByLabel("Current password").fill(ADMIN.password);
  await section.getByLabel("A code of your app, or a recovery code").fill(recovery);
  await section.getByRole("button", { name: "Turn off" }).click();
  await expect(page.getByText("Two-factor sign-in is off.")).toBeVisible();
});

test("an admin adds a passkey with Chromium's virtual authenticator, signs out, and signs in with it", async ({
  page,
  baseURL,
}) => {
  // Browsers refuse an IP address as a passkey's site: the site's loopback address stands for localhost.
  const local = (baseURL ?? "").replace("127.0.0.1", "localhost");
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const codeAt = (secret: string, at: number) =>
    new TOTP({ secret: Secret.fromBase32(secret.replace(/\s/g, "")) }).generate({ timestamp: at });

  // At the IP address the page says where passkeys work. The app is turned on through the API here
  // (its screens have their own test above): this test is about the passkey.
  await page.goto("/login?redirect=%2Fdashboard%2Fuser-settings");
  await signIn(page, ADMIN);
  const section = page.getByRole("region", { name: "Two-factor sign-in" });
  await expect(section.getByText("Once the app is on, you can add passkeys too.")).toBeVisible();
  const sameOrigin = { origin: baseURL ?? "" };
  const setup = await page.request.post("/api/dashboard/user/two-factor/setup", { headers: sameOrigin });
  expect(setup.status()).toBe(200);
  const { secret } = (await setup.json()) as { secret: string };
  const confirmed = await page.request.post("/api/dashboard/user/two-factor/confirm", {
    headers: sameOrigin,
    data: { code: codeAt(secret, Date.now()) },
  });
  expect(confirmed.status()).toBe(200);
  const [recovery, spare] = ((await confirmed.json()) as { recovery_codes: string[] }).recovery_codes;
  try {
    await page.reload();
    await expect(section.getByText(`Passkeys are made for ${local}`)).toBeVisible();

    // At localhost: the password and a code, then a passkey made by the virtual authenticator.
    await page.goto(`${local}/login?redirect=%2Fdashboard%2Fuser-settings`);
    await signIn(page, ADMIN);
    await expect(page.getByRole("button", { name: "Use a passkey" })).toHaveCount(0);
    await page.getByLabel("Code").fill(codeAt(secret, Date.now() + 30_000));
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(`${local}/dashboard/user-settings`);
    await section.getByLabel("Name (optional)").fill("Test laptop");
    await section.getByRole("button", { name: "Add a passkey" }).click();
    await expect(page.getByText('The passkey "Test laptop" is added', { exact: false })).toBeVisible();
    await expect(section.getByRole("list", { name: "Your passkeys" })).toContainText("Test laptop");
    await expect(section.getByRole("list", { name: "Your passkeys" })).toContainText("not used yet");
    await expectAccessible(page);
    const made = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(made.credentials).toHaveLength(1);

    // A new browser session: the password, then the passkey instead of a code.
    await page.context().clearCookies();
    await page.goto(`${local}/login?redirect=%2Fmanager`);
    await signIn(page, ADMIN);
    await expect(page.getByText("or use one of your passkeys", { exact: false })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Use a passkey" }).click();
    await expect(page).toHaveURL(`${local}/manager`);
    const used = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(used.credentials[0].signCount).toBeGreaterThan(0);

    // Off again (the passkeys go with it), so that the other tests sign in with the password alone.
    await page.goto(`${local}/dashboard/user-settings#two-factor`);
    await expect(section.getByRole("list", { name: "Your passkeys" })).toContainText("last used");
    await section.getByLabel("Current password").fill(ADMIN.password);
    await section.getByLabel("A code of your app, or a recovery code").fill(recovery);
    await section.getByRole("button", { name: "Turn off" }).click();
    await expect(page.getByText("Two-factor sign-in is off.")).toBeVisible();
    await expect(section.getByRole("list", { name: "Your passkeys" })).toHaveCount(0);
  } finally {
    // Whatever happened above, the admin signs in with the password alone again for the next tests:
    // two-factor off through the API (a fresh sign-in with the spare recovery code), if still on.
    const api = page.context().request;
    const first = await api.post(`${baseURL}/api/login`, {
      headers: sameOrigin,
      data: { email: ADMIN.email, password: ADMIN.password },
    });
    const step = (await first.json()) as { status?: string; challenge?: string };
    if (step.status === "two_factor_required" && step.challenge) {
      const second = await api.post(`${baseURL}/api/login/two-factor`, {
        headers: sameOrigin,
        data: { challenge: step.challenge, code: spare },
      });
      const { access_token } = (await second.json()) as { access_token?: string };
      if (access_token) {
        await api.post(`${baseURL}/api/dashboard/user/two-factor/disable`, {
          headers: { ...sameOrigin, authorization: `Bearer ${access_token}` },
          data: { password: ADMIN.password, code: spare },
        });
      }
    }
  }
});
