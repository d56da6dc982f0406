import type { Hono } from "hono";
import type { ServerBuild } from "react-router";
import { createApi } from "../../server/api";
import type { Access } from "../../server/api/http";
import type { AppEnv, Runtime } from "../../server/env";

export type Declared = { method: string; path: string; access: Access | undefined };

/**
 * Every API route as the router knows it, with the access its first handler declares (access.*):
 * what the authorization test calls and the OpenAPI test finds in the document.
 */
export function declaredRoutes(runtime: Runtime): Declared[] {
  const api = createApi(runtime);
  const byRoute = new Map<string, Declared>();
  for (const route of api.routes) {
    if (route.method === "ALL") continue;
    const key = `${route.method} ${route.path}`;
    const declared = byRoute.get(key) ?? { method: route.method, path: route.path, access: undefined };
    const access = (route.handler as { access?: Access }).access;
    if (access) declared.access = access;
    byRoute.set(key, declared);
  }
  return [...byRoute.values()];
}

/** A page route of the React Router build: its id and its full path pattern ("/", "/post/:slug", "/*"). */
export type PageRoute = { id: string; path: string };

/**
 * Every page route a request can end on (the leaves of app/routes.ts as built: layouts are
 * walked through, not listed), with the path its layouts and its own segment make together.
 */
export function pageRoutes(build: ServerBuild): PageRoute[] {
  const routes = Object.values(build.routes).filter((route) => route !== undefined);
  const parents = new Set(routes.map((route) => route.parentId));
  const fullPath = (id: string | undefined): string[] => {
    const route = id === undefined ? undefined : build.routes[id];
    if (!route) return [];
    return [...fullPath(route.parentId), ...(route.path ? route.path.split("/") : [])];
  };
  return routes
    .filter((route) => !parents.has(route.id))
    .map((route) => ({ id: route.id, path: `/${fullPath(route.id).join("/")}` }));
}

/**
 * The site's own GET routes outside the API and the pages (files, feeds, health), as the app's
 * router lists them: `app.get(...)` in server/app.ts and the routers it mounts (server/papers.ts,
 * server/calendars.ts). Middleware (`app.use`) and the pages' catch-all (`app.all`) are not routes.
 */
export function siteRoutes(app: Hono<AppEnv>): string[] {
  const paths = app.routes
    .filter((route) => route.method === "GET" && route.path !== "/api" && !route.path.startsWith("/api/"))
    .map((route) => route.path);
  return [...new Set(paths)];
}
