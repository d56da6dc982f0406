import type { MiddlewareHandler } from "hono";
import { AppError } from "../../lib/errors";
import { hasBody, OVERRIDABLE_METHODS } from "../../lib/request-body";
import type { AppEnv } from "../env";
import type { DeclaredRoute } from "./method-override";

/** Room for a spooling route's form fields beside its largest file (a title, a description...). */
export const SPOOL_FORM_BYTES = 1024 * 1024;

/** A route that takes multipart bodies larger than UPLOAD_MAX_BYTES: its method, full path pattern and limit. */
export type RouteBodyLimit = { method: string; matches: (path: string) => boolean; maxBytes: number };

/**
 * The larger limits of the API routes that spool their uploads (contract `body.spool`), from the
 * route table (declaredRoutes), with the paths as requests carry them (`prefix`, /api).
 */
export function spoolingRouteLimits(routes: readonly DeclaredRoute[], prefix: string): RouteBodyLimit[] {
  return routes.flatMap((route) =>
    route.spool
      ? [
          {
            method: route.method,
            matches: (path: string) => path.startsWith(prefix) && route.test.test(path.slice(prefix.length) || "/"),
            maxBytes: route.spool.maxFileBytes + SPOOL_FORM_BYTES,
          },
        ]
      : [],
  );
}

/**
 * Uploads (multipart) may be as large as UPLOAD_MAX_BYTES, or the larger limit of a route that
 * spools them to disk (`routes`); every other body BODY_MAX_BYTES. A POST may carry the body of a
 * PATCH/PUT/DELETE route at its path (the method override), so it gets that route's limit unless
 * the header or query names another method. A declared Content-Length over the limit is refused
 * at once, unread; a chunked body is counted as it streams to whoever reads it, never buffered
 * here (hono's bodyLimit reads a chunked body whole before the route runs, so before anyone knows
 * whether the caller may send it).
 */
export function limitBodies(
  limits: { uploadMaxBytes: number; bodyMaxBytes: number },
  routes: readonly RouteBodyLimit[] = [],
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    if (raw.method === "GET" || raw.method === "HEAD" || !hasBody(raw)) return next();
    const type = raw.headers.get("content-type") ?? "";
    const multipart = type.toLowerCase().startsWith("multipart/");
    let max = multipart ? limits.uploadMaxBytes : limits.bodyMaxBytes;
    if (multipart && routes.length > 0) {
      const named = (c.req.header("x-http-method-override") ?? c.req.query("_method"))?.toUpperCase();
      const path = c.req.path;
      for (const route of routes) {
        const sameMethod =
          route.method === raw.method ||
          (raw.method === "POST" &&
            OVERRIDABLE_METHODS.has(route.method) &&
            (named === undefined || named === route.method));
        if (sameMethod && route.matches(path)) max = Math.max(max, route.maxBytes);
      }
    }
    const tooLarge = () =>
      new AppError("payload_too_large", `The request body is larger than the limit of ${max} bytes.`);
    const declared = raw.headers.get("content-length");
    if (declared !== null && !raw.headers.has("transfer-encoding")) {
      if (Number(declared) > max) throw tooLarge();
      return next();
    }
    if (!raw.body) return next();
    let size = 0;
    const counted = raw.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          size += chunk.byteLength;
          if (size > max) controller.error(tooLarge());
          else controller.enqueue(chunk);
        },
      }),
    );
    // @ts-expect-error Node's fetch needs duplex for a streamed body; the DOM typings do not know it
    c.req.raw = new Request(raw, { body: counted, duplex: "half" });
    return next();
  };
}
