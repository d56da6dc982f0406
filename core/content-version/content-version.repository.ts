import type { Kysely } from "kysely";
import type { Database } from "../../db/types";

const SITE = "site";

export function createContentVersionRepository(db: Kysely<Database>) {
  return {
    async current(): Promise<number> {
      const row = await db.selectFrom("content_versions").select("version").where("name", "=", SITE).executeTakeFirst();
      return Number(row?.version ?? 0);
    },
    async bump(): Promise<void> {
      await db
        .updateTable("content_versions")
        .set((eb) => ({ version: eb("version", "+", 1) }))
        .where("name", "=", SITE)
        .execute();
    },
  };
}
export type ContentVersionRepository = ReturnType<typeof createContentVersionRepository>;
