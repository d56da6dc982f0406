import type { Kysely } from "kysely";
import type { Database } from "../../db/types";

export function createSecretsRepository(db: Kysely<Database>) {
  return {
    async find(name: string): Promise<string | null> {
      const row = await db.selectFrom("app_secrets").select("value").where("name", "=", name).executeTakeFirst();
      return row?.value ?? null;
    },
    /** Stores `value` under `name` unless a value is already there (another process made it first). */
    async insertIfAbsent(name: string, value: string, createdAt: string): Promise<void> {
      await db
        .insertInto("app_secrets")
        .values({ name, value, created_at: createdAt })
        .onConflict((oc) => oc.column("name").doNothing())
        .execute();
    },
  };
}
export type SecretsRepository = ReturnType<typeof createSecretsRepository>;
