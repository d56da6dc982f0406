import { type Kysely, type MigrationResultSet, Migrator, PostgresAdapter, sql } from "kysely";
import { migrations } from "./migrations";
import type { Database } from "./types";

export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationResultSet> {
  // Kysely looks for its bookkeeping tables in every schema it can see; on PostgreSQL
  // pin them to the connection's own schema so that a neighbour schema is never mistaken for ours.
  let migrationTableSchema: string | undefined;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    migrationTableSchema = rows[0]?.schema;
  }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema,
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return result;
}
