import { parseArgs } from "node:util";
import { loadConfig } from "../lib/env";
import { createBackup, runCli, totalRows } from "./backup/index";

const USAGE = "Usage: npm run backup [-- --out <folder>]";

/** `npm run backup`: an online backup of the database, uploads and private files into one dated folder. */
async function main(argv: string[]): Promise<number> {
  let out: string | undefined;
  try {
    out = parseArgs({ args: argv, options: { out: { type: "string" } }, strict: true }).values.out;
  } catch {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const { dir, manifest } = await createBackup(config, { out });
  const rows = totalRows(manifest);
  const bytes = manifest.uploads.reduce((sum, file) => sum + file.bytes, 0);
  console.log(
    [
      `Backup written to ${dir}`,
      `  ${manifest.dialect} database: ${rows} rows in ${Object.keys(manifest.tables).length} tables, migration ${manifest.migrations.at(-1) ?? "none"}`,
      `  uploads: ${manifest.uploads.length} files, ${bytes} bytes`,
      `  private files: ${manifest.private.length} files, ${manifest.private.reduce((sum, file) => sum + file.bytes, 0)} bytes`,
    ].join("\n"),
  );
  return 0;
}

runCli(main);
