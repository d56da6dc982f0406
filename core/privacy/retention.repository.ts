import type { Executor } from "../../db/types";

/**
 * The retention job's queries (decision 0078): what is past its keeping, found and removed in
 * bounded batches so that no statement holds SQLite's one writer for long. Each delete answers how
 * many rows it removed; the service repeats it until a batch comes back short.
 */
export function createRetentionRepository(db: Executor) {
  const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);

  return {
    /**
     * Join requests, registrations and messages whose person is past the retention, not erased yet,
     * by id after `afterId`: a registration whose meeting's last day (end_date, else start_date, a
     * date in the meeting's calendar) is before `beforeDay`; any other request (and a registration
     * whose meeting was deleted) that arrived before `before` and was handled before it or never.
     * A request handled after it arrived, so `created_at < before` bounds both, on its index.
     */
    async requestsPastRetention(options: {
      before: string;
      beforeDay: string;
      afterId: number;
      limit: number;
    }): Promise<number[]> {
      const rows = await db
        .selectFrom("join_requests as r")
        .leftJoin("meetings as m", "m.id", "r.meeting_id")
        .select("r.id")
        .where("r.anonymised_at", "is", null)
        .where("r.id", ">", options.afterId)
        .where((eb) =>
          eb.or([
            eb.and([
              eb("r.kind", "=", "registration"),
              eb("m.id", "is not", null),
              eb(eb.fn.coalesce("m.end_date", "m.start_date"), "<", options.beforeDay),
            ]),
            eb.and([
              eb.or([eb("r.kind", "!=", "registration"), eb("m.id", "is", null)]),
              eb("r.created_at", "<", options.before),
              eb.or([eb("r.handled_at", "is", null), eb("r.handled_at", "<", options.before)]),
            ]),
          ]),
        )
        .orderBy("r.id")
        .limit(options.limit)
        .execute();
      return rows.map((row) => row.id);
    },

    /** Sent mail sent before `before`, and mail given up on (failed) that was queued before it. */
    async deleteOldMail(before: string, limit: number): Promise<number> {
      const sent = await db
        .deleteFrom("mail_queue")
        .where(
          "id",
          "in",
          db
            .selectFrom("mail_queue")
            .select("id")
            .where("status", "=", "sent")
            .where("sent_at", "<", before)
            .limit(limit),
        )
        .executeTakeFirst();
      if (count(sent) === limit) return limit;
      const failed = await db
        .deleteFrom("mail_queue")
        .where(
          "id",
          "in",
          db
            .selectFrom("mail_queue")
            .select("id")
            .where("status", "=", "failed")
            .where("created_at", "<", before)
            .limit(limit - count(sent)),
        )
        .executeTakeFirst();
      return count(sent) + count(failed);
    },

    async deleteExpiredSessions(now: string, limit: number): Promise<number> {
      const subquery = db.selectFrom("sessions").select("id").where("expires_at", "<", now).limit(limit);
      return count(await db.deleteFrom("sessions").where("id", "in", subquery).executeTakeFirst());
    },

    /** Password-reset and invitation tokens: expired, or used before `usedBefore` (a used one opens nothing). */
    async deleteSpentTokens(now: string, usedBefore: string, limit: number): Promise<number> {
      const subquery = db
        .selectFrom("one_time_tokens")
        .select("id")
        .where((eb) => eb.or([eb("expires_at", "<", now), eb("used_at", "<", usedBefore)]))
        .limit(limit);
      return count(await db.deleteFrom("one_time_tokens").where("id", "in", subquery).executeTakeFirst());
    },

    /** Second steps of sign-ins: expired, or used before `usedBefore`. */
    async deleteSpentTwoFactorChallenges(now: string, usedBefore: string, limit: number): Promise<number> {
      const subquery = db
        .selectFrom("two_factor_challenges")
        .select("id")
        .where((eb) => eb.or([eb("expires_at", "<", now), eb("used_at", "<", usedBefore)]))
        .limit(limit);
      return count(await db.deleteFrom("two_factor_challenges").where("id", "in", subquery).executeTakeFirst());
    },

    async deleteExpiredRegistrationLinks(now: string, limit: number): Promise<number> {
      const subquery = db.selectFrom("registration_links").select("id").where("expires_at", "<", now).limit(limit);
      return count(await db.deleteFrom("registration_links").where("id", "in", subquery).executeTakeFirst());
    },

    async deletePastRateLimits(now: string, limit: number): Promise<number> {
      const subquery = db.selectFrom("rate_limits").select("key").where("reset_at", "<", now).limit(limit);
      return count(await db.deleteFrom("rate_limits").where("key", "in", subquery).executeTakeFirst());
    },

    /** Marks of addresses that refused mail, set before `before`: the address is personal data too. */
    async deleteOldBounces(before: string, limit: number): Promise<number> {
      const subquery = db.selectFrom("mail_bounces").select("address").where("created_at", "<", before).limit(limit);
      return count(await db.deleteFrom("mail_bounces").where("address", "in", subquery).executeTakeFirst());
    },
  };
}
export type RetentionRepository = ReturnType<typeof createRetentionRepository>;
