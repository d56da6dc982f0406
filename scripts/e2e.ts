import { spawnSync } from "node:child_process";
import { ensureChromium } from "./browser";

/** `npm run test:e2e`: build, make sure a Chromium exists, run Playwright. */
if (spawnSync("npm", ["run", "build", "--silent"], { stdio: "inherit" }).status !== 0) process.exit(1);
const executable = ensureChromium();
const result = spawnSync("npx", ["playwright", "test", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, ...(executable ? { CHROMIUM_PATH: executable } : {}) },
});
process.exit(result.status ?? 1);
