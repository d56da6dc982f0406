import type { MiddlewareHandler } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import type { Config } from "../../lib/env";
import type { AppEnv } from "../env";

/**
 * Security headers for every response. Scripts run only from our origin or
 * with the per-request nonce that React Router puts on its inline scripts.
 * Styles allow inline attributes (React style props); no script is inline-allowed.
 */
export function securityHeaders(config: Config): MiddlewareHandler<AppEnv> {
  const https = config.baseUrl.protocol === "https:";
  const development = config.env === "development";
  return secureHeaders({
    contentSecurityPolicy: development
      ? undefined
      : {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", NONCE],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", "data:", "blob:"],
          fontSrc: ["'self'", "data:"],
          connectSrc: ["'self'"],
          frameSrc: ["'self'", "https://www.youtube-nocookie.com", "https://www.youtube.com"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          baseUri: ["'self'"],
          objectSrc: ["'none'"],
          ...(https ? { upgradeInsecureRequests: [] } : {}),
        },
    strictTransportSecurity: https ? "max-age=31536000; includeSubDomains" : false,
    xFrameOptions: "DENY",
    referrerPolicy: "strict-origin-when-cross-origin",
    xContentTypeOptions: "nosniff",
    crossOriginResourcePolicy: "same-origin",
    crossOriginOpenerPolicy: "same-origin",
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [] },
    // A route that sets a stricter header of its own (e.g. uploads' sandboxing CSP) keeps it.
    overwrite: false,
  });
}
