import type { Kysely } from "kysely";
import type { Database } from "../../db/types";

export function createPagesRepository(db: Kysely<Database>) {
  return {
    async findByUrl(url: string) {
      return db.selectFrom("pages").selectAll().where("url", "=", url).executeTakeFirst();
    },
    async list() {
      return db.selectFrom("pages").select(["id", "url", "title", "updated_at"]).orderBy("url").limit(500).execute();
    },
    async update(url: string, values: { title: string; content: string; updated_at: string }) {
      return db.updateTable("pages").set(values).where("url", "=", url).returningAll().executeTakeFirst();
    },
  };
}
export type PagesRepository = ReturnType<typeof createPagesRepository>;
