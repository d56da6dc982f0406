import { defineConfig } from "vitest/config";
import { isUndiciFormDataWriteAfterCancel } from "./tests/support/undici-form-data";

export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    pool: "forks",
    // One module graph per worker, not per file (decision 0084): the files were spending most of
    // their time importing the app again (14 min isolated, 8.7 min not, for the same 1 223 tests).
    // Each file still has its own database, data folder and app; nothing of ours is module state
    // that one file leaves for the next (the full suite passes in either mode).
    isolate: false,
    // s3rver (the S3 protocol server of tests/integration/storage.test.ts) encrypts ListObjectsV2
    // continuation tokens with DES, which Node's OpenSSL 3 offers only from its legacy provider.
    execArgv: ["--openssl-legacy-provider"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    // Node 24's fetch throws this one after a FormData body was cancelled (tests/support/undici-form-data.ts).
    onUnhandledError: (error) => !isUndiciFormDataWriteAfterCancel(error),
  },
});
