import type SQLite from "better-sqlite3";
import type { Kysely } from "kysely";
import type { Database } from "../../db/types";

const SITE = "site";

/**
 * `sqlite`, the raw handle under the Kysely instance, gives the page cache a
 * synchronous read of the stamp: one prepared statement, a few microseconds,
 * exact across every process that shares the file.
 */
export function createContentVersionRepository(db: Kysely<Database>, sqlite?: SQLite.Database) {
  const peek = sqlite?.prepare("select version from content_versions where name = ?").pluck();
  return {
    async current(): Promise<number> {
      const row = await db.selectFrom("content_versions").select("version").where("name", "=", SITE).executeTakeFirst();
      return Number(row?.version ?? 0);
    },
    /** The stamp read synchronously, where the driver allows it (SQLite); null elsewhere. */
    currentSync: peek ? (): number => Number(peek.get(SITE) ?? 0) : null,
    async bump(): Promise<number> {
      const row = await db
        .updateTable("content_versions")
        .set((eb) => ({ version: eb("version", "+", 1) }))
        .where("name", "=", SITE)
        .returning("version")
        .executeTakeFirst();
      return Number(row?.version ?? 0);
    },
  };
}
export type ContentVersionRepository = ReturnType<typeof createContentVersionRepository>;
