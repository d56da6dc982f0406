import type { Kysely } from "kysely";
import type { Database } from "../../db/types";

export function createRateLimitRepository(db: Kysely<Database>) {
  return {
    async get(key: string) {
      return db.selectFrom("rate_limits").selectAll().where("key", "=", key).executeTakeFirst();
    },
    /**
     * One atomic statement on both dialects: start a new window when the old
     * one has ended, otherwise count one more hit in it.
     */
    async hit(key: string, now: string, resetAt: string) {
      return db
        .insertInto("rate_limits")
        .values({ key, count: 1, reset_at: resetAt })
        .onConflict((oc) =>
          oc.column("key").doUpdateSet((eb) => ({
            count: eb
              .case()
              .when("rate_limits.reset_at", "<=", now)
              .then(1)
              .else(eb("rate_limits.count", "+", 1))
              .end(),
            reset_at: eb
              .case()
              .when("rate_limits.reset_at", "<=", now)
              .then(resetAt)
              .else(eb.ref("rate_limits.reset_at"))
              .end(),
          })),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    async remove(key: string) {
      await db.deleteFrom("rate_limits").where("key", "=", key).execute();
    },
    async removeExpired(now: string) {
      await db.deleteFrom("rate_limits").where("reset_at", "<=", now).execute();
    },
  };
}
export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>;
