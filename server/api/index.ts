import { OpenAPIHono } from "@hono/zod-openapi";
import type { Hono } from "hono";
import { AppError } from "../../lib/errors";
import type { SpoolOptions } from "../../lib/spool";
import { createAnswerCache } from "../cache/answer-cache";
import type { AppEnv, Runtime } from "../env";
import type { DeclaredRoute } from "../middleware/method-override";
import { adminAuditRoutes } from "./admin-audit";
import { adminLibraryRoutes } from "./admin-library";
import { adminMediaRoutes } from "./admin-media";
import { adminMeetingsRoutes } from "./admin-meetings";
import { adminNewsRoutes } from "./admin-news";
import { adminSiteRoutes } from "./admin-site";
import { adminUsersRoutes } from "./admin-users";
import { authRoutes } from "./auth";
import { docsRoutes } from "./docs";
import { groupsRoutes } from "./groups";
import { type Access, methodNotAllowed } from "./http";
import { joinRoutes } from "./join";
import { libraryRoutes } from "./library";
import { meetingsRoutes } from "./meetings";
import { membersRoutes } from "./members";
import { newsRoutes } from "./news";
import { notificationsRoutes } from "./notifications";
import { privacyRoutes } from "./privacy";
import { siteRoutes } from "./site";

/** A parameter of a router path: `:id`, or `:url{.+}` with its own pattern. */
const PARAM = /:[A-Za-z_][A-Za-z0-9_]*(?:\{([^}]*)\})?/g;

function patternToRegExp(pattern: string): RegExp {
  let source = "";
  let last = 0;
  for (const match of pattern.matchAll(PARAM)) {
    source += literal(pattern.slice(last, match.index));
    source += match[1] !== undefined ? `(?:${match[1]})` : "[^/]+";
    last = match.index + match[0].length;
  }
  source += literal(pattern.slice(last));
  return new RegExp(`^${source}/?$`);
}

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replaceAll("\\*", ".*");
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
    const handler = route.handler as { access?: Access; spool?: SpoolOptions; cache?: "content" };
    const declared = handler.access;
    const known = byRoute.get(key);
    if (known && declared) known.access = declared;
    // A route without a declaration is refused to everyone but admins until it declares one.
    else if (!known)
      byRoute.set(key, { method: route.method, test: patternToRegExp(route.path), access: declared ?? "admin" });
    const entry = byRoute.get(key);
    if (entry && handler.spool) entry.spool = handler.spool;
    if (entry && handler.cache) entry.cache = handler.cache;
  }
  return [...byRoute.values()];
}

/**
 * The OpenAPI 3.1 document of the API, generated from the routes' declarations
 * (server/api/contract.ts), with the paths as clients call them (under /api).
 */
export function openApiDocument(api: OpenAPIHono<AppEnv>) {
  api.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "The access_token answered by POST /api/login.",
  });
  api.openAPIRegistry.registerComponent("securitySchemes", "cookieAuth", {
    type: "apiKey",
    in: "cookie",
    name: "auth.session",
    description:
      "The browser session (httpOnly), set by sign-in; named `__Host-auth.session` over https. Changes also need a same-origin request (CSRF check).",
  });
  const document = api.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Masthead API",
      version: "1",
      description:
        "The JSON API (SPEC §7). Bodies may be JSON, urlencoded or multipart unless a route says otherwise; " +
        "a POST may ask to be a PATCH, PUT or DELETE with `_method`. Every error answers `{ status, message, errors }`. " +
        "`x-access` says who may call each operation: public, member (signed in), editor (admins and editors: news, pages, meetings, the library) or admin.",
    },
  });
  const paths = Object.fromEntries(Object.entries(document.paths ?? {}).map(([path, item]) => [`/api${path}`, item]));
  return { ...document, paths };
}

/**
 * The JSON API (SPEC §7), mounted at /api. `extra` routers are mounted after the site's own
 * (tests declare routes the site does not have yet).
 */
/** How long a stored API answer is served, like a cached page (time moves lists on: upcoming meetings). */
const ANSWER_TTL_MS = 60_000;

export function createApi(runtime: Runtime, extra: readonly OpenAPIHono<AppEnv>[] = []) {
  const api = new OpenAPIHono<AppEnv>();
  const { config, services } = runtime;
  // A quarter of the page cache's budget (PAGE_CACHE_MB), which switches both off at 0.
  const answerCache =
    config.pageCacheBytes > 0
      ? createAnswerCache(services.contentVersion, {
          maxBytes: config.pageCacheBytes / 4,
          ttlMs: ANSWER_TTL_MS,
          now: services.contentSchedule.now,
          staleBefore: services.contentSchedule.staleBefore,
          scheduleReady: services.contentSchedule.ready,
        })
      : null;
  api.use("*", async (c, next) => {
    c.set("answerCache", answerCache);
    await next();
  });
  api.route("/", authRoutes(runtime));
  api.route("/", siteRoutes(runtime));
  api.route("/", newsRoutes(runtime));
  api.route("/", meetingsRoutes(runtime));
  api.route("/", libraryRoutes(runtime));
  api.route("/", adminSiteRoutes(runtime));
  api.route("/", adminAuditRoutes(runtime));
  api.route("/", adminNewsRoutes(runtime));
  api.route("/", adminMeetingsRoutes(runtime));
  api.route("/", adminLibraryRoutes(runtime));
  api.route("/", adminMediaRoutes(runtime));
  api.route("/", adminUsersRoutes(runtime));
  api.route("/", joinRoutes(runtime));
  api.route("/", membersRoutes(runtime));
  api.route("/", notificationsRoutes(runtime));
  api.route("/", privacyRoutes(runtime));
  api.route("/", groupsRoutes(runtime));
  for (const routes of extra) api.route("/", routes);
  api.route(
    "/",
    docsRoutes(() => openApiDocument(api)),
  );

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
