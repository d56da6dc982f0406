import type { Kysely } from "kysely";
import type { Database } from "../../db/types";

/** A table's text columns that may name uploaded files, read in pages ordered by `by`. */
type ReferenceSource = {
  [T in keyof Database]: { table: T; by: keyof Database[T] & string; columns: (keyof Database[T] & string)[] };
}[keyof Database];

/**
 * Every column that may hold an upload: its key (news/3fa9-1600.webp), its
 * address (/uploads/…) or HTML that embeds addresses (<img src>, srcset).
 * The one list the upload sweep keeps files for: a new column that stores
 * uploads is added here. papers.uploaded_file names a key in the private
 * root since decision 0024; it stays listed so that a paper file still under
 * the uploads (before the start-up move) is never taken for an orphan.
 */
export const UPLOAD_REFERENCES: ReferenceSource[] = [
  { table: "news_posts", by: "id", columns: ["image", "content"] },
  { table: "pages", by: "id", columns: ["content"] },
  { table: "meetings", by: "id", columns: ["content", "information", "health", "registration"] },
  { table: "meeting_images", by: "id", columns: ["path"] },
  { table: "sponsors", by: "id", columns: ["image"] },
  { table: "member_companies", by: "id", columns: ["logo"] },
  { table: "paper_categories", by: "id", columns: ["image", "title_description", "description", "content"] },
  { table: "papers", by: "id", columns: ["uploaded_file", "description"] },
  { table: "users", by: "id", columns: ["avatar"] },
  { table: "settings", by: "key", columns: ["value"] },
];

const PAGE_SIZE = 500;

export function createUploadsRepository(db: Kysely<Database>) {
  // biome-ignore lint/suspicious/noExplicitAny: the sources name their tables and columns; the query is the same for each
  const anyDb = db as Kysely<any>;
  return {
    /** Every non-empty value of the sources' columns, a page of rows at a time (keyset on `by`). */
    async *referenceTexts(sources: readonly ReferenceSource[] = UPLOAD_REFERENCES): AsyncGenerator<string> {
      for (const source of sources) {
        let after: string | number | null = null;
        for (;;) {
          let query = anyDb
            .selectFrom(source.table)
            .select([source.by, ...source.columns])
            .orderBy(source.by)
            .limit(PAGE_SIZE);
          if (after !== null) query = query.where(source.by, ">", after);
          const rows: Record<string, unknown>[] = await query.execute();
          for (const row of rows) {
            for (const column of source.columns) {
              const value = row[column];
              if (typeof value === "string" && value !== "") yield value;
            }
          }
          if (rows.length < PAGE_SIZE) break;
          after = rows[rows.length - 1][source.by] as string | number;
        }
      }
    },
  };
}
export type UploadsRepository = ReturnType<typeof createUploadsRepository>;
