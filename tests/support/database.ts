import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { type DatabaseHandle, openPostgres, openSqlite } from "../../db/connect";
import { migrateToLatest } from "../../db/migrate";

export type TestDatabase = DatabaseHandle & { cleanup: () => Promise<void>; location: string };

/** A fresh, migrated database for one test file, on the dialect this run is testing. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const postgresUrl = inject("postgresUrl");
  if (postgresUrl) {
    const database = await postgresSchema(postgresUrl, 5);
    await migrateToLatest(database.db);
    return database;
  }
  return sqliteFile(inject("sqliteTemplate"));
}

/** An empty database on the dialect this run is testing, no migration run yet (for tests of the migrations). */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  const postgresUrl = inject("postgresUrl");
  return postgresUrl ? postgresSchema(postgresUrl, 2) : sqliteFile(null);
}

/** A schema of its own on the test server, dropped with everything in it by cleanup. */
async function postgresSchema(postgresUrl: string, max: number): Promise<TestDatabase> {
  const schema = `test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create schema "${schema}"`);
  await admin.end();
  const handle = openPostgres(postgresUrl, { searchPath: schema, max });
  return {
    ...handle,
    location: `${postgresUrl} (schema ${schema})`,
    cleanup: async () => {
      await handle.destroy();
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    },
  };
}

/** A database file in a folder of its own (a copy of `template`, or empty), removed by cleanup. */
function sqliteFile(template: string | null): TestDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-db-"));
  const file = path.join(dir, "site.db");
  if (template) fs.copyFileSync(template, file);
  const handle = openSqlite(file);
  return {
    ...handle,
    location: file,
    cleanup: async () => {
      await handle.destroy();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  };
}

/** Re-opens the same database as a second process would (e.g. after a restart). */
export function reopen(database: TestDatabase): DatabaseHandle {
  const postgresUrl = inject("postgresUrl");
  if (postgresUrl) {
    const schema = /schema (\S+)\)$/.exec(database.location)?.[1];
    return openPostgres(postgresUrl, { searchPath: schema, max: 2 });
  }
  return openSqlite(database.location);
}
