import { openDatabase } from "../db/connect";
import { migrateToLatest } from "../db/migrate";
import { loadConfig } from "../lib/env";

/** `npm run db:migrate`: applies pending migrations (the server also does this at start). */
const config = loadConfig();
const database = openDatabase(config);
try {
  const result = await migrateToLatest(database.db);
  const applied = result.results ?? [];
  console.log(applied.length ? applied.map((r) => `applied ${r.migrationName}`).join("\n") : "Database is up to date.");
} catch (error) {
  console.error(`Migration failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.destroy();
}
