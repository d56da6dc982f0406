import { Hono } from "hono";
import { AppError } from "../../lib/errors";
import type { AppEnv, Runtime } from "../env";
import { adminMediaRoutes } from "./admin-media";
import { adminNewsRoutes } from "./admin-news";
import { adminSiteRoutes } from "./admin-site";
import { adminUsersRoutes } from "./admin-users";
import { authRoutes } from "./auth";
import { joinRoutes } from "./join";
import { meetingsRoutes } from "./meetings";
import { newsRoutes } from "./news";
import { siteRoutes } from "./site";

const PARAM = /:[A-Za-z_][A-Za-z0-9_]*/g;

function patternToRegExp(pattern: string): RegExp {
  const escaped = pattern
    .split(PARAM)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^/]+");
  return new RegExp(`^${escaped}/?$`);
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
  const table = api.routes
    .filter((r) => r.method !== "ALL")
    .map((r) => ({ method: r.method, test: patternToRegExp(r.path) }));
  // A sub-app's notFound is not consulted once mounted, so the fallback is a last route.
  api.all("*", (c) => {
    const path = c.req.path.replace(/^\/api/, "") || "/";
    const allow = [...new Set(table.filter((r) => r.test.test(path)).map((r) => r.method))];
    if (allow.length > 0) {
      throw new AppError("method_not_allowed", `The ${c.req.method} method is not supported for this route.`, {
        allow: allow.includes("GET") ? [...allow, "HEAD"] : allow,
      });
    }
    throw new AppError("not_found", "The requested API route does not exist.");
  });
  return api;
}
