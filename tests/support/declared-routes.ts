import { createApi } from "../../server/api";
import type { Access } from "../../server/api/http";
import type { Runtime } from "../../server/env";

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
