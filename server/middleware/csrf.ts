import type { MiddlewareHandler } from "hono";
import { AppError } from "../../lib/errors";
import type { AppEnv } from "../env";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const UNSUBSCRIBE_PATH = /^\/unsubscribe\/[^/]+$/;

/** RFC 8058's one-click address (`/unsubscribe/{token}`): posted by mail providers, from elsewhere. */
export const isUnsubscribePath = (path: string) => UNSUBSCRIBE_PATH.test(path);

/** What the CSRF check reads of a state-changing request that carries no Bearer token. */
export type Provenance = {
  origin: string | undefined;
  fetchSite: string | undefined;
  host: string | undefined;
  cookie: string | undefined;
};

/**
 * Whether a request a browser could have sent with our cookie came from
 * elsewhere: its Origin (or, for browsers that omit it, Sec-Fetch-Site) is
 * not ours, or it has no browser provenance at all yet leans on the cookie.
 */
export function crossSite(request: Provenance, allowed: ReadonlySet<string>): boolean {
  const { origin, fetchSite } = request;
  if (origin && origin !== "null") {
    let originHost: string | null = null;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = null;
    }
    return !(allowed.has(origin) || (originHost !== null && originHost === request.host));
  }
  if (fetchSite) return !(fetchSite === "same-origin" || fetchSite === "none");
  // No browser provenance at all: a script or tool. Refuse only when it leans on the cookie.
  return request.cookie?.includes("auth.") === true;
}

/**
 * Cross-site request forgery check for every state-changing request that a
 * browser could send with our cookie: the request must come from our own
 * origin (Origin header, or Sec-Fetch-Site for browsers that omit Origin).
 * Requests authenticated by a Bearer token carry no ambient credentials and
 * are exempt.
 */
export function csrf(allowedOrigins: string[]): MiddlewareHandler<AppEnv> {
  const allowed = new Set(allowedOrigins);
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || c.get("authVia") === "bearer") return next();
    // A one-click unsubscribe (RFC 8058) is posted by the mail provider, from elsewhere and with no
    // session: its signed address is its only credential, and all it can do is stop a kind of mail.
    if (c.req.method === "POST" && isUnsubscribePath(c.req.path)) return next();
    const request = {
      origin: c.req.header("origin"),
      fetchSite: c.req.header("sec-fetch-site"),
      host: c.req.header("host"),
      cookie: c.req.header("cookie"),
    };
    if (crossSite(request, allowed)) throw new AppError("forbidden", "Cross-site request refused.");
    return next();
  };
}
