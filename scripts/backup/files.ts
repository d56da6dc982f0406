import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { z } from "zod";
import type { ReadableFileStorage } from "../../lib/storage";

/** Raised for anything an operator must fix; the scripts print the message alone and exit 1. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

export const MANIFEST = "manifest.json";
export const UPLOADS = "uploads";
/** The private root's files (paper files, decision 0024), beside the uploads and never mixed with them. */
export const PRIVATE = "private";

const fileEntry = z.object({ path: z.string(), bytes: z.number().int().min(0), sha256: z.string() });
export type FileEntry = z.infer<typeof fileEntry>;

export const manifestSchema = z.object({
  format: z.literal("masthead-backup"),
  version: z.literal(1),
  created_at: z.string(),
  dialect: z.enum(["sqlite", "postgres"]),
  /** site.db (SQLite, VACUUM INTO) or database.dump (pg_dump --format=custom). */
  database: fileEntry.extend({ schema: z.string().optional() }),
  /** Names of the applied migrations, oldest first. */
  migrations: z.array(z.string()),
  /** Rows per table in the snapshot. */
  tables: z.record(z.string(), z.number().int().min(0)),
  uploads: z.array(fileEntry),
  /** Files of the private root; absent in backups made before it existed. */
  private: z.array(fileEntry).default([]),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** The SHA-256 (hex) and length of a stream's bytes. */
async function digestOf(bytes: AsyncIterable<unknown>): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  let length = 0;
  for await (const chunk of bytes) {
    hash.update(chunk as Buffer);
    length += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), bytes: length };
}

export async function sha256(file: string): Promise<string> {
  return (await digestOf(createReadStream(file))).sha256;
}

export async function describeFile(root: string, relative: string): Promise<FileEntry> {
  const file = path.join(root, relative);
  return { path: relative, bytes: (await fs.stat(file)).size, sha256: await sha256(file) };
}

/** Regular files under root as forward-slash relative paths, sorted; none when root does not exist. */
export async function listFiles(root: string): Promise<string[]> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

/**
 * Copies the files of `from` that `to` lacks or holds with another size (a copy
 * taken while the file was being written). Run before the database snapshot and
 * after it: a file a snapshot row refers to was complete before its row committed,
 * so the pass after the snapshot copies it whole, and a pass before has already
 * copied it if a change after the snapshot removes it (unless it appeared after that
 * pass listed the folder). A file vanishing mid-copy is skipped.
 */
export async function copyMissing(from: string, to: string): Promise<void> {
  for (const relative of await listFiles(from)) {
    const source = path.join(from, relative);
    const target = path.join(to, relative);
    try {
      const [have, want] = await Promise.all([fs.stat(target).catch(() => null), fs.stat(source)]);
      if (have && have.size === want.size) continue;
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.copyFile(source, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await fs.rm(target, { force: true });
    }
  }
}

/** Checks that `root` holds every listed file with its size and checksum. */
export async function verifyFiles(root: string, expected: FileEntry[], what: string): Promise<void> {
  for (const entry of expected) {
    const actual = await describeFile(root, entry.path).catch(() => null);
    if (!actual) throw new BackupError(`${what}: ${entry.path} is missing.`);
    if (actual.bytes !== entry.bytes || actual.sha256 !== entry.sha256) {
      throw new BackupError(`${what}: ${entry.path} does not match the manifest (damaged or changed).`);
    }
  }
}

export async function isEmptyOrMissing(dir: string): Promise<boolean> {
  return (await listFiles(dir)).length === 0;
}

/** Differences between two row counts per table, as readable lines; empty when they agree. */
export function countDifferences(expected: Record<string, number>, actual: Record<string, number>): string[] {
  const names = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
  return names
    .filter((name) => expected[name] !== actual[name])
    .map((name) => `${name}: ${expected[name] ?? "absent"} in the backup, ${actual[name] ?? "absent"} restored`);
}

/**
 * copyMissing for files in a bucket (STORAGE=s3): downloads each stored file the folder lacks,
 * under a temporary name renamed when whole. An object appears only whole and never changes, so a
 * file already in the folder is complete. A file removed between the listing and its download is skipped.
 */
export async function downloadMissing(storage: ReadableFileStorage, to: string): Promise<void> {
  for await (const { key } of storage.list()) {
    const target = path.join(to, key);
    if (await fs.stat(target).catch(() => null)) continue;
    await fs.mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}.partial`;
    try {
      await pipeline(storage.open(key), createWriteStream(partial));
      await fs.rename(partial, target);
    } catch (error) {
      await fs.rm(partial, { force: true });
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}

/** Whether a storage holds no file. */
export async function isEmptyStorage(storage: ReadableFileStorage): Promise<boolean> {
  for await (const _ of storage.list()) return false;
  return true;
}

/** Uploads a backup's files into a storage (a bucket), then checks each one read back against the manifest. */
export async function uploadFiles(
  from: string,
  expected: FileEntry[],
  storage: ReadableFileStorage,
  what: string,
): Promise<void> {
  for (const entry of expected) await storage.putStream(entry.path, createReadStream(path.join(from, entry.path)));
  for (const entry of expected) {
    const stored = await digestOf(storage.open(entry.path));
    if (stored.bytes !== entry.bytes || stored.sha256 !== entry.sha256) {
      throw new BackupError(`${what}: ${entry.path} does not match the manifest after the upload.`);
    }
  }
}
