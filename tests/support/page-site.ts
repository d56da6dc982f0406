import { Hono } from "hono";
import type { Services } from "../../core/services";
import type { Config } from "../../lib/env";
import { createLogger } from "../../lib/logger";
import type { AppEnv } from "../../server/env";
import { cacheControl } from "../../server/middleware/cache-control";
import { createPageCache } from "../../server/middleware/page-cache";
import { securityHeaders } from "../../server/middleware/security";
import { session } from "../../server/middleware/session";

/**
 * The middleware a page request passes through, in server/app.ts's order (page cache, security
 * headers, session, cache policy), with no routes yet: a test adds pages that answer as the
 * site's routes do. `shared`: the paths signed-in users get one render per role of (decision 0032).
 */
export function pageSite(services: Services, config: Config, shared?: (pathname: string) => boolean): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const cache = createPageCache(
    services.contentVersion,
    { maxBytes: 1024 * 1024, ttlMs: 60_000, trustProxy: false },
    createLogger("silent"),
  );
  app.use("*", cache.middleware);
  app.use("*", securityHeaders(config));
  app.use("*", session(services, config));
  app.use("*", cacheControl(config));
  if (shared) app.use("*", cache.signedIn(shared));
  return app;
}
