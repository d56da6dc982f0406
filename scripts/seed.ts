import { openDatabase } from "../db/connect";
import { migrateToLatest } from "../db/migrate";
import { loadConfig } from "../lib/env";
import { seedDemoContent } from "./seed/index";

/**
 * `npm run db:seed`: migrates the configured database and loads the demo
 * content on first run. Existing content is never touched.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const handle = openDatabase(config);
  try {
    await migrateToLatest(handle.db);
    const started = Date.now();
    const result = await seedDemoContent(handle.db, {
      uploadsDir: config.uploadsDir,
      privateDir: config.privateDir,
      log: console.log,
    });
    if (result.seeded) {
      console.log(
        `Demo content loaded in ${((Date.now() - started) / 1000).toFixed(1)} s (files in ${config.uploadsDir}).`,
      );
    } else {
      console.log("Database already has content; demo content not loaded.");
    }
  } finally {
    await handle.destroy();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
