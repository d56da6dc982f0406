import { addSeconds, type Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import type { RateLimitRepository } from "./rate-limit.repository";

export type Limit = { key: string; max: number; windowSeconds: number };
export type Taken = { release: () => Promise<void> };

/**
 * Fixed-window counters kept in the database, so that limits hold across
 * restarts and across several app processes.
 */
export function createRateLimitService(deps: { repository: RateLimitRepository; clock: Clock }) {
  const { repository, clock } = deps;

  const secondsUntil = (resetAt: string) =>
    Math.max(1, Math.ceil((new Date(resetAt).getTime() - clock().getTime()) / 1000));

  /**
   * Takes one attempt from the limit before the work it guards (a password
   * check), or throws 429 when the limit is used up. The count and the check
   * are one atomic statement, so concurrent requests, in any number of
   * processes, cannot all pass a check made before any of them was counted.
   * `release` gives the attempt back when it should not count after all (a
   * sign-in that succeeded, or one refused by another limit).
   */
  async function take(limit: Limit, message: string): Promise<Taken> {
    const now = clock();
    const row = await repository.hit(limit.key, now.toISOString(), addSeconds(now, limit.windowSeconds).toISOString());
    if (row.count > limit.max) {
      throw new AppError("rate_limited", message, { retryAfter: secondsUntil(row.reset_at) });
    }
    return { release: () => repository.unhit(limit.key, row.reset_at) };
  }

  return {
    take: (limit: Limit, message = "Too many attempts. Please try again later.") => take(limit, message),

    /** Counts a hit and throws 429 once the limit is passed. */
    async consume(limit: Limit, message = "Too many requests. Please try again later."): Promise<void> {
      await take(limit, message);
    },

    async reset(key: string): Promise<void> {
      await repository.remove(key);
    },
  };
}
export type RateLimitService = ReturnType<typeof createRateLimitService>;
