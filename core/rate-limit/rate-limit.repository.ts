import type { Kysely } from "kysely";
import { notWaitedFor } from "../../db/group-commit";
import type { Database } from "../../db/types";

export function createRateLimitRepository(db: Kysely<Database>) {
  return {
    /**
     * One atomic statement on both dialects: start a new window when the old
     * one has ended, otherwise count one more hit in it.
     */
    async hit(key: string, now: string, resetAt: string) {
      return (
        db
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
          // A counter nobody is promised: losing the last hits on a power cut harms nobody (decision 0061).
          .modifyEnd(notWaitedFor)
          .executeTakeFirstOrThrow()
      );
    },
    /** Gives back one hit, unless its window has ended since (a new window counts from scratch). */
    async unhit(key: string, resetAt: string) {
      await db
        .updateTable("rate_limits")
        .set((eb) => ({ count: eb("count", "-", 1) }))
        .where("key", "=", key)
        .where("reset_at", "=", resetAt)
        .where("count", ">", 0)
        .execute();
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
