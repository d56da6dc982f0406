import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { ADMIN, expect, expectAccessible, signIn, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

const CATEGORY = "Harbour e2e standards";
const CHILD = "Harbour e2e drafts";
const PAPER = "Pilot ladder arrangements";

/** A real PDF of a few pages, with enough text to make the upload take a moment. */
async function pdf(edition: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= 40; i++) {
    const page = doc.addPage();
    for (let line = 0; line < 40; line++) {
      page.drawText(`${PAPER}, ${edition}, page ${i}, line ${line}: boarding arrangements and ladders.`, {
        x: 40,
        y: 780 - line * 18,
        size: 9,
        font,
      });
    }
  }
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** Screenshots to look at (SCREENSHOTS=dir), at the phone and desktop widths. */
async function shoot(page: Page, name: string) {
  const dir = process.env.SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

test("an admin builds a category with a paper, replaces its file, and removes them again", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto("/login?redirect=%2Fmanager%2Flibrary");
  await signIn(page, ADMIN);
  await expect(page.getByRole("heading", { level: 1, name: "Categories and papers" })).toBeVisible();
  await expectAccessible(page);

  // A new top-level category, public, with the technical papers' view.
  await page.getByRole("link", { name: "New category" }).click();
  const newForm = page.getByRole("form", { name: "New top-level category" });
  await expect(newForm.getByLabel("Name", { exact: true })).toBeFocused();
  await newForm.getByLabel("Name", { exact: true }).fill(CATEGORY);
  await newForm.getByLabel("View type").selectOption({ label: "Technical papers" });
  await newForm.getByLabel("Who may read it").selectOption("public");
  await newForm.getByRole("button", { name: "Create category" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Created “${CATEGORY}”.` })).toBeVisible();
  await expect(newForm).toHaveCount(0);
  const item = page.locator("li", { has: page.getByText(CATEGORY, { exact: true }) }).first();
  await expect(item).toContainText("Public");

  // A sub-category: its parent cannot be deleted while it is there (the 422 is said in the dialog).
  await page.getByRole("link", { name: `Add a category in ${CATEGORY}` }).click();
  const childForm = page.getByRole("form", { name: `New category in ${CATEGORY}` });
  await childForm.getByLabel("Name", { exact: true }).fill(CHILD);
  await childForm.getByLabel("Active").uncheck();
  await childForm.getByRole("button", { name: "Create category" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Created “${CHILD}”.` })).toBeVisible();
  const child = page.locator("li", { has: page.getByText(CHILD, { exact: true }) }).last();
  await expect(child).toContainText("Inactive");
  await expect(child).toContainText("Public (inherited)");
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await shoot(page, "library-tree-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, "library-tree-390");
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole("link", { name: `Delete the category ${CATEGORY}` }).click();
  const refuse = page.getByRole("dialog", { name: "Delete this category?" });
  await refuse.getByRole("button", { name: "Delete" }).click();
  await expect(refuse.getByRole("alert")).toHaveText("This category has sub-categories: move or delete them first.");
  await refuse.getByRole("button", { name: "Cancel" }).click();

  // A paper with a PDF, through the API with the upload's progress shown.
  await page.getByRole("link", { name: `Papers (0) in ${CATEGORY}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: CATEGORY })).toBeVisible();
  await page.getByRole("link", { name: "New paper" }).click();
  const form = page.getByRole("form", { name: "New paper" });
  await form.getByLabel("Name", { exact: true }).fill(PAPER);
  await form.getByLabel("Number").fill("TP-2031-07");
  await form.getByLabel("Revision").fill("A");
  await form.getByLabel("Date", { exact: true }).fill("2031-03-01");
  await expect(form.getByLabel("Category")).toHaveValue(/\d+/);
  await form
    .getByLabel("File")
    .setInputFiles({ name: "ladders.pdf", mimeType: "application/pdf", buffer: await pdf("first edition") });
  // The upload is slowed down (a local one is done at once), so that the bar is seen moving.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 32 * 1024,
  });
  await form.getByRole("button", { name: "Create paper" }).click();
  const progress = form.getByRole("progressbar", { name: "Upload progress" });
  await expect(progress).toBeVisible();
  await expect
    .poll(() => progress.evaluate((bar: HTMLProgressElement) => bar.value), { timeout: 15_000 })
    .toBeGreaterThan(5);
  await shoot(page, "paper-form-uploading-1280");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(page.getByRole("status").filter({ hasText: `Created “${PAPER}”.` })).toBeVisible();
  await expect(form).toHaveCount(0);
  const row = page.getByRole("listitem").filter({ hasText: PAPER });
  await expect(row).toContainText("TP-2031-07");
  await expect(row.getByRole("link", { name: new RegExp(`PDF, \\d+ KB of ${PAPER}`) })).toBeVisible();

  // A new file: the old one is kept as an earlier file.
  await page.getByRole("link", { name: `Edit ${PAPER}` }).click();
  const edit = page.getByRole("form", { name: `Edit ${PAPER}` });
  await expect(edit.getByLabel("Name", { exact: true })).toHaveValue(PAPER);
  await edit.getByLabel("Revision").fill("B");
  await edit
    .getByLabel("Replace the file")
    .setInputFiles({ name: "ladders-b.pdf", mimeType: "application/pdf", buffer: await pdf("second edition") });
  await edit.getByRole("button", { name: "Save paper" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Saved “${PAPER}”.` })).toBeVisible();
  await expect(row).toContainText("Rev. B");
  await row.getByText(`Earlier files (1)`).click();
  await expect(row).toContainText("Rev. A · 2031-03-01");

  // The earlier file, then the paper.
  await row.getByRole("link", { name: /Delete the earlier file replaced/ }).click();
  await page.getByRole("dialog", { name: "Delete this earlier file?" }).getByRole("button", { name: "Delete" }).click();
  await expect(row.getByText(/Earlier files/)).toHaveCount(0);
  await row.getByRole("link", { name: `Delete the paper ${PAPER}` }).click();
  await page.getByRole("dialog", { name: "Delete this paper?" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("No papers yet.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Papers", exact: true })).toBeFocused();

  // And the categories, the sub-category first, on a slow phone: React Router's updates are
  // transitions, which a busy browser merges, so a delete's answer can arrive in the same render
  // that removes its row; the page's status line still says what was deleted.
  await page.getByRole("link", { name: "Categories and papers" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Categories and papers" })).toBeVisible();
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 8 });
  for (const name of [CHILD, CATEGORY]) {
    await page.getByRole("link", { name: `Delete the category ${name}` }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this category?" });
    // The refusal of the earlier try is not said again.
    await expect(dialog.getByRole("button", { name: "Delete" })).toBeVisible();
    await expect(dialog.getByRole("alert")).toHaveCount(0);
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Deleted “${name}”.` })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole("link", { name: `Delete the category ${name}` })).toHaveCount(0);
  }
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  await expect(page.getByText(CATEGORY, { exact: true })).toHaveCount(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the same forms post to the page and come back with a notice", async ({ page }) => {
    const name = "Harbour plain-form notes";
    await page.goto("/login?redirect=%2Fmanager%2Flibrary");
    await signIn(page, ADMIN, { javaScript: false });
    await expect(page.getByRole("heading", { level: 1, name: "Categories and papers" })).toBeVisible();
    await page.getByRole("link", { name: "New category" }).click();
    const create = page.getByRole("form", { name: "New top-level category" });
    await create.getByLabel("Name", { exact: true }).fill(name);
    await create.getByRole("button", { name: "Create category" }).click();
    await expect(page.getByRole("status")).toHaveText(`Created “${name}”.`);

    await page.getByRole("link", { name: `Papers (0) in ${name}` }).click();
    await page.getByRole("link", { name: "New paper" }).click();
    const form = page.getByRole("form", { name: "New paper" });
    await form.getByLabel("Name", { exact: true }).fill("Plain upload");
    await form.getByLabel("Date", { exact: true }).fill("2031-02-28");
    await form
      .getByLabel("File")
      .setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("only words, no PDF") });
    await form.getByRole("button", { name: "Create paper" }).click();
    // Refused at the file field (415), what was typed kept.
    await expect(form.getByText(/The file must be a PDF/)).toBeVisible();
    await expect(form.getByLabel("Name", { exact: true })).toHaveValue("Plain upload");
    await form
      .getByLabel("File")
      .setInputFiles({ name: "plain.pdf", mimeType: "application/pdf", buffer: await pdf("plain") });
    await form.getByRole("button", { name: "Create paper" }).click();
    await expect(page.getByRole("status")).toHaveText("Created “Plain upload”.");
    await expect(page.getByRole("listitem").filter({ hasText: "Plain upload" })).toContainText("PDF");

    await page.getByRole("link", { name: "Delete the paper Plain upload" }).click();
    await page.getByRole("form", { name: "Delete this paper?" }).getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("status")).toHaveText("Deleted “Plain upload”.");

    await page.getByRole("link", { name: "Categories and papers" }).click();
    await page.getByRole("link", { name: `Delete the category ${name}` }).click();
    await page.getByRole("form", { name: "Delete this category?" }).getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("status")).toHaveText(`Deleted “${name}”.`);
  });
});

test("the category form's labels name its fields: clicking Title or Name focuses it, no id twice (axe)", async ({
  page,
}) => {
  await page.goto("/login?redirect=%2Fmanager%2Flibrary");
  await signIn(page, ADMIN);
  const axe = () => new AxeBuilder({ page }).withRules(["duplicate-id", "duplicate-id-aria", "label"]).analyze();
  const findings = async () =>
    (await axe()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);

  await page.getByRole("link", { name: "New category" }).click();
  const created = page.getByRole("form", { name: "New top-level category" });
  await created.locator("label", { hasText: /^Title$/ }).click();
  await expect(created.getByLabel("Title", { exact: true })).toBeFocused();
  expect(await findings()).toEqual([]);

  // Editing: the form's heading and the tree's name sit beside the Title and Name fields.
  const edit = page.getByRole("link", { name: /^Edit / }).first();
  const name = ((await edit.textContent()) ?? "").replace(/^Edit\s*/, "").trim();
  await edit.click();
  const form = page.getByRole("form", { name: `Edit ${name}` });
  for (const label of ["Title", "Name"]) {
    await form.locator("label", { hasText: new RegExp(`^${label}$`) }).click();
    await expect(form.getByLabel(label, { exact: true })).toBeFocused();
  }
  expect(await findings()).toEqual([]);
});
