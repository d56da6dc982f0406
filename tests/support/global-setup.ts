import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openSqlite } from "../../db/connect";
import { migrateToLatest } from "../../db/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    sqliteTemplate: string;
    postgresUrl: string | null;
  }
}

/**
 * Migrates one SQLite template file that each test file copies (fast, fully
 * isolated). On PostgreSQL (TEST_DATABASE_URL) each test file gets a schema
 * of its own instead.
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-test-"));
  const template = path.join(dir, "template.db");
  const handle = openSqlite(template);
  await migrateToLatest(handle.db);
  await handle.destroy();
  project.provide("sqliteTemplate", template);

  const postgresUrl = process.env.TEST_DATABASE_URL || null;
  if (postgresUrl) {
    const client = new pg.Client({ connectionString: postgresUrl });
    try {
      await client.connect();
      await client.query("select 1");
    } catch (error) {
      throw new Error(`TEST_DATABASE_URL is set but PostgreSQL does not answer: ${(error as Error).message}`);
    } finally {
      await client.end().catch(() => {});
    }
  }
  project.provide("postgresUrl", postgresUrl);

  return () => fs.rmSync(dir, { recursive: true, force: true });
}
