import fs from "node:fs/promises";
import path from "node:path";
import { migrations as knownMigrations } from "../../db/migrations";
import type { Config } from "../../lib/env";
import { createStorages } from "../../lib/storages";
import {
  BackupError,
  copyMissing,
  countDifferences,
  describeFile,
  downloadMissing,
  isEmptyOrMissing,
  isEmptyStorage,
  listFiles,
  MANIFEST,
  type Manifest,
  manifestSchema,
  PRIVATE,
  UPLOADS,
  uploadFiles,
  verifyFiles,
} from "./files";
import { checkPostgresTarget, restorePostgres, snapshotPostgres } from "./postgres";
import { restoreSqlite, type Snapshot, snapshotSqlite, sqliteFiles } from "./sqlite";

export { BackupError, type Manifest } from "./files";

/** Runs a backup script's main: an operator's mistake prints its message alone and exits 1. */
export function runCli(main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof BackupError ? error.message : error);
      process.exit(1);
    },
  );
}

/** Rows in all tables, for the scripts' summaries. */
export const totalRows = (manifest: Manifest) => Object.values(manifest.tables).reduce((sum, n) => sum + n, 0);

type Target = Pick<Config, "database" | "dataDir" | "uploadsDir" | "privateDir" | "storage">;

/** The configured storages, once the bucket has answered (an operator's mistake, printed alone). */
async function reachableStorages(config: Target) {
  const storages = createStorages(config);
  await storages.check().catch((error: Error) => {
    throw new BackupError(error.message);
  });
  return storages;
}

/** masthead-2026-11-22T15-04-05Z: sorts by time and is a valid file name everywhere. */
export function backupName(now: Date): string {
  return `masthead-${now
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-")}`;
}

/** A new folder, or an existing empty one; never writes into a folder that holds anything. */
async function claimFolder(dir: string): Promise<boolean> {
  try {
    await fs.mkdir(dir, { recursive: false });
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      await fs.mkdir(path.dirname(dir), { recursive: true });
      return claimFolder(dir);
    }
    if (code === "EEXIST" && (await fs.readdir(dir)).length === 0) return false;
    if (code === "EEXIST") throw new BackupError(`${dir} already exists and is not empty.`);
    throw error;
  }
}

/**
 * An online backup into one folder: the database snapshot (site.db or
 * database.dump), the uploads, the private files and manifest.json, written
 * last, so that a folder without a manifest is an unfinished backup. The files
 * are copied before and after the snapshot (see copyMissing), from local disk or, with
 * STORAGE=s3, downloaded from the bucket (decision 0030).
 */
export async function createBackup(
  config: Target,
  options: { out?: string; now?: Date } = {},
): Promise<{ dir: string; manifest: Manifest }> {
  const dir = path.resolve(options.out ?? path.join(config.dataDir, "backups", backupName(options.now ?? new Date())));
  const created = await claimFolder(dir);
  try {
    const uploads = path.join(dir, UPLOADS);
    const privateFiles = path.join(dir, PRIVATE);
    await fs.mkdir(uploads);
    await fs.mkdir(privateFiles);
    const storages = await reachableStorages(config);
    const copyFiles = async () => {
      if (storages.kind === "s3") {
        await downloadMissing(storages.uploads, uploads);
        await downloadMissing(storages.private, privateFiles);
        return;
      }
      await copyMissing(config.uploadsDir, uploads);
      await copyMissing(config.privateDir, privateFiles);
    };
    // The long first pass, then a short one for what arrived meanwhile, so that a file uploaded just
    // before the snapshot and replaced just after it is already copied.
    await copyFiles();
    await copyFiles();
    const createdAt = new Date().toISOString();
    let snapshot: Snapshot & { schema?: string };
    let databaseFile: string;
    if (config.database.dialect === "postgres") {
      databaseFile = "database.dump";
      snapshot = await snapshotPostgres(config.database.url, path.join(dir, databaseFile));
    } else {
      databaseFile = "site.db";
      snapshot = snapshotSqlite(config.database.file, path.join(dir, databaseFile));
    }
    await copyFiles();
    const manifest: Manifest = {
      format: "masthead-backup",
      version: 1,
      created_at: createdAt,
      dialect: config.database.dialect,
      database: {
        ...(await describeFile(dir, databaseFile)),
        ...(snapshot.schema ? { schema: snapshot.schema } : {}),
      },
      migrations: snapshot.migrations,
      tables: snapshot.tables,
      uploads: await Promise.all((await listFiles(uploads)).map((file) => describeFile(uploads, file))),
      private: await Promise.all((await listFiles(privateFiles)).map((file) => describeFile(privateFiles, file))),
    };
    await fs.writeFile(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { flag: "wx" });
    return { dir, manifest };
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    if (!created) await fs.mkdir(dir, { recursive: true });
    throw error;
  }
}

export async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, MANIFEST), "utf8");
  } catch {
    throw new BackupError(`${dir} holds no ${MANIFEST}: it is not a backup, or the backup did not finish.`);
  }
  const parsed = manifestSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new BackupError(`${path.join(dir, MANIFEST)} is not a backup manifest this version reads.`);
  return parsed.data;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/**
 * Puts a backup back into an empty DATA_DIR or database (the one the
 * configuration names) and checks the result against the manifest. Refuses,
 * touching nothing, if a database or uploads are already there. With STORAGE=s3
 * the files go into the bucket, whose uploads and private prefixes must be empty;
 * a backup of a site on local disk restored so moves it to S3.
 */
export async function restoreBackup(config: Target, dir: string): Promise<Manifest> {
  const source = path.resolve(dir);
  const manifest = await readManifest(source);
  if (manifest.dialect !== config.database.dialect) {
    throw new BackupError(
      `This is a ${manifest.dialect} backup but the configuration names a ${config.database.dialect} database.`,
    );
  }
  const unknown = manifest.migrations.filter((name) => !(name in knownMigrations));
  if (unknown.length) {
    throw new BackupError(`The backup comes from a newer version (migrations ${unknown.join(", ")}); upgrade first.`);
  }
  if (config.database.dialect === "postgres") {
    if (!manifest.database.schema) throw new BackupError("The manifest names no PostgreSQL schema.");
    await checkPostgresTarget(config.database.url, manifest.database.schema);
  } else {
    const present = [];
    for (const file of sqliteFiles(config.database.file)) if (await exists(file)) present.push(file);
    if (present.length) {
      throw new BackupError(
        `A database is already there (${present.join(", ")}). Restore only into an empty DATA_DIR.`,
      );
    }
  }
  const storages = await reachableStorages(config);
  if (storages.kind === "s3") {
    for (const [storage, where] of [
      [storages.uploads, "uploads"],
      [storages.private, "private files"],
    ] as const) {
      if (!(await isEmptyStorage(storage))) {
        throw new BackupError(
          `The bucket's ${where} already hold files (${storages.describe}). Restore only into an empty bucket or S3_PREFIX.`,
        );
      }
    }
  } else {
    for (const dir of [config.uploadsDir, config.privateDir]) {
      if (!(await isEmptyOrMissing(dir))) {
        throw new BackupError(`${dir} already holds files. Restore only into an empty DATA_DIR.`);
      }
    }
  }
  await verifyFiles(source, [manifest.database], "The backup's database");
  await verifyFiles(path.join(source, UPLOADS), manifest.uploads, "The backup's uploads");
  await verifyFiles(path.join(source, PRIVATE), manifest.private, "The backup's private files");

  let restored: Snapshot;
  const database = path.join(source, manifest.database.path);
  if (config.database.dialect === "postgres") {
    restored = await restorePostgres(config.database.url, database, manifest.database.schema ?? "public");
  } else {
    restored = restoreSqlite(database, config.database.file);
  }
  const differences = countDifferences(manifest.tables, restored.tables);
  if (differences.length)
    throw new BackupError(`The restored rows differ from the backup:\n  ${differences.join("\n  ")}`);

  if (storages.kind === "s3") {
    await uploadFiles(path.join(source, UPLOADS), manifest.uploads, storages.uploads, "The restored uploads");
    await uploadFiles(path.join(source, PRIVATE), manifest.private, storages.private, "The restored private files");
    return manifest;
  }
  await copyMissing(path.join(source, UPLOADS), config.uploadsDir);
  await verifyFiles(config.uploadsDir, manifest.uploads, "The restored uploads");
  if (manifest.private.length) {
    await copyMissing(path.join(source, PRIVATE), config.privateDir);
    await verifyFiles(config.privateDir, manifest.private, "The restored private files");
  }
  return manifest;
}
