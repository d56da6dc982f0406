import { defineConfig } from "vitest/config";

/**
 * Tests of a cluster (tests/cluster): app processes of the production build on
 * one PostgreSQL database behind a real nginx (decision 0031). Run by
 * `npm test` after the production build when TEST_DATABASE_URL names a
 * PostgreSQL server; one file at a time (each starts a cluster and loads it).
 */
export default defineConfig({
  test: {
    include: ["tests/cluster/**/*.test.ts"],
    pool: "forks",
    fileParallelism: false,
    // The processes keep their files in an s3rver of the test process (tests/support/s3.ts), whose
    // ListObjectsV2 continuation tokens need OpenSSL's legacy provider (as in vitest.config.ts).
    execArgv: ["--openssl-legacy-provider"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
