import { Duplex } from "node:stream";
import zlib from "node:zlib";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|rss\+xml|atom\+xml|manifest\+json)|image\/svg\+xml)/;
const MIN_BYTES = 1024;

/** Chooses br over gzip when the client accepts it. */
export function negotiateEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get("*") ?? 0;
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return null;
}

/**
 * The response encoded for a client whose Accept-Encoding is `acceptEncoding`,
 * streamed: brotli or gzip for text of at least MIN_BYTES, as is otherwise.
 */
export function encodeResponse(res: Response, method: string, acceptEncoding: string | undefined): Response {
  if (!res.body || method === "HEAD" || res.status === 204 || res.status === 304) return res;
  if (res.headers.has("Content-Encoding")) return res;
  // Byte-addressed answers (files with ranges and ETags) go out as stored.
  if (res.headers.has("Accept-Ranges")) return res;
  if (!COMPRESSIBLE.test(res.headers.get("Content-Type") ?? "")) return res;
  const length = res.headers.get("Content-Length");
  if (length !== null && Number(length) < MIN_BYTES) return res;
  const encoding = negotiateEncoding(acceptEncoding);
  res.headers.append("Vary", "Accept-Encoding");
  if (!encoding) return res;
  const compressor =
    encoding === "br"
      ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
      : zlib.createGzip({ level: 6 });
  const body = res.body.pipeThrough(
    Duplex.toWeb(compressor) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
  );
  const encoded = new Response(body, res);
  encoded.headers.delete("Content-Length");
  encoded.headers.set("Content-Encoding", encoding);
  return encoded;
}

/**
 * Brotli or gzip for text responses, streamed. Static assets are served
 * precompressed by the static middleware and pass through untouched, and so
 * do the pages the page cache encodes and stores itself.
 */
export function compress(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.var.pageCacheEncodes) return;
    c.res = encodeResponse(c.res, c.req.method, c.req.header("Accept-Encoding"));
  };
}
