import { type Kysely, type MigrationResultSet, Migrator, sql, type TableMetadata } from "kysely";
import { afterAll, beforeAll } from "vitest";
import type { DatabaseHandle } from "../../db/connect";
import { migrations } from "../../db/migrations";
import type { Database } from "../../db/types";
import { createTestDatabase, type TestDatabase } from "./database";

/** A migrator over the database's own migration tables (on PostgreSQL, those of its schema). */
export async function migratorOf(handle: Pick<DatabaseHandle, "db" | "dialect">): Promise<Migrator> {
  const migrationTableSchema =
    handle.dialect === "postgres"
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db)).rows[0]?.schema
      : undefined;
  return new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations }, migrationTableSchema });
}

/**
 * The tables of this test's own database. On PostgreSQL, Kysely's introspection lists the tables of
 * every schema, and the test files running beside this one each have a schema of their own with the
 * same tables at the latest migration: only those of the connection's schema are this test's.
 */
export async function ownTables(db: Kysely<Database>): Promise<TableMetadata[]> {
  const tables = await db.introspection.getTables();
  if (!tables.some((table) => table.schema)) return tables;
  const current = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema;
  return tables.filter((table) => table.schema === current);
}

/** The migration just before `name`, whichever it is once others land. */
export function migrationBefore(name: string): string {
  const names = Object.keys(migrations).sort();
  const at = names.indexOf(name);
  if (at < 1) throw new Error(`There is no migration before "${name}".`);
  return names[at - 1];
}

/**
 * The set-up of a test of migration `name`: a migrated database of the file's own, made before its
 * tests and removed after them, and `toBefore()`, which takes it back to the migration just before
 * `name` (its result says whether that worked).
 */
export function migrationTest(name: string) {
  const before = migrationBefore(name);
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database?.cleanup());
  const opened = () => {
    if (!database) throw new Error("The database is made in beforeAll.");
    return database;
  };
  return {
    get db() {
      return opened().db;
    },
    toBefore: async (): Promise<MigrationResultSet> => (await migratorOf(opened())).migrateTo(before),
  };
}
