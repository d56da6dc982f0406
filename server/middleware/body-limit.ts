import type { MiddlewareHandler } from "hono";
import { AppError } from "../../lib/errors";
import type { AppEnv } from "../env";

/**
 * Uploads (multipart) may be as large as UPLOAD_MAX_BYTES; every other body
 * BODY_MAX_BYTES. A declared Content-Length over the limit is refused at once;
 * a chunked body is counted as it streams to whoever reads it, never buffered
 * here (hono's bodyLimit reads a chunked body whole before the route runs, so
 * before anyone knows whether the caller may send it).
 */
export function limitBodies(limits: { uploadMaxBytes: number; bodyMaxBytes: number }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    if (raw.method === "GET" || raw.method === "HEAD" || !raw.body) return next();
    const type = raw.headers.get("content-type") ?? "";
    const max = type.toLowerCase().startsWith("multipart/") ? limits.uploadMaxBytes : limits.bodyMaxBytes;
    const tooLarge = () =>
      new AppError("payload_too_large", `The request body is larger than the limit of ${max} bytes.`);
    const declared = raw.headers.get("content-length");
    if (declared !== null && !raw.headers.has("transfer-encoding")) {
      if (Number(declared) > max) throw tooLarge();
      return next();
    }
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
