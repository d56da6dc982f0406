import fs from "node:fs/promises";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import { isSafeStorageKey } from "../../lib/storage";
import { createLibraryRepository } from "./library.repository";

const PAGE_SIZE = 500;

export type MoveResult = { moved: string[]; removedPublicCopies: string[] };

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

/** rename, or copy and remove when the two roots sit on different file systems. */
async function moveFile(from: string, to: string): Promise<void> {
  await fs.mkdir(path.dirname(to), { recursive: true });
  try {
    await fs.rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    const partial = `${to}.moving`;
    await fs.copyFile(from, partial);
    await fs.rename(partial, to);
    await fs.rm(from, { force: true });
  }
}

/**
 * Moves every file a paper references from the public uploads into the
 * private root under the same key (decision 0024), so that its old
 * /uploads/papers/… address answers 404. Run at every start: a file already
 * moved is skipped, so a second run (or a crash halfway) is harmless. A public
 * copy of a file that is already private is removed: it must not stay served.
 * Not a migration, because migrations import nothing from the app and the
 * database may live on another machine than the files.
 */
export async function movePublicPaperFiles(
  db: Kysely<Database>,
  uploadsDir: string,
  privateDir: string,
): Promise<MoveResult> {
  const repository = createLibraryRepository(db);
  const result: MoveResult = { moved: [], removedPublicCopies: [] };
  let after = 0;
  for (;;) {
    const rows = await repository.paperFilesAfter(after, PAGE_SIZE);
    for (const row of rows) {
      const key = row.uploaded_file;
      if (!key || !isSafeStorageKey(key)) continue;
      const publicFile = path.join(uploadsDir, key);
      if (!(await exists(publicFile))) continue;
      const privateFile = path.join(privateDir, key);
      if (await exists(privateFile)) {
        await fs.rm(publicFile, { force: true });
        result.removedPublicCopies.push(key);
      } else {
        await moveFile(publicFile, privateFile);
        result.moved.push(key);
      }
    }
    if (rows.length < PAGE_SIZE) break;
    after = rows[rows.length - 1].id;
  }
  return result;
}
