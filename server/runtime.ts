import fs from "node:fs";
import { createServices } from "../core/services";
import { openDatabase } from "../db/connect";
import { migrateToLatest } from "../db/migrate";
import type { Config } from "../lib/env";
import { createLogger } from "../lib/logger";
import { localStorage } from "../lib/storage";
import type { Runtime } from "./env";

/**
 * Opens the database, applies migrations, creates the configured first admin
 * and wires the services: the start-up every entry point shares.
 */
export async function createRuntime(config: Config): Promise<Runtime> {
  const logger = createLogger(config.logLevel);
  fs.mkdirSync(config.uploadsDir, { recursive: true });
  const database = openDatabase(config);
  try {
    const migrated = await migrateToLatest(database.db);
    for (const result of migrated.results ?? []) logger.info({ migration: result.migrationName }, "migration applied");
    const services = createServices({
      db: database.db,
      dialect: database.dialect,
      storage: localStorage(config.uploadsDir),
      sessionTtlSeconds: config.sessionTtlSeconds,
    });
    if (config.admin) {
      const outcome = await services.accounts.ensureAdmin(config.admin);
      if (outcome === "created") logger.info({ email: config.admin.email }, "first admin created");
    }
    return { config, database, services, logger };
  } catch (error) {
    await database.destroy();
    throw error;
  }
}
