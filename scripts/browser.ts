import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { installDebianPackage } from "./debian-package";

/** Where a system Chromium usually lives; CHROMIUM_PATH wins. */
const CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome-stable",
  "/usr/bin/google-chrome",
  "/snap/bin/chromium",
];

export function findChromium(): string | null {
  const override = process.env.CHROMIUM_PATH;
  if (override && fs.existsSync(override)) return override;
  return CANDIDATES.find((file) => fs.existsSync(file)) ?? null;
}

/**
 * A browser for the end-to-end tests, never silently none: a system Chromium;
 * else Debian's chromium package (installed with apt-get when we are root);
 * else Playwright's own download. Returns the executable, or null when
 * Playwright's bundled browser is to be used.
 */
export function ensureChromium(log: (message: string) => void = console.log): string | null {
  const found = findChromium();
  if (found) return found;
  if (installDebianPackage("chromium", log)) {
    const installed = findChromium();
    if (installed) return installed;
  }
  log("No system Chromium: downloading Playwright's own Chromium…");
  const download = spawnSync("npx", ["playwright", "install", "chromium"], { stdio: "inherit" });
  if (download.status !== 0)
    throw new Error("No Chromium available for the end-to-end tests (apt-get and Playwright's download both failed).");
  return null;
}

/** Flags for a headless Chromium on a closed network, as root. */
export const CHROMIUM_ARGS = [
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];
