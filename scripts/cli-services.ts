import { createServices } from "../core/services";
import { type DatabaseHandle, openDatabase } from "../db/connect";
import { migrateToLatest } from "../db/migrate";
import type { Config } from "../lib/env";
import type { Logger } from "../lib/logger";
import type { MailTransport } from "../lib/mail";
import { createStorages } from "../lib/storages";

/**
 * What a command-line tool works on: the configured database (migrated), its storages and the
 * services over them. The caller closes `database` when done.
 */
export async function openCliServices(
  config: Config,
  options: { logger?: Logger; mailTransport?: MailTransport } = {},
): Promise<{ database: DatabaseHandle; services: ReturnType<typeof createServices> }> {
  const database = openDatabase(config);
  try {
    await migrateToLatest(database.db);
  } catch (error) {
    await database.destroy();
    throw error;
  }
  const storages = createStorages(config);
  const services = createServices({
    mailFrom: config.mailFrom,
    origin: config.baseUrl.origin,
    db: database.db,
    dialect: database.dialect,
    sqlite: database.sqlite,
    storage: storages.uploads,
    privateStorage: storages.private,
    sessionTtlSeconds: config.sessionTtlSeconds,
    sessionIdleSeconds: config.sessionIdleSeconds,
    logger: options.logger,
    mailTransport: options.mailTransport,
  });
  return { database, services };
}
