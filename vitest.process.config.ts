import { defineConfig } from "vitest/config";
import { isUndiciFormDataWriteAfterCancel } from "./tests/support/undici-form-data";

/**
 * Tests of the built server as a process (tests/process): run by `npm test`
 * after the production build, one file at a time (they start servers and load them).
 */
export default defineConfig({
  test: {
    include: ["tests/process/**/*.test.ts"],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Node 24's fetch throws this one after a FormData body was cancelled (tests/support/undici-form-data.ts).
    onUnhandledError: (error) => !isUndiciFormDataWriteAfterCancel(error),
  },
});
