import path from "node:path";
import { type ServeStaticOptions, serveStatic } from "@hono/node-server/serve-static";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Hono, type MiddlewareHandler } from "hono";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { actingAs } from "../core/audit/actor";
import type { AuditService } from "../core/audit/audit.service";
import type { RequestContext } from "../core/request-context";
import { ping, probeWrite } from "../db/connect";
import { isStorageFull, STORAGE_FULL_MESSAGE } from "../lib/errors";
import { readIslandsManifest } from "../lib/islands-manifest";
import { UPLOADS_PATH } from "../lib/uploads";
import { createApi, declaredRoutes } from "./api";
import { calendarRoutes } from "./calendars";
import type { AppEnv, Runtime } from "./env";
import { errorBody, handleError } from "./errors";
import { limitBodies, spoolingRouteLimits } from "./middleware/body-limit";
import { cacheControl } from "./middleware/cache-control";
import { clientIp, publicAddress } from "./middleware/client";
import { compress } from "./middleware/compress";
import { csrf, isUnsubscribePath } from "./middleware/csrf";
import { type DeclaredRoute, type Dispatch, methodOverride } from "./middleware/method-override";
import { contentChanges, createPageCache, memo, type PageCache } from "./middleware/page-cache";
import { renderSlots } from "./middleware/render-slots";
import { requestLog } from "./middleware/request-log";
import { securityHeaders } from "./middleware/security";
import { securityLog } from "./middleware/security-log";
import { session } from "./middleware/session";
import { paperRoutes } from "./papers";
import { sharedPagePaths } from "./shared-pages";
import { IMMUTABLE, serveUploads } from "./stored-files";

/** The React Router server build publishes the context key its loaders read. */
type MastheadBuild = ServerBuild & {
  entry: { module: ServerBuild["entry"]["module"] & { requestContext?: unknown } };
};

export type AppOptions = {
  /** The React Router server build; absent in API-only tests. */
  build?: () => Promise<ServerBuild>;
  /** Directory of the built client assets (build/client). */
  clientDir?: string;
  /** Routers mounted in the API after the site's own (tests declare routes the site does not have yet). */
  extraApi?: readonly OpenAPIHono<AppEnv>[];
};

/** Cached anonymous pages are re-rendered at least this often, for what depends on the date. */
const PAGE_TTL_MS = 60_000;
/** Page renders in progress at once (loaders may wait on the database, so more than one per core). */
const RENDER_SLOTS = 4;

/**
 * serveStatic plus headers on what it finds (its onFound hook runs after the
 * response is built, too late to add headers). A miss falls through to next().
 */
function staticFiles(options: ServeStaticOptions<AppEnv>, headers: Record<string, string>): MiddlewareHandler<AppEnv> {
  const serve = serveStatic<AppEnv>(options);
  return async (c, next) => {
    const response = await serve(c, next);
    if (response instanceof Response && response.ok) {
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    }
    return response;
  };
}

/** The same request at the address the visitor used (see publicAddress); the body is passed on unread. */
function asPublicRequest(request: Request, url: string): Request {
  // A form posted from a page whose referrer policy is no-referrer (the password links) says
  // `Origin: null`. Our CSRF check has judged it already (by Sec-Fetch-Site); React Router's own
  // would refuse it (400) for not matching the address, so it does not see that header.
  // A one-click unsubscribe comes from the mail provider's servers, with their Origin if any: our
  // CSRF check lets it through on purpose (csrf.ts), and React Router's must not refuse it either.
  const opaqueOrigin =
    request.headers.get("origin") === "null" ||
    (request.method === "POST" && request.headers.has("origin") && isUnsubscribePath(new URL(url).pathname));
  if (request.url === url && !opaqueOrigin) return request;
  const headers = opaqueOrigin ? new Headers(request.headers) : request.headers;
  if (opaqueOrigin) headers.delete("origin");
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(url, {
    method: request.method,
    headers,
    body: hasBody ? request.body : null,
    signal: request.signal,
    // @ts-expect-error Node's fetch needs duplex for a streamed body; the DOM typings do not know it
    duplex: hasBody ? "half" : undefined,
  });
}

/**
 * Where the method override sends a POST it turned into PATCH/PUT/DELETE: the
 * API alone, with the caller's context (session, request id, IP) as resolved
 * for the POST, so that the request is logged and counted once. Its security
 * events are logged here, where the route and its parameters are known.
 */
function overriddenDispatch(api: Hono<AppEnv>, logger: Runtime["logger"], audit: AuditService): Dispatch {
  const carried = new WeakMap<Request, AppEnv["Variables"]>();
  const inner = new Hono<AppEnv>();
  inner.use("*", async (c, next) => {
    const variables = carried.get(c.req.raw);
    for (const [name, value] of Object.entries(variables ?? {})) {
      c.set(name as keyof AppEnv["Variables"], value as never);
    }
    await next();
    // What the route tells the outer chain (server/middleware/page-cache.ts contentChanges).
    if (variables) variables.publishes = c.get("publishes");
  });
  inner.use("*", securityLog(logger, audit));
  inner.route("/api", api);
  inner.onError(handleError(logger));
  return (request, variables) => {
    carried.set(request, variables);
    return Promise.resolve(inner.fetch(request));
  };
}

/** Whether the API route at a method and `/api/…` path declares `cache: "content"`, decided once per pair. */
function contentRoutes(routes: DeclaredRoute[]): (method: string, pathname: string) => boolean {
  const content = routes.filter((route) => route.cache === "content");
  const decide = memo((pair: string) => {
    const space = pair.indexOf(" ");
    const method = pair.slice(0, space);
    const path = pair.slice(space + 1).replace(/^\/api/, "");
    return content.some((route) => route.method === method && route.test.test(path));
  });
  return (method, pathname) => decide(`${method} ${pathname}`);
}

export function createApp(runtime: Runtime, options: AppOptions = {}) {
  return createSite(runtime, options).app;
}

/**
 * The app, and the page cache's front door for the node:http server
 * (server/index.ts), which answers cached pages before the app is reached.
 */
export function createSite(
  runtime: Runtime,
  options: AppOptions = {},
): { app: Hono<AppEnv>; pageCache: PageCache | null } {
  const { config, services, logger } = runtime;
  const app = new Hono<AppEnv>();
  const api = createApi(runtime, options.extraApi);
  const apiRoutes = declaredRoutes(api);
  const pageCache =
    options.build && config.pageCacheBytes > 0
      ? createPageCache(
          services.contentVersion,
          {
            maxBytes: config.pageCacheBytes,
            ttlMs: PAGE_TTL_MS,
            trustProxy: config.trustProxy,
            allowedOrigins: [config.baseUrl.origin],
            authenticate: (token) => services.auth.authenticate(token),
            contentRoute: contentRoutes(apiRoutes),
            now: services.contentSchedule.now,
            staleBefore: services.contentSchedule.staleBefore,
            scheduleReady: services.contentSchedule.ready,
          },
          logger,
        )
      : null;

  // Outermost: a cached page is answered before any other work, with the headers the chain gave it when rendered.
  if (pageCache) app.use("*", pageCache.middleware);

  app.use("*", async (c, next) => {
    c.set("clientIp", clientIp(c, config.trustProxy));
    await next();
  });
  app.use("*", requestLog(logger));
  app.use("*", securityHeaders(config));
  app.use("*", compress());

  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    try {
      await ping(runtime.database.db);
    } catch (error) {
      logger.warn({ err: error }, "readiness check failed");
      return c.json(errorBody("The database does not answer."), 503);
    }
    try {
      // Reads may still work on a full disk; ready means the site can also save.
      await probeWrite(runtime.database.db);
    } catch (error) {
      logger.error({ err: error }, "readiness check failed: the database cannot write");
      const message = isStorageFull(error) ? STORAGE_FULL_MESSAGE : "The database cannot write.";
      return c.json(errorBody(message), 503);
    }
    return c.json({ status: "ok", database: runtime.database.dialect });
  });

  // Uploaded files, from the configured storage (local disk or S3), or redirected to S3_PUBLIC_URL.
  app.get(`${UPLOADS_PATH}/*`, serveUploads(runtime.storage.uploads, runtime.storage.publicUrl));

  if (options.clientDir) {
    const root = path.relative(process.cwd(), options.clientDir) || ".";
    app.use("/assets/*", staticFiles({ root, precompressed: true }, { "Cache-Control": IMMUTABLE }));
    app.get("/assets/*", (c) => c.text("Not found", 404));
    // favicon.svg, robots.txt and friends; a miss falls through to the pages (e.g. a generated sitemap).
    app.get(
      "/:file{[\\w.-]+\\.(?:ico|png|svg|txt|webmanifest|xml)}",
      staticFiles({ root, precompressed: true }, { "Cache-Control": "public, max-age=3600" }),
    );
  }

  app.use("*", session(services, config));
  // Who is acting, for revisions and the audit log (core/audit/actor.ts): the person and the address.
  app.use("*", (c, next) => {
    const user = c.get("auth")?.user;
    const name = user ? `${user.first_name} ${user.last_name}`.trim() || user.email : "Visitor";
    return actingAs({ userId: user?.id ?? null, name, ip: c.get("clientIp") ?? null }, next);
  });
  app.use("*", cacheControl(config));
  app.use("*", csrf([config.baseUrl.origin]));
  app.use("*", contentChanges(services.contentVersion, logger));
  app.use("*", securityLog(logger, services.audit));
  // Every request body is bounded (uploads through page forms too); routes that spool uploads to disk may take
  // more. Nothing before this reads a body; a 413 goes out with the headers, log lines and events of any answer.
  app.use("*", limitBodies(config, spoolingRouteLimits(apiRoutes, "/api")));
  app.use("/api/*", methodOverride(apiRoutes, overriddenDispatch(api, logger, services.audit)));
  app.route("/api", api);
  app.route("/", calendarRoutes(runtime));
  app.route("/", paperRoutes(runtime));

  if (options.build) {
    const getBuild = options.build;
    const address = publicAddress(config.baseUrl, config.trustProxy);
    if (pageCache) {
      // Signed-in users read the pages whose routes allow it from one render per role (server/shared-pages.ts).
      let shared: { build: ServerBuild; paths: (pathname: string) => boolean } | null = null;
      app.all(
        "*",
        pageCache.signedIn(async (pathname) => {
          const build = await getBuild();
          if (shared?.build !== build) shared = { build, paths: sharedPagePaths(build) };
          return shared.paths(pathname);
        }),
      );
    }
    app.all("*", renderSlots(RENDER_SLOTS));
    // Given a function, React Router derives its routes and handler from the build on every request (for
    // development's reloads); a production build never changes, so its handler is derived once.
    const development = config.env === "development";
    const developmentHandler = development ? createRequestHandler(getBuild, "development") : null;
    let productionHandler: ReturnType<typeof createRequestHandler> | null = null;
    // A production build has the islands build beside it: its public pages are served as islands (decision 0033).
    const islands = options.clientDir && !development ? readIslandsManifest(options.clientDir) : null;
    const handler: ReturnType<typeof createRequestHandler> = async (request, context) => {
      if (developmentHandler) return developmentHandler(request, context);
      productionHandler ??= createRequestHandler(await getBuild(), "production");
      return productionHandler(request, context);
    };
    app.all("*", async (c) => {
      const build = (await getBuild()) as MastheadBuild;
      const key = build.entry.module.requestContext;
      const context = new RouterContextProvider();
      const value: RequestContext = {
        services,
        auth: c.get("auth"),
        sessionToken: c.get("sessionToken"),
        client: { ip: c.get("clientIp"), userAgent: c.req.header("user-agent") ?? null },
        nonce: c.get("secureHeadersNonce") ?? "",
        requestId: c.get("requestId"),
        secureCookies: c.get("secureCookies"),
        origin: config.baseUrl.origin,
        logger,
        publicConfig: {
          recaptchaSiteKey: config.recaptcha?.siteKey ?? null,
          recaptchaEnterprise: config.recaptcha?.mode === "enterprise",
          gtmId: config.gtmId ?? null,
        },
        sharedRender: c.get("sharedPage") !== undefined,
        islands,
      };
      // biome-ignore lint/suspicious/noExplicitAny: the key's type lives in the app bundle
      context.set(key as any, value);
      return handler(asPublicRequest(c.req.raw, address.url(c)), context);
    });
  }

  app.onError(handleError(logger));
  return { app, pageCache };
}
