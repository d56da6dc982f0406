import type { Executor } from "../../db/types";

/** Runs on the executor it is given: the database, or the transaction of a write. */
export function createPagesRepository(db: Executor) {
  return {
    async findByUrl(url: string) {
      return db.selectFrom("pages").selectAll().where("url", "=", url).executeTakeFirst();
    },
    async list() {
      return db.selectFrom("pages").select(["id", "url", "title", "updated_at"]).orderBy("url").limit(500).execute();
    },
    /** Inserts the pages whose URL is not taken yet; returns how many were new. */
    async insertMissing(
      pages: { url: string; title: string; content: string; created_at: string; updated_at: string }[],
    ) {
      if (pages.length === 0) return 0;
      const inserted = await db
        .insertInto("pages")
        .values(pages)
        .onConflict((oc) => oc.column("url").doNothing())
        .returning("id")
        .execute();
      return inserted.length;
    },
    async update(url: string, values: { title: string; content: string; updated_at: string }) {
      return db.updateTable("pages").set(values).where("url", "=", url).returningAll().executeTakeFirst();
    },
  };
}
export type PagesRepository = ReturnType<typeof createPagesRepository>;
