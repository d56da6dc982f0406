import type { Kysely } from "kysely";
import type { Database } from "../db/types";
import type { Clock } from "../lib/clock";
import { systemClock } from "../lib/clock";
import { createAccountsService } from "./accounts/accounts.service";
import { createUsersRepository } from "./accounts/users.repository";
import { createAuthRepository } from "./auth/auth.repository";
import { createAuthService } from "./auth/auth.service";
import { createRateLimitRepository } from "./rate-limit/rate-limit.repository";
import { createRateLimitService } from "./rate-limit/rate-limit.service";
import { createSettingsRepository } from "./settings/settings.repository";
import { createSettingsService } from "./settings/settings.service";

/** Wires repositories into services once per process (or per test). */
export function createServices(deps: { db: Kysely<Database>; sessionTtlSeconds: number; clock?: Clock }) {
  const clock = deps.clock ?? systemClock;
  const users = createUsersRepository(deps.db);
  const rateLimit = createRateLimitService({ repository: createRateLimitRepository(deps.db), clock });
  return {
    accounts: createAccountsService({ users, clock }),
    auth: createAuthService({
      repository: createAuthRepository(deps.db),
      rateLimit,
      clock,
      sessionTtlSeconds: deps.sessionTtlSeconds,
    }),
    rateLimit,
    settings: createSettingsService({ repository: createSettingsRepository(deps.db), clock }),
  };
}
export type Services = ReturnType<typeof createServices>;
