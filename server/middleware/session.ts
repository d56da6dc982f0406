import type { MiddlewareHandler } from "hono";
import { readCookie, SESSION_COOKIE } from "../../core/auth/auth.cookie";
import type { Services } from "../../core/services";
import type { AppEnv } from "../env";

/**
 * Resolves the signed-in user once per request: a Bearer token (API clients)
 * wins over the session cookie (the browser).
 */
export function session(services: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const authorization = c.req.header("authorization");
    const bearer = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? null;
    const cookie = bearer ? null : readCookie(c.req.header("cookie"), SESSION_COOKIE);
    const token = bearer ?? cookie;
    const auth = await services.auth.authenticate(token);
    c.set("auth", auth);
    c.set("sessionToken", auth ? token : null);
    c.set("authVia", auth ? (bearer ? "bearer" : "cookie") : null);
    await next();
  };
}
