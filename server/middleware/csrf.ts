import type { MiddlewareHandler } from "hono";
import { AppError } from "../../lib/errors";
import type { AppEnv } from "../env";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

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
    const origin = c.req.header("origin");
    const fetchSite = c.req.header("sec-fetch-site");
    const host = c.req.header("host");
    if (origin && origin !== "null") {
      let originHost: string | null = null;
      try {
        originHost = new URL(origin).host;
      } catch {
        originHost = null;
      }
      if (allowed.has(origin) || (originHost !== null && originHost === host)) return next();
      throw new AppError("forbidden", "Cross-site request refused.");
    }
    if (fetchSite) {
      if (fetchSite === "same-origin" || fetchSite === "none") return next();
      throw new AppError("forbidden", "Cross-site request refused.");
    }
    // No browser provenance at all: a script or tool. Refuse only when it leans on the cookie.
    if (c.req.header("cookie")?.includes("auth.")) {
      throw new AppError("forbidden", "Cross-site request refused.");
    }
    return next();
  };
}
