import type { MiddlewareHandler } from "hono";
import { SESSION_COOKIE } from "../../core/auth/auth.cookie";
import type { AppEnv } from "../env";

export const PRIVATE_NO_STORE = "private, no-store";

/**
 * Personal answers are never kept by a browser's back/forward and disk caches,
 * a proxy or a CDN: every response to a signed-in caller (pages, data requests
 * and the API), and every response that sets or clears the session cookie (a
 * login's answer carries the new token). Registered after the session is
 * resolved; the page cache never stores these either (it skips signed-in
 * requests and refuses private or no-store answers). An answer that already
 * says `private, …` (a members-only file) keeps its own policy.
 */
export function privateWhenSignedIn(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const setsSession = c.res.headers.getSetCookie().some((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
    if (!c.var.auth && !setsSession) return;
    // A route that chose its own private policy keeps it (paper files revalidate with their ETag).
    if (!setsSession && c.res.headers.get("Cache-Control")?.startsWith("private")) return;
    try {
      c.res.headers.set("Cache-Control", PRIVATE_NO_STORE);
    } catch {
      // A response with immutable headers (e.g. one passed through from fetch): answer a copy.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set("Cache-Control", PRIVATE_NO_STORE);
    }
  };
}
