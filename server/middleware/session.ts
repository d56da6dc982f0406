import type { MiddlewareHandler } from "hono";
import { readSessionCookie } from "../../core/auth/auth.cookie";
import type { Services } from "../../core/services";
import type { Config } from "../../lib/env";
import type { AppEnv } from "../env";
import { publicAddress } from "./client";

/**
 * Resolves the signed-in user once per request: a Bearer token (API clients)
 * wins over the session cookie (the browser). Says whether the visitor came over
 * https (the public origin of decision 0010), which decides the cookie's name and
 * `Secure`, and which names are read: over https only `__Host-auth.session`
 * (decision 0035).
 */
export function session(services: Services, config: Pick<Config, "baseUrl" | "trustProxy">): MiddlewareHandler<AppEnv> {
  const address = publicAddress(config.baseUrl, config.trustProxy);
  return async (c, next) => {
    const secure = address.secure(c);
    c.set("secureCookies", secure);
    const authorization = c.req.header("authorization");
    const bearer = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? null;
    const cookie = bearer ? null : readSessionCookie(c.req.header("cookie"), { secure });
    const token = bearer ?? cookie;
    const auth = await services.auth.authenticate(token);
    c.set("auth", auth);
    c.set("sessionToken", auth ? token : null);
    c.set("authVia", auth ? (bearer ? "bearer" : "cookie") : null);
    await next();
  };
}
