import { defineConfig } from "vitest/config";
import { isUndiciFormDataWriteAfterCancel } from "./tests/support/undici-form-data";

export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    pool: "forks",
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
