import { type Kysely, type MigrationResultSet, Migrator } from "kysely";
import { migrations } from "./migrations";
import type { Database } from "./types";

export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return result;
}
