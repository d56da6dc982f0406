import { addSeconds, type Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import type { RateLimitRepository } from "./rate-limit.repository";

export type Limit = { key: string; max: number; windowSeconds: number };

/**
 * Fixed-window counters kept in the database, so that limits hold across
 * restarts and across several app processes.
 */
export function createRateLimitService(deps: { repository: RateLimitRepository; clock: Clock }) {
  const { repository, clock } = deps;

  const secondsUntil = (resetAt: string) =>
    Math.max(1, Math.ceil((new Date(resetAt).getTime() - clock().getTime()) / 1000));

  return {
    /** Throws 429 when any of the limits is already used up; counts nothing. */
    async assertNotLimited(limits: Limit[], message = "Too many attempts. Please try again later."): Promise<void> {
      const now = clock().toISOString();
      for (const limit of limits) {
        const row = await repository.get(limit.key);
        if (row && row.reset_at > now && row.count >= limit.max) {
          throw new AppError("rate_limited", message, { retryAfter: secondsUntil(row.reset_at) });
        }
      }
    },

    /** Counts one hit against each limit. */
    async record(limits: Limit[]): Promise<void> {
      const now = clock();
      for (const limit of limits) {
        await repository.hit(limit.key, now.toISOString(), addSeconds(now, limit.windowSeconds).toISOString());
      }
    },

    /** Counts a hit and throws 429 once the limit is passed. */
    async consume(limit: Limit, message = "Too many requests. Please try again later."): Promise<void> {
      const now = clock();
      const row = await repository.hit(
        limit.key,
        now.toISOString(),
        addSeconds(now, limit.windowSeconds).toISOString(),
      );
      if (row.count > limit.max) {
        throw new AppError("rate_limited", message, { retryAfter: secondsUntil(row.reset_at) });
      }
    },

    async reset(key: string): Promise<void> {
      await repository.remove(key);
    },
  };
}
export type RateLimitService = ReturnType<typeof createRateLimitService>;
