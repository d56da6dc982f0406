import { randomFillSync } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { Config } from "../../lib/env";
import type { AppEnv } from "../env";

/** 256 nonces' worth of random bytes, drawn from the CSPRNG at once (decision 0029). */
const noncePool = Buffer.alloc(16 * 256);
let nonceAt = noncePool.length;

/**
 * hono's NONCE, with its 16 random bytes taken from a pool refilled 4 KiB at a time: WebCrypto's
 * getRandomValues for each response was 3 % of a cached API answer's CPU. Every nonce is still
 * 16 bytes from the CSPRNG, used once.
 */
function nonce(c: Context<AppEnv>): string {
  let value = c.get("secureHeadersNonce");
  if (!value) {
    if (nonceAt >= noncePool.length) {
      randomFillSync(noncePool);
      nonceAt = 0;
    }
    value = noncePool.toString("base64", nonceAt, nonceAt + 16);
    nonceAt += 16;
    c.set("secureHeadersNonce", value);
  }
  return `'nonce-${value}'`;
}

/**
 * Security headers for every response. Scripts run only from our origin or
 * with the per-request nonce that React Router puts on its inline scripts.
 * Styles allow inline attributes (React style props); no script is inline-allowed.
 */
export function securityHeaders(config: Config): MiddlewareHandler<AppEnv> {
  const https = config.baseUrl.protocol === "https:";
  const development = config.env === "development";
  // Third parties only when configured: reCAPTCHA on the join form, Google Tag Manager.
  const captcha = config.recaptcha
    ? {
        script: ["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"],
        frame: ["https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"],
      }
    : { script: [], frame: [] };
  const gtm = config.gtmId
    ? {
        script: ["https://www.googletagmanager.com"],
        img: ["https://www.googletagmanager.com", "https://*.google-analytics.com"],
        connect: ["https://*.google-analytics.com", "https://*.analytics.google.com", "https://*.googletagmanager.com"],
      }
    : { script: [], img: [], connect: [] };
  // Uploads redirected to S3_PUBLIC_URL (a CDN) load from its origin.
  const uploadsOrigin =
    config.storage.kind === "s3" && config.storage.publicUrl ? [new URL(config.storage.publicUrl).origin] : [];
  return secureHeaders({
    contentSecurityPolicy: development
      ? undefined
      : {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", nonce, ...captcha.script, ...gtm.script],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", "data:", "blob:", ...uploadsOrigin, ...gtm.img],
          fontSrc: ["'self'", "data:"],
          connectSrc: ["'self'", ...gtm.connect],
          // The forms' proof-of-work widget (ALTCHA, decision 0077) runs its solver in workers it makes
          // from blob: URLs of its own code; blob: URLs are made only by scripts already allowed to run
          // here, and no other source of workers is opened (without this, worker-src falls back to
          // script-src, which has no blob:).
          workerSrc: ["'self'", "blob:"],
          frameSrc: ["'self'", "https://www.youtube-nocookie.com", "https://www.youtube.com", ...captcha.frame],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          // No page uses <base>; 'none' stops an injected one from redirecting relative script and form URLs.
          baseUri: ["'none'"],
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
