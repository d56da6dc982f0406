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
