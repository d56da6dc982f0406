import { SEARCH_DEBOUNCE_MS } from "../../app/components/search/search-box";
import { expect, expectAccessible, test } from "./fixtures";

/** SPEC §2 'Search box': 'Clicking outside clears it' — the text and the results, not only the panel. */
test.describe("search box, clicking outside", () => {
  test("clears the text and the results it shows", async ({ page }) => {
    await page.goto("/history");
    const box = page.getByRole("searchbox").first();
    await box.pressSequentially("secom", { delay: 30 });
    const results = page.locator("[data-result]");
    await expect(results.first()).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("heading", { level: 1 }).click();
    await expect(box).toHaveValue("");
    await expect(results).toHaveCount(0);
    // Typing again starts from nothing: the old query's results do not come back.
    await box.pressSequentially("s421", { delay: 30 });
    await expect(box).toHaveValue("s421");
  });

  test("clears a query whose results have not arrived yet, and they never open", async ({ page }) => {
    // The page's timers run on a clock the test moves: the click lands within the debounce pause
    // however slowly a busy machine carries it out. An installed clock still runs with real time
    // until it is paused (a cold first run once took longer than the pause between fill and click).
    await page.clock.install();
    await page.goto("/history");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    const calls: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/search")) calls.push(request.url());
    });
    const box = page.getByRole("searchbox").first();
    await box.fill("secom");
    // Within the debounce pause: no search has been sent yet.
    await page.getByRole("heading", { level: 1 }).click();
    await expect(box).toHaveValue("");
    await page.clock.runFor(SEARCH_DEBOUNCE_MS + 600);
    await page.waitForTimeout(300);
    await expect(page.locator("[data-result]")).toHaveCount(0);
    await expect(page.getByText(/There are no results/)).toHaveCount(0);
    expect(calls).toEqual([]);
  });

  test("a click inside the box keeps it; Escape clears it and keeps the focus in the field", async ({ page }) => {
    await page.goto("/history");
    const box = page.getByRole("searchbox").first();
    await box.pressSequentially("secom", { delay: 30 });
    const results = page.locator("[data-result]");
    await expect(results.first()).toBeVisible();
    await box.click();
    await expect(box).toHaveValue("secom");
    await expect(results.first()).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(box).toHaveValue("");
    await expect(results).toHaveCount(0);
    await expect(box).toBeFocused();
    await expectAccessible(page);
  });
});
