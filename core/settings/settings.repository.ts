import type { Kysely } from "kysely";
import type { Database } from "../../db/types";

export function createSettingsRepository(db: Kysely<Database>) {
  return {
    async getMany(keys: readonly string[]) {
      if (keys.length === 0) return [];
      return db.selectFrom("settings").select(["key", "value"]).where("key", "in", keys).execute();
    },
    async upsert(key: string, value: string, now: string) {
      await db
        .insertInto("settings")
        .values({ key, value, updated_at: now })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now }))
        .execute();
    },
  };
}
export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
