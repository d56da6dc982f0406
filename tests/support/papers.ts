import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Database } from "../../db/types";

/**
 * Library rows written straight to the database: there is no service that
 * creates categories or papers yet (issue 14 'Admin' brings it).
 */
export async function createPaperCategory(db: Kysely<Database>, slug: string, name = slug) {
  const now = new Date().toISOString();
  const row = await db
    .insertInto("paper_categories")
    .values({ slug, name, is_active: 1, is_root: 0, position: 0, created_at: now, updated_at: now })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function createPaper(
  db: Kysely<Database>,
  categoryId: number,
  fields: { name: string; number?: string | null; uploaded_file: string | null },
) {
  const now = new Date().toISOString();
  const row = await db
    .insertInto("papers")
    .values({ papers_category_id: categoryId, number: null, created_at: now, updated_at: now, ...fields })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A file in the private root under `key`, as the seed or an upload leaves it. */
export function putPrivateFile(privateDir: string, key: string, data: Uint8Array) {
  const file = path.join(privateDir, key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data);
}
