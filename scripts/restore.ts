import { parseArgs } from "node:util";
import { loadConfig } from "../lib/env";
import { createStorages } from "../lib/storages";
import { restoreBackup, runCli, totalRows } from "./backup/index";

const USAGE = "Usage: npm run restore -- <backup folder>   (into the empty DATA_DIR or database the environment names)";

/** `npm run restore`: puts a backup made by `npm run backup` into an empty DATA_DIR or database. */
async function main(argv: string[]): Promise<number> {
  let folder: string | undefined;
  try {
    const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true });
    if (positionals.length === 1) folder = positionals[0];
  } catch {
    folder = undefined;
  }
  if (!folder) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const manifest = await restoreBackup(config, folder);
  const target = config.database.dialect === "postgres" ? `schema ${manifest.database.schema}` : config.database.file;
  const rows = totalRows(manifest);
  console.log(
    [
      `Restored the backup of ${manifest.created_at} into ${target}`,
      `  ${rows} rows in ${Object.keys(manifest.tables).length} tables checked against the manifest`,
      `  ${manifest.uploads.length} uploaded files and ${manifest.private.length} private files in ` +
        (config.storage.kind === "s3"
          ? createStorages(config).describe
          : `${config.uploadsDir} and ${config.privateDir}`),
    ].join("\n"),
  );
  return 0;
}

runCli(main);
