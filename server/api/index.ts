import { Hono } from "hono";
import { AppError } from "../../lib/errors";
import type { AppEnv, Runtime } from "../env";
import type { DeclaredRoute } from "../middleware/method-override";
import { adminMediaRoutes } from "./admin-media";
import { adminNewsRoutes } from "./admin-news";
import { adminSiteRoutes } from "./admin-site";
import { adminUsersRoutes } from "./admin-users";
import { authRoutes } from "./auth";
import { type Access, methodNotAllowed } from "./http";
import { joinRoutes } from "./join";
import { meetingsRoutes } from "./meetings";
import { newsRoutes } from "./news";
import { siteRoutes } from "./site";

const PARAM = /:[A-Za-z_][A-Za-z0-9_]*/g;

function patternToRegExp(pattern: string): RegExp {
  const escaped = pattern
    .split(PARAM)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replaceAll("\\*", ".*"))
    .join("[^/]+");
  return new RegExp(`^${escaped}/?$`);
}

/**
 * Every route of the API with the access its first handler declares (access.*),
 * read back from the router: what the method override decides with before it
 * reads a body, and what the 405 answer lists.
 */
export function declaredRoutes(api: Hono<AppEnv>): DeclaredRoute[] {
  const byRoute = new Map<string, DeclaredRoute>();
  for (const route of api.routes) {
    if (route.method === "ALL") continue;
    const key = `${route.method} ${route.path}`;
    const declared = (route.handler as { access?: Access }).access;
    const known = byRoute.get(key);
    if (known && declared) known.access = declared;
    // A route without a declaration is refused to everyone but admins until it declares one.
    else if (!known)
      byRoute.set(key, { method: route.method, test: patternToRegExp(route.path), access: declared ?? "admin" });
  }
  return [...byRoute.values()];
}

/** The JSON API (SPEC §7), mounted at /api. */
export function createApi(runtime: Runtime) {
  const api = new Hono<AppEnv>();
  api.route("/", authRoutes(runtime));
  api.route("/", siteRoutes(runtime));
  api.route("/", newsRoutes(runtime));
  api.route("/", meetingsRoutes(runtime));
  api.route("/", adminSiteRoutes(runtime));
  api.route("/", adminNewsRoutes(runtime));
  api.route("/", adminMediaRoutes(runtime));
  api.route("/", adminUsersRoutes(runtime));
  api.route("/", joinRoutes(runtime));

  // Unknown path → 404; known path, other method → 405 with Allow.
  const table = declaredRoutes(api);
  // A sub-app's notFound is not consulted once mounted, so the fallback is a last route.
  api.all("*", (c) => {
    const path = c.req.path.replace(/^\/api/, "") || "/";
    const allow = [...new Set(table.filter((r) => r.test.test(path)).map((r) => r.method))];
    if (allow.length > 0) throw methodNotAllowed(c.req.method, allow);
    throw new AppError("not_found", "The requested API route does not exist.");
  });
  return api;
}
