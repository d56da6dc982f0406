import { randomBytes } from "node:crypto";
import { openAsBlob } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

/**
 * Uploaded files spooled to disk (large uploads such as paper files): the
 * request body parser writes each file part to a temporary file and hands the
 * route a standard File backed by that file (fs.openAsBlob, read only when the
 * route reads it), so a 50 MB upload never sits in memory.
 *
 * The temporary directory (config.tmpDir) is on the data directory's file
 * system, so storage can take a spooled file with a rename (storage.putFile).
 */

/** Where a file part is spooled, and the largest file it may be. */
export type SpoolOptions = { dir: string; maxFileBytes: number };

const PREFIX = "upload-";
const paths = new WeakMap<Blob, string>();

/** A fresh temporary file name in `dir` (the file itself is created by the writer, never overwritten). */
export function spoolFileName(dir: string): string {
  return path.join(dir, `${PREFIX}${randomBytes(16).toString("hex")}.part`);
}

/**
 * The spooled file as a File, without reading it: Node's Blob keeps a blob part
 * by reference, so `new File([blob])` reads nothing (measured on Node 20.20:
 * wrapping a 200 MB file left memory flat; tests/process/upload-memory.test.ts).
 */
export async function spooledFile(file: string, name: string, type: string): Promise<File> {
  const blob = await openAsBlob(file, { type });
  const value = new File([blob], name, { type });
  paths.set(value, file);
  return value;
}

/**
 * The temporary file behind an uploaded File, when it was spooled: give it to
 * storage.putFile to move it into storage without copying. Undefined for files
 * held in memory. Once moved, the File can no longer be read (the blob checks
 * its file), so read what you need (sniffing, size) before.
 */
export function spooledPath(file: Blob): string | undefined {
  return paths.get(file);
}

/** Removes temporary files; a file already moved into storage is simply gone. */
export async function removeSpooled(files: Iterable<string>): Promise<void> {
  await Promise.all([...files].map((file) => fs.rm(file, { force: true }).catch(() => {})));
}

/**
 * Removes spooled files older than `maxAgeMs` (a crash or a kill left them):
 * run at start-up. Only our own `upload-*.part` names are touched.
 */
export async function sweepSpooled(dir: string, maxAgeMs = 60 * 60 * 1000, now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(PREFIX) || !name.endsWith(".part")) continue;
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile() || now - stat.mtimeMs < maxAgeMs) continue;
    await fs.rm(file, { force: true });
    removed.push(file);
  }
  return removed;
}
