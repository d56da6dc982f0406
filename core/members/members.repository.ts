import { type Kysely, sql } from "kysely";
import { containsText } from "../../db/queries";
import type { Database } from "../../db/types";

/** The membership list is small (tens of companies); it is still bounded. */
const MAX_MEMBERS = 1000;

export function createMembersRepository(db: Kysely<Database>) {
  return {
    async list(filter: { search?: string; country?: string }) {
      let query = db
        .selectFrom("member_companies")
        .select(["id", "name", "country", "website", "logo", "joined_year"])
        .orderBy("name")
        .orderBy("id")
        .limit(MAX_MEMBERS);
      if (filter.country) query = query.where("country", "=", filter.country);
      if (filter.search) {
        query = query.where(containsText(sql.ref("name"), filter.search));
      }
      return query.execute();
    },
    async countries(): Promise<string[]> {
      const rows = await db.selectFrom("member_companies").select("country").distinct().orderBy("country").execute();
      return rows.map((r) => r.country);
    },
    async count(): Promise<number> {
      const row = await db
        .selectFrom("member_companies")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}
export type MembersRepository = ReturnType<typeof createMembersRepository>;
