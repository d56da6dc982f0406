import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import type { Config } from "../lib/env";
import type { Database } from "./types";

export type Dialect = "sqlite" | "postgres";

export type DatabaseHandle = {
  db: Kysely<Database>;
  dialect: Dialect;
  destroy: () => Promise<void>;
};

// COUNT(*) and BIGINT come back from pg as strings; every count we take fits a JS number.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export function openSqlite(file: string): DatabaseHandle {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  database.pragma("synchronous = NORMAL");
  // Unicode lower case for searches (migration 0004 gives PostgreSQL the same function).
  database.function("casefold", { deterministic: true }, (value: unknown) =>
    typeof value === "string" ? value.toLowerCase() : value,
  );
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return { db, dialect: "sqlite", destroy: () => db.destroy() };
}

export function openPostgres(url: string, options: { searchPath?: string; max?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: "postgres", destroy: () => db.destroy() };
}

export function openDatabase(config: Pick<Config, "database">): DatabaseHandle {
  return config.database.dialect === "postgres" ? openPostgres(config.database.url) : openSqlite(config.database.file);
}

/** A cheap round trip for /readyz. */
export async function ping(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
