import { sweepUploads } from "../core/media/upload-sweep";
import { openDatabase } from "../db/connect";
import { loadConfig } from "../lib/env";
import { createStorages } from "../lib/storages";

/**
 * `npm run uploads:sweep [-- --dry-run] [-- --min-age <minutes>]`: removes
 * uploaded files that no row references and that are older than the grace
 * period (60 minutes by default; editor images a day). The server also sweeps
 * at start. See decision 0015. Works on the configured storage (local disk or S3, through list()).
 */
const USAGE = "Usage: npm run uploads:sweep -- [--dry-run] [--min-age <minutes>]";

function parseArgs(args: string[]): { dryRun: boolean; minAgeMs?: number } | null {
  let dryRun = false;
  let minAgeMs: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--dry-run") dryRun = true;
    else if (arg === "--min-age" || arg.startsWith("--min-age=")) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[++i];
      if (!value || !/^\d+$/.test(value)) return null;
      minAgeMs = Number(value) * 60_000;
    } else return null;
  }
  return { dryRun, minAgeMs };
}

const options = parseArgs(process.argv.slice(2));
if (!options) {
  console.error(USAGE);
  process.exit(2);
}
const config = loadConfig();
const database = openDatabase(config);
try {
  const result = await sweepUploads({ db: database.db, storage: createStorages(config).uploads }, options);
  for (const key of result.orphans) console.log(`${result.dryRun ? "would remove" : "removed"} ${key}`);
  console.log(
    `${result.scanned} files checked; ${result.orphans.length} ${result.dryRun ? "would be removed (dry run)" : "removed"}; ` +
      `${result.young} unreferenced but too recent to remove.`,
  );
} catch (error) {
  // Nothing was removed: references are read in full before any file goes.
  console.error(`Upload sweep failed, nothing removed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await database.destroy();
}
