import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import { type FileStorage, isSafeStorageKey } from "../../lib/storage";
import { createUploadsRepository } from "./uploads.repository";

/** Younger files may belong to an upload whose row is not committed yet. */
export const SWEEP_MIN_AGE_MS = 60 * 60 * 1000;
/**
 * Images uploaded from the rich-text editor have no row until the page or post
 * is saved, which can be long after: they get a day.
 */
export const EDITOR_UPLOAD_MIN_AGE_MS = 24 * 60 * 60 * 1000;
const EDITOR_FOLDER = "content/";

export type SweepOptions = {
  /** List what would be removed, remove nothing. */
  dryRun?: boolean;
  /** Files modified more recently than this are kept (default one hour). */
  minAgeMs?: number;
  now?: Date;
  /** Stops the sweep (throwing the signal's reason) before its next file when aborted: a process shutting down. */
  signal?: AbortSignal;
};

export type SweepResult = {
  dryRun: boolean;
  /** Files looked at. */
  scanned: number;
  /** Unreferenced files old enough to go: removed, or listed in a dry run. */
  orphans: string[];
  /** Unreferenced files kept because they are younger than the grace period. */
  young: number;
};

const ADDRESS = /\/uploads\/([a-z0-9][a-z0-9_./-]*)/g;
const VARIANT_SUFFIX = /-\d+\.webp$/;

/**
 * The family a file belongs to: an image's resized variants (news/ab12-480.webp,
 * -960, -1600; avatars' -64, -128, -256) share one, so a row naming any size
 * keeps every size. Erring this way can only keep a file, never remove one.
 */
export function uploadFamily(key: string): string {
  return key.replace(VARIANT_SUFFIX, "");
}

/** The upload families one stored value names: a key, an /uploads/ address, or HTML holding addresses. */
export function referencedFamilies(value: string): string[] {
  const found: string[] = [];
  if (isSafeStorageKey(value)) found.push(uploadFamily(value));
  for (const match of value.matchAll(ADDRESS)) {
    const key = match[1].replace(/[.]+$/, "");
    if (isSafeStorageKey(key)) found.push(uploadFamily(key));
  }
  return found;
}

/**
 * Removes uploaded files that no row references (a crash between writing the
 * files and committing the row, an editor image never saved), older than the
 * grace period so that uploads in flight are safe. References are collected
 * completely before anything is removed: if reading them fails, nothing goes.
 * It sweeps the storage it is given, the public uploads: the private root
 * (paper files, decision 0024) is never handed to it, so private files are
 * left alone until paper uploads and revisions bring their own cleanup.
 */
export async function sweepUploads(
  deps: { db: Kysely<Database>; storage: FileStorage },
  options: SweepOptions = {},
): Promise<SweepResult> {
  const dryRun = options.dryRun ?? false;
  const minAgeMs = options.minAgeMs ?? SWEEP_MIN_AGE_MS;
  const now = (options.now ?? new Date()).getTime();
  const signal = options.signal;
  const referenced = new Set<string>();
  for await (const text of createUploadsRepository(deps.db).referenceTexts()) {
    signal?.throwIfAborted();
    for (const family of referencedFamilies(text)) referenced.add(family);
  }
  const result: SweepResult = { dryRun, scanned: 0, orphans: [], young: 0 };
  for await (const file of deps.storage.list()) {
    signal?.throwIfAborted();
    result.scanned++;
    if (referenced.has(uploadFamily(file.key))) continue;
    const grace = file.key.startsWith(EDITOR_FOLDER) ? Math.max(minAgeMs, EDITOR_UPLOAD_MIN_AGE_MS) : minAgeMs;
    if (now - file.modifiedAt.getTime() < grace) {
      result.young++;
      continue;
    }
    result.orphans.push(file.key);
  }
  result.orphans.sort();
  if (!dryRun) {
    for (const key of result.orphans) {
      signal?.throwIfAborted();
      await deps.storage.remove(key);
    }
  }
  return result;
}
