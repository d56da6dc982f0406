import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./scripts/browser";

// E2E_PORT lets a second checkout run its own suite beside this one.
const PORT = Number(process.env.E2E_PORT ?? 3210);
/** A second server on a fresh install (no demo content) for the home and menu checks. */
const EMPTY_PORT = PORT + 1;
const executablePath = findChromium() ?? undefined;

/** End-to-end tests against the production build and a freshly seeded database. */
export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "tmp/e2e-artifacts",
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  reporter: [["list"], ["json", { outputFile: "tmp/e2e-results.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
  },
  projects: [
    {
      name: "chromium",
      testIgnore: /admin-(site|news|meetings|library)\.spec\.ts/,
      use: { ...devices["Desktop Chrome"], launchOptions: { executablePath, args: CHROMIUM_ARGS } },
    },
    // The home and menu checks once more against a fresh install: every menu link must lead to a page.
    {
      name: "empty-install",
      testMatch: /(public-site|errors)\.spec\.ts/,
      grep: /main menu|the home page renders/,
      use: {
        ...devices["Desktop Chrome"],
        baseURL: `http://127.0.0.1:${EMPTY_PORT}`,
        launchOptions: { executablePath, args: CHROMIUM_ARGS },
      },
    },
    // Admin edits change what the other tests read (contact data, pages, meetings), so they run last.
    {
      name: "admin-edits",
      testMatch: /admin-(site|news|meetings|library)\.spec\.ts/,
      dependencies: ["chromium"],
      use: { ...devices["Desktop Chrome"], launchOptions: { executablePath, args: CHROMIUM_ARGS } },
    },
  ],
  webServer: [
    {
      command: "npx tsx scripts/e2e-server.ts",
      url: `http://127.0.0.1:${PORT}/readyz`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { PORT: String(PORT), HOST: "127.0.0.1", BASE_URL: `http://127.0.0.1:${PORT}`, LOG_LEVEL: "warn" },
    },
    {
      command: "npx tsx scripts/e2e-server.ts --empty",
      url: `http://127.0.0.1:${EMPTY_PORT}/readyz`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: String(EMPTY_PORT),
        HOST: "127.0.0.1",
        BASE_URL: `http://127.0.0.1:${EMPTY_PORT}`,
        LOG_LEVEL: "warn",
      },
    },
  ],
});
