import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Locator, type Page } from "@playwright/test";

/** Accounts the e2e server creates next to the demo content (scripts/e2e-server.ts). */
export const ADMIN = { email: "e2e-admin@masthead.example", password: "e2e-admin-password" };
export const MEMBER = { email: "e2e-member@masthead.example", password: "e2e-member-password" };
export const EDITOR = { email: "e2e-editor@masthead.example", password: "e2e-editor-password" };
/** A working group's chair, a member of the group, and a member outside it (groups.spec.ts alone). */
export const CHAIR = { email: "e2e-chair@masthead.example", password: "e2e-chair-password" };
export const GROUP_MEMBER = { email: "e2e-group@masthead.example", password: "e2e-group-password" };
export const OUTSIDER = { email: "e2e-outsider@masthead.example", password: "e2e-outsider-password" };

/**
 * Signs in on the login page. The login is a form posted as a document (decision 0033): this waits
 * for the page it leads to (the next one, or the login again with its refusal) and, with
 * JavaScript, for that page's script, so that the test's next click is not lost.
 */
export async function signIn(
  page: Page,
  account: { email: string; password: string },
  { javaScript = true }: { javaScript?: boolean } = {},
) {
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  const loaded = page.waitForEvent("load");
  await page.getByRole("button", { name: "Login" }).click();
  await loaded;
  if (javaScript) await waitForHydration(page);
}

/** The e2e server keeps its data per port (scripts/e2e-server.ts). */
export const OUTBOX = path.resolve(`tmp/e2e-data-${process.env.E2E_PORT ?? "3210"}/outbox`);

/** The mails written to the server's .eml outbox for `address`, with quoted-printable's soft line breaks undone. */
export function outboxMailsTo(address: string): string[] {
  if (!fs.existsSync(OUTBOX)) return [];
  return fs
    .readdirSync(OUTBOX)
    .map((file) => fs.readFileSync(path.join(OUTBOX, file), "utf8"))
    .filter((text) => text.split(/\r?\n/).includes(`To: ${address}`))
    .map((text) => text.replace(/=\r?\n/g, ""));
}

/** The path and query of the last link to `route` mailed to `to`, read from the server's .eml outbox. */
export function linkMailedTo(to: string, route: string): string | null {
  if (!fs.existsSync(OUTBOX)) return null;
  const pattern = new RegExp(`(${route.replace(/[/?]/g, "\\$&")}\\?token=[\\w-]+)`);
  const mails = fs
    .readdirSync(OUTBOX)
    .sort()
    .map((file) =>
      fs
        .readFileSync(path.join(OUTBOX, file), "utf8")
        .replace(/=\r?\n/g, "")
        .replace(/=3D/g, "="),
    )
    .filter((text) => text.split(/\r?\n/).includes(`To: ${to}`));
  const last = mails.at(-1);
  return last ? (pattern.exec(last)?.[1] ?? null) : null;
}

/** No serious or critical accessibility findings on the page as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

/**
 * Holds the requests whose path `matches` until the page has shown its progress bar (SPEC §9: after
 * 200 ms), so that a test sees the bar of a navigation however slow the machine, with no fixed
 * pause. The page reports the bar itself, through a binding: when the next page is a document (an
 * islands page, decision 0033), Playwright cannot read the old one while it is pending. At most
 * 15 s, so that a bar that never shows fails the test instead of hanging it. Returns whether the
 * bar showed.
 */
export async function holdUntilProgressBar(page: Page, matches: (path: string) => boolean): Promise<() => boolean> {
  let shown = false;
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.exposeFunction("reportProgressBar", () => {
    shown = true;
    release();
  });
  await page.evaluate(() => {
    const bar = document.querySelector('[role="progressbar"]') as Element;
    new MutationObserver(() => {
      if (bar.getAttribute("data-visible") === "true")
        (window as Window & { reportProgressBar?: () => void }).reportProgressBar?.();
    }).observe(bar, { attributes: true });
  });
  await page.route(
    (url) => matches(url.pathname),
    async (route) => {
      await Promise.race([released, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      await route.continue();
    },
  );
  return () => shown;
}

/** Waits until React has hydrated the page, before using behaviour that needs JavaScript. */
/**
 * Opens a menu by its button until `item` shows, pressing again if a press went unheard, as a
 * person would: on a busy CI machine one press on a just-hydrated page's user menu was lost
 * once (the menu stayed closed for 60 s, the button focused). The press itself is what is
 * tested; how many it takes on a loaded machine is not.
 */
export async function openMenu(button: Locator, item: Locator) {
  await expect(async () => {
    if (!(await item.isVisible())) await button.click();
    await expect(item).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
}

export async function waitForHydration(page: Page) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/**
 * The test API with one change: page.goto waits for hydration when JavaScript
 * is on, so that a click never lands before React listens for it.
 */
export const test = base.extend<{ page: Page }>({
  page: async ({ page, javaScriptEnabled }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (url: string, options?: Parameters<Page["goto"]>[1]) => {
      const response = await goto(url, options);
      if (javaScriptEnabled !== false) await waitForHydration(page);
      return response;
    };
    await use(page);
  },
});
export { expect };
