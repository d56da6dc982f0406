import sharp from "sharp";
import { ADMIN, EDITOR, expect, expectAccessible, signIn, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

test("an admin creates a post with an image, edits it, removes the image, then deletes it", async ({ page }) => {
  test.setTimeout(90_000);
  const photo = await sharp({ create: { width: 1800, height: 1000, channels: 3, background: "#12335c" } })
    .jpeg()
    .toBuffer();
  await page.goto("/login?redirect=%2Fmanage-news");
  await signIn(page, ADMIN);
  await expect(page.getByRole("heading", { level: 1, name: "News" })).toBeVisible();
  await expectAccessible(page);

  // Create.
  await page.getByRole("link", { name: "New post" }).click();
  await page.getByLabel("Title").fill("Lighthouse keepers go digital");
  await page.getByLabel("Author").fill("Press office");
  await page
    .getByLabel("Image", { exact: true })
    .setInputFiles({ name: "lighthouse.jpg", mimeType: "image/jpeg", buffer: photo });
  const editor = page.getByRole("textbox", { name: "Content" });
  await editor.click();
  await page.keyboard.type("Remote monitoring reaches the last manned lights.");
  // An image inside the text: uploaded from the toolbar, inserted once described for screen readers.
  await page
    .getByTestId("editor-image-file")
    .setInputFiles({ name: "cottage.jpg", mimeType: "image/jpeg", buffer: photo });
  const describe = page.getByRole("group", { name: "Describe the image to insert" });
  await describe.getByRole("button", { name: "Insert image" }).click();
  await expect(describe.getByText("The alt text field is required unless the image is decorative.")).toBeVisible();
  await expect(editor.locator("img")).toHaveCount(0);
  await describe.getByLabel("Alt text", { exact: true }).fill("The keeper's cottage below the tower");
  await describe.getByLabel("Alt text", { exact: true }).press("Enter");
  await expect(describe).toHaveCount(0);
  await expect(editor.locator("img")).toHaveAttribute("src", /^\/uploads\/content\/[0-9a-f]{16}-1600\.webp$/);
  await expect(editor.locator("img")).toHaveAttribute("alt", "The keeper's cottage below the tower");
  await expectAccessible(page);
  // The post's own image needs its alt text too: refused beside the field, then saved with it.
  await page.getByRole("button", { name: "Create post" }).click();
  const postAlt = page.locator("#image-alt");
  await expect(page.locator("#image-alt-error")).toHaveText(
    "The alt text field is required unless the image is decorative.",
  );
  await expect(postAlt).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Title")).toHaveValue("Lighthouse keepers go digital");
  await page
    .getByLabel("Image", { exact: true })
    .setInputFiles({ name: "lighthouse.jpg", mimeType: "image/jpeg", buffer: photo });
  await postAlt.fill("A lighthouse on a rocky point at dusk");
  await page.getByRole("button", { name: "Create post" }).click();
  await expect(page.getByRole("status")).toContainText("Saved “Lighthouse keepers go digital”.");

  // First in the public list, with its image, and in site search.
  await page.goto("/news");
  const first = page.locator("main ul > li article").first();
  await expect(first.getByRole("heading")).toHaveText("Lighthouse keepers go digital");
  await expect(first.locator("img")).toHaveAttribute("src", /\/uploads\/news\/[0-9a-f]{16}-1600\.webp$/);
  await expect(first.locator("img")).toHaveAttribute("alt", "A lighthouse on a rocky point at dusk");
  await page.getByRole("searchbox").first().fill("manned lights");
  await expect(page.locator("[data-result]").first()).toContainText("Lighthouse keepers go digital");

  // Edit: the title changes, the address stays.
  await page.goto("/manage-news?search=Lighthouse");
  await page.getByRole("link", { name: "Edit Lighthouse keepers go digital" }).click();
  await expect(page.getByRole("link", { name: "/post/lighthouse-keepers-go-digital" })).toBeVisible();
  await page.getByLabel("Title").fill("Lighthouse keepers go fully digital");
  await page.getByRole("button", { name: "Save post" }).click();
  await expect(page.getByRole("status")).toContainText("Saved “Lighthouse keepers go fully digital”.");
  await page.goto("/post/lighthouse-keepers-go-digital");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Lighthouse keepers go fully digital");
  await expect(page.locator("article > img")).toHaveAttribute("srcset", /480w.*960w.*1600w/);
  await expect(page.locator("article > img")).toHaveAttribute("alt", "A lighthouse on a rocky point at dusk");
  await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute(
    "content",
    "A lighthouse on a rocky point at dusk",
  );
  const inline = page.getByRole("img", { name: "The keeper's cottage below the tower" });
  await expect(inline).toHaveAttribute("srcset", /content\/[0-9a-f]{16}-480\.webp 480w.*1600w/);
  await expect(inline).toHaveAttribute("width", "1600");

  // Remove the image.
  await page.goto("/manage-news?search=Lighthouse");
  await page.getByRole("link", { name: /^Edit Lighthouse/ }).click();
  await page.getByRole("button", { name: "Remove the image" }).click();
  await expect(page.getByRole("img", { name: /^Current image/ })).toHaveCount(0);
  await page.goto("/post/lighthouse-keepers-go-digital");
  await expect(page.locator("article > img")).toHaveCount(0);

  // Delete, after confirming.
  await page.goto("/manage-news?search=Lighthouse");
  await page.getByRole("button", { name: /^Delete Lighthouse/ }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this post?" });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  const row = page.locator("main li p", { hasText: "Lighthouse keepers go fully digital" });
  await expect(row).toBeVisible();
  await page.getByRole("button", { name: /^Delete Lighthouse/ }).click();
  await page.getByRole("dialog", { name: "Delete this post?" }).getByRole("button", { name: "Delete" }).click();
  await expect(row).toHaveCount(0);
  const gone = await page.goto("/post/lighthouse-keepers-go-digital");
  expect(gone?.status()).toBe(404);
});

test("a non-image upload is refused beside the field, and nothing is saved", async ({ page }) => {
  await page.goto("/login?redirect=%2Fmanage-news%2Fnew");
  await signIn(page, ADMIN);
  await page.getByLabel("Title").fill("Qwertzuiop refusal check");
  await page
    .getByLabel("Image", { exact: true })
    .setInputFiles({ name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("just text, not a picture") });
  await page.locator("#image-alt").fill("Notes");
  await page.getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("Body");
  await page.getByRole("button", { name: "Create post" }).click();
  await expect(page.getByText("The image must be a JPEG, PNG or WebP file.")).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue("Qwertzuiop refusal check");
  await page.goto("/manage-news?search=Qwertzuiop");
  await expect(page.getByText("0 posts")).toBeVisible();
});

test("a title with a right-to-left override and in Cyrillic: clean in <title> and <h1>, transliterated address", async ({
  page,
}) => {
  await page.goto("/login?redirect=%2Fmanage-news%2Fnew");
  await signIn(page, ADMIN);
  await page.getByLabel("Title").fill("Новости \u202Egpj.exe");
  await page.getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("Body");
  await page.getByRole("button", { name: "Create post" }).click();
  await expect(page.getByRole("status")).toContainText("Saved “Новости gpj.exe”.");

  const answer = await page.goto("/post/novosti-gpj-exe");
  expect(answer?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Новости gpj.exe");
  expect(await page.title()).toMatch(/^Новости gpj\.exe/);
  expect(await page.content()).not.toContain("\u202E");

  await page.goto("/manage-news?search=gpj");
  await page.getByRole("button", { name: /^Delete Новости/ }).click();
  await page.getByRole("dialog", { name: "Delete this post?" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("0 posts")).toBeVisible();
});

test("a draft is the admins' alone until it is published (decision 0070)", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await page.goto("/login?redirect=%2Fmanage-news%2Fnew");
  await signIn(page, ADMIN);
  await page.getByLabel("Title").fill("Wavelet buoy network draft");
  await page.getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("The wavelet buoys report every ten minutes.");
  await page.getByRole("radio", { name: /^Draft/ }).check();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Create post" }).click();
  await expect(page.getByRole("status")).toContainText("Saved “Wavelet buoy network draft” as a draft.");

  // Marked in the list, and found by the state filter.
  await page.getByLabel("State").selectOption("draft");
  await page.getByRole("button", { name: "Filter" }).click();
  const row = page.locator("main li", { hasText: "Wavelet buoy network draft" });
  await expect(row.getByText("Draft", { exact: true })).toBeVisible();
  await expectAccessible(page);

  // A visitor finds it nowhere: not on /news, not at its address.
  const visitor = await browser.newPage();
  await visitor.goto("/news");
  await expect(visitor.getByText("Wavelet buoy network draft")).toHaveCount(0);
  expect((await visitor.goto("/post/wavelet-buoy-network-draft"))?.status()).toBe(404);

  // Published: the visitor reads it.
  await row.getByRole("link", { name: /^Edit/ }).click();
  await expect(page.getByText("A draft: only admins see it")).toBeVisible();
  // Its preview link reads it as it will look, for anyone who has the link.
  const previewUrl = await page.getByLabel("Preview link").inputValue();
  await expectAccessible(page);
  expect((await visitor.goto(previewUrl))?.status()).toBe(200);
  await expect(visitor.getByRole("note")).toContainText("Preview");
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Wavelet buoy network draft");
  await page.getByRole("radio", { name: /^Published/ }).check();
  await page.getByRole("button", { name: "Save post" }).click();
  await expect(page.getByRole("status")).toContainText("Saved “Wavelet buoy network draft”.");
  expect((await visitor.goto("/post/wavelet-buoy-network-draft"))?.status()).toBe(200);
  await visitor.goto("/news");
  await expect(visitor.locator("main ul > li article").first().getByRole("heading")).toHaveText(
    "Wavelet buoy network draft",
  );
  await visitor.close();

  await page.goto("/manage-news?search=Wavelet");
  await page.getByRole("button", { name: "Delete Wavelet buoy network draft" }).click();
  await page.getByRole("dialog", { name: "Delete this post?" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("0 posts")).toBeVisible();
});

test("a post scheduled two minutes ahead appears on /news, in the feed and in search at its time, not before (decision 0071)", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await page.goto("/login?redirect=%2Fmanage-news%2Fnew");
  await signIn(page, ADMIN);
  await page.getByLabel("Title").fill("Zircon beacon schedule");
  await page.getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("The zircon beacons switch to the new schedule.");
  await page.getByRole("radio", { name: /^Scheduled/ }).check();
  // Two minutes ahead, to the minute, in the site's time zone (the field's label names it).
  const label = (await page.locator("label[for=publish_time]").textContent()) ?? "";
  const zone = /^At \((.+) time\)$/.exec(label.trim())?.[1] ?? "UTC";
  const at = new Date(Math.ceil((Date.now() + 120_000) / 60_000) * 60_000);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  await page.getByLabel("Publish on (for a scheduled post)").fill(`${parts.year}-${parts.month}-${parts.day}`);
  await page.getByLabel(`At (${zone} time)`).fill(`${parts.hour}:${parts.minute}`);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Create post" }).click();
  await expect(page.getByRole("status")).toContainText("Saved “Zircon beacon schedule”: it appears on");
  await expect(page.locator("main li", { hasText: "Zircon beacon schedule" }).getByText("Scheduled")).toBeVisible();

  // Before its time a visitor finds it nowhere (each read twice: the second from the page cache).
  const visitor = await browser.newPage();
  const everywhere = async () => {
    await visitor.goto("/news");
    const onNews = (await visitor.getByText("Zircon beacon schedule").count()) > 0;
    const feed = await (await visitor.request.get("/news/rss.xml")).text();
    const search = await (await visitor.request.get("/api/search?search_query=zircon")).json();
    return {
      news: onNews,
      feed: feed.includes("Zircon beacon schedule"),
      search: JSON.stringify(search).includes("zircon-beacon-schedule"),
    };
  };
  for (let i = 0; i < 2; i++) expect(await everywhere()).toEqual({ news: false, feed: false, search: false });
  expect(Date.now()).toBeLessThan(at.getTime());

  // At its time, with nobody saving anything: everywhere.
  await visitor.waitForTimeout(Math.max(0, at.getTime() - Date.now()) + 1_000);
  expect(await everywhere()).toEqual({ news: true, feed: true, search: true });
  await visitor.close();

  await page.goto("/manage-news?search=Zircon");
  await page.getByRole("button", { name: "Delete Zircon beacon schedule" }).click();
  await page.getByRole("dialog", { name: "Delete this post?" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("0 posts")).toBeVisible();
});

// Issue 36: an editor manages the content (news, pages, meetings, the library) and nothing else.
test("an editor publishes a news post and is refused the users screen with a page that says why", async ({ page }) => {
  await page.goto("/login?redirect=%2Fmanager");
  await signIn(page, EDITOR);
  await expect(page.getByText("You're logged in as: editor")).toBeVisible();
  const shortcuts = page.getByRole("main").getByRole("list");
  for (const name of [/^News/, /^Events/, /^Categories and papers/, /^Pages/]) {
    await expect(shortcuts.getByRole("link", { name })).toBeVisible();
  }
  await expect(shortcuts.getByRole("link", { name: /^Users/ })).toHaveCount(0);
  await expect(shortcuts.getByRole("link", { name: /^Settings/ })).toHaveCount(0);
  await expectAccessible(page);

  await shortcuts.getByRole("link", { name: /^News/ }).click();
  await page.getByRole("link", { name: "New post" }).click();
  await page.getByLabel("Title").fill("Quillwort editors' desk opens");
  await page.getByLabel("Author").fill("Secretariat");
  await page.getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("News from the secretariat, written by its editor.");
  await page.getByRole("button", { name: "Create post" }).click();
  await expect(page.getByRole("status")).toContainText("Saved “Quillwort editors' desk opens”.");
  await page.goto("/post/quillwort-editors-desk-opens");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Quillwort editors' desk opens");

  const refused = await page.goto("/manager/users");
  expect(refused?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(
    "This screen is for admins: as an editor you manage the news, pages, meetings and the library.",
  );
  await expectAccessible(page);
  await page.getByRole("link", { name: "Back to the manager" }).click();
  await expect(page).toHaveURL(/\/manager$/);

  // And they take their post down again, as the admins do (the next tests read the news list).
  await page.goto("/manage-news?search=Quillwort");
  await page.getByRole("button", { name: "Delete Quillwort editors' desk opens" }).click();
  await page.getByRole("dialog", { name: "Delete this post?" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("0 posts")).toBeVisible();
});
