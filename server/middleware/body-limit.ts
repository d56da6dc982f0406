import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { AppError } from "../../lib/errors";
import type { AppEnv } from "../env";

/** Uploads (multipart) may be as large as UPLOAD_MAX_BYTES; every other body BODY_MAX_BYTES. */
export function limitBodies(limits: { uploadMaxBytes: number; bodyMaxBytes: number }): MiddlewareHandler<AppEnv> {
  const tooLarge = (max: number) => () => {
    throw new AppError("payload_too_large", `The request body is larger than the limit of ${max} bytes.`);
  };
  const uploads = bodyLimit({ maxSize: limits.uploadMaxBytes, onError: tooLarge(limits.uploadMaxBytes) });
  const others = bodyLimit({ maxSize: limits.bodyMaxBytes, onError: tooLarge(limits.bodyMaxBytes) });
  return (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const type = c.req.header("content-type") ?? "";
    return (type.toLowerCase().startsWith("multipart/") ? uploads : others)(c, next);
  };
}
