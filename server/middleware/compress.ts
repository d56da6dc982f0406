import { Duplex } from "node:stream";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { replaceResponse } from "./replace-response";

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

/** Bodies of a known length up to this are compressed in one call on zlib's thread pool; longer or unknown ones stream. */
const ONE_SHOT_MAX_BYTES = 2 * 1024 * 1024;
/**
 * Effort for bodies made per request: brotli 4 and gzip 6 cost well under a
 * millisecond for a 60 KB page and lose little to the highest levels (the
 * page cache and the static assets use those, once).
 */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The response encoded for a client whose Accept-Encoding is `acceptEncoding`:
 * brotli or gzip for text of at least MIN_BYTES, as is otherwise. A body of
 * known length is compressed whole, off the main thread; others stream.
 */
export async function encodeResponse(
  res: Response,
  method: string,
  acceptEncoding: string | undefined,
): Promise<Response> {
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
  let body: ReadableStream<Uint8Array> | Buffer;
  if (length !== null && Number(length) <= ONE_SHOT_MAX_BYTES) {
    const whole = new Uint8Array(await res.arrayBuffer());
    body =
      encoding === "br"
        ? await brotli(whole, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: whole.length,
            },
          })
        : await gzip(whole, { level: GZIP_LEVEL });
  } else {
    const compressor =
      encoding === "br"
        ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } })
        : zlib.createGzip({ level: GZIP_LEVEL });
    body = res.body.pipeThrough(Duplex.toWeb(compressor) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
  }
  // Headers settled before the Response is made: a body already read makes a Response a poor template.
  const headers = new Headers(res.headers);
  if (Buffer.isBuffer(body)) headers.set("Content-Length", String(body.length));
  else headers.delete("Content-Length");
  headers.set("Content-Encoding", encoding);
  const encoded = new Response(body as BodyInit, { status: res.status, statusText: res.statusText, headers });
  return encoded;
}

/**
 * Brotli or gzip for text responses. Static assets are served
 * precompressed by the static middleware and pass through untouched, and so
 * do the pages the page cache encodes and stores itself.
 */
export function compress(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.var.pageCacheEncodes) return;
    const encoded = await encodeResponse(c.res, c.req.method, c.req.header("Accept-Encoding"));
    if (encoded !== c.res) replaceResponse(c, encoded);
  };
}
