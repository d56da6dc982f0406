import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { memo } from "./middleware/page-cache";

/**
 * Pages a signed-in user gets from the page cache, rendered once per role
 * (server/middleware/page-cache.ts, decision 0032). A route opts in with
 *
 *   export const handle = { sharedWhenSignedIn: true };
 *
 * and so promises that its loader and its component read nothing of the
 * signed-in user but the role: such a page is rendered with a user who has the
 * role alone (no id, name, e-mail or picture), and the browser asks
 * /api/dashboard/user for the rest (app/lib/use-signed-in-user.ts). A page is
 * shared only when every route it matches, the root and layouts included, opts in.
 */
export type SharedRouteHandle = { sharedWhenSignedIn?: boolean };

/** How many paths' answers are remembered before the memo starts again (paths with slugs are endless). */
const MEMO_LIMIT = 1024;

function routeTree(routes: ServerBuild["routes"], parentId: string | undefined): RouteObject[] {
  const children: RouteObject[] = [];
  for (const route of Object.values(routes)) {
    if (!route || route.parentId !== parentId) continue;
    children.push(
      route.index
        ? { id: route.id, index: true, path: route.path, caseSensitive: route.caseSensitive }
        : {
            id: route.id,
            path: route.path,
            caseSensitive: route.caseSensitive,
            children: routeTree(routes, route.id),
          },
    );
  }
  return children;
}

/** Whether the page at a path is rendered once per role for signed-in users (see above). */
export function sharedPagePaths(build: ServerBuild): (pathname: string) => boolean {
  const tree = routeTree(build.routes, undefined);
  const shared = memo((pathname) => {
    const matches = matchRoutes(tree, pathname) ?? [];
    return (
      matches.length > 0 &&
      matches.every((match) => {
        const handle = build.routes[match.route.id ?? ""]?.module.handle as SharedRouteHandle | undefined;
        return handle?.sharedWhenSignedIn === true;
      })
    );
  }, MEMO_LIMIT);
  // Documents only: a client navigation's data request (.data) reads its loaders for the person.
  return (pathname) => !pathname.endsWith(".data") && shared(pathname);
}
