import type { Context, MiddlewareHandler } from "hono";
import { isSessionSetCookie } from "../../core/auth/auth.cookie";
import type { Config } from "../../lib/env";
import type { AppEnv } from "../env";

export const PRIVATE_NO_STORE = "private, no-store";
/** Anonymous answers that are not pages (API answers, errors, redirects): no cache keeps them. */
export const NO_STORE = "no-store";

const PAGE_TYPE = /^text\/(html|x-script)\b/;

/**
 * What a shared cache (a CDN, nginx's proxy_cache) may keep, and for how long
 * (decision 0031). Registered after the session is resolved; answers that
 * chose their own policy keep it (feeds, the sitemap, paper files, calendars).
 *
 * - Personal answers are never kept by a browser's back/forward and disk
 *   caches, a proxy or a CDN: every response to a signed-in caller (pages,
 *   data requests and the API) and every response that sets a cookie (a
 *   login's answer carries the new token, a flash message clears its own)
 *   says `private, no-store`. An answer that already says `private, …` (a
 *   members-only file) keeps its own policy unless it sets the session.
 * - An anonymous page (GET, 200, a document or its navigation data) says
 *   `public, max-age=0, s-maxage=…, stale-while-revalidate=…` and
 *   `Vary: Cookie`: browsers revalidate it every time (a 304 from the page
 *   cache's validators), a shared cache keeps it for `s-maxage`, and the
 *   session cookie changes the answer. With `PAGE_CACHE_S_MAXAGE=0` it says
 *   `no-cache` instead: every cache asks again each time.
 * - Any other anonymous answer (the API, a 404, an error, a redirect, a
 *   form's answer) says `no-store`: nothing a CDN's defaults might guess at.
 */
export function cacheControl(config: Pick<Config, "sharedCache">): MiddlewareHandler<AppEnv> {
  const { sMaxAgeSeconds, staleWhileRevalidateSeconds } = config.sharedCache;
  const publicPage =
    sMaxAgeSeconds > 0
      ? `public, max-age=0, s-maxage=${sMaxAgeSeconds}, stale-while-revalidate=${staleWhileRevalidateSeconds}`
      : "no-cache";
  return async (c, next) => {
    await next();
    const cookies = c.res.headers.getSetCookie();
    const setsSession = cookies.some(isSessionSetCookie);
    const own = c.res.headers.get("Cache-Control");
    if (c.get("auth") || cookies.length > 0) {
      // A route that chose its own private policy keeps it (paper files revalidate with their ETag).
      if (!setsSession && own?.startsWith("private")) return;
      setHeaders(c, { "Cache-Control": PRIVATE_NO_STORE });
      return;
    }
    if (own) return;
    if (isPage(c)) setHeaders(c, { "Cache-Control": publicPage }, { Vary: "Cookie" });
    else setHeaders(c, { "Cache-Control": NO_STORE });
  };
}

function isPage(c: Context<AppEnv>): boolean {
  const method = c.req.method;
  return (
    (method === "GET" || method === "HEAD") &&
    c.res.status === 200 &&
    !c.req.path.startsWith("/api/") &&
    PAGE_TYPE.test(c.res.headers.get("Content-Type") ?? "")
  );
}

function setHeaders(c: Context<AppEnv>, set: Record<string, string>, append: Record<string, string> = {}): void {
  const apply = (headers: Headers) => {
    for (const [name, value] of Object.entries(set)) headers.set(name, value);
    for (const [name, value] of Object.entries(append)) headers.append(name, value);
  };
  try {
    apply(c.res.headers);
  } catch {
    // A response with immutable headers (e.g. one passed through from fetch): answer a copy.
    c.res = new Response(c.res.body, c.res);
    apply(c.res.headers);
  }
}
