import { Duplex } from "node:stream";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { MiddlewareHandler } from "hono";
import { createSlots } from "../../lib/slots";
import type { AppEnv } from "../env";
import { replaceResponse } from "./replace-response";

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|rss\+xml|atom\+xml|manifest\+json)|image\/svg\+xml)/;
/** Smaller bodies gain less than their headers cost. */
export const MIN_BYTES = 1024;

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
 * Effort for bodies made per request: brotli 3 and gzip 6 cost about half a
 * millisecond for a 60 KB page and lose little to the highest levels (the
 * page cache and the static assets use those, once). Brotli 4 made the same
 * page 5 % smaller for nearly twice the time, on a two-core machine that
 * renders signed-in pages with the rest.
 */
const BROTLI_QUALITY = 3;
const GZIP_LEVEL = 6;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Brotli's window sized to the body. The default (4 MiB, and hash tables to match)
 * is memory Node reports to V8 as the encoder's own: one per signed-in page was
 * enough to make V8 run a full garbage collection every few pages. A window as
 * long as the body loses nothing, since brotli never looks back further.
 */
function windowBitsFor(length: number): number {
  const bits = Math.ceil(Math.log2(Math.max(length, 1)));
  return Math.min(Math.max(bits, zlib.constants.BROTLI_MIN_WINDOW_BITS), zlib.constants.BROTLI_MAX_WINDOW_BITS);
}

/**
 * A whole body in one encoding, on zlib's thread pool. "request": the effort for
 * bodies made per request; "stored": the highest, for bodies encoded once and
 * sent many times (the page cache, the API's answer cache).
 */
export function compressBody(data: Uint8Array, encoding: "br" | "gzip", effort: "request" | "stored"): Promise<Buffer> {
  if (encoding === "gzip") return gzip(data, { level: effort === "stored" ? 9 : GZIP_LEVEL });
  return brotli(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: effort === "stored" ? zlib.constants.BROTLI_MAX_QUALITY : BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      [zlib.constants.BROTLI_PARAM_LGWIN]: windowBitsFor(data.length),
    },
  });
}

/** Highest-quality brotli encodings of stored bodies, made in the background one at a time (improveLater). */
export const bestBrotli = createSlots(1);
/**
 * Bodies waiting for it at most: each waiting one is held in memory, and anonymous visitors can
 * have pages stored faster than they are encoded (a crawler, or query strings made up to miss the
 * cache). Past this, a body keeps its quick encoding.
 */
export const BEST_BROTLI_MAX_WAITING = 16;

/**
 * Brotli at its highest quality for a body kept in memory and sent many times,
 * made in the background, one body at a time, and handed to `use` if smaller
 * than `sentLength` and `wanted()` still says the body is kept.
 *
 * It holds about 50 bytes of memory per input byte while it works (11 MB for
 * the 216 KB events page) and takes 90–300 ms of CPU. Made while the request
 * that stores the body waited, the pages that expire together were encoded
 * four at once on zlib's thread pool (spikes of 20–40 MB of resident memory in
 * the soak); made one at a time with requests waiting, they timed out. So a
 * stored body goes out first in the per-request brotli (about a millisecond)
 * and this replaces it: the same content, a fifth smaller for a page.
 *
 * The work starts on a later turn of the event loop, after the caller has kept
 * the body (so that `wanted()` can say so), unless BEST_BROTLI_MAX_WAITING bodies
 * wait already.
 */
export function improveLater(
  data: Uint8Array,
  sentLength: number,
  hooks: { wanted: () => boolean; use: (best: Buffer) => void },
): void {
  setImmediate(() => {
    if (bestBrotli.waiting >= BEST_BROTLI_MAX_WAITING) return;
    bestBrotli
      .run(async () => {
        if (!hooks.wanted()) return;
        const best = await compressBody(data, "br", "stored");
        if (best.length < sentLength && hooks.wanted()) hooks.use(best);
      })
      // Only a smaller copy is lost: the one sent so far stays in use.
      .catch(() => {});
  });
}

/**
 * A body kept in memory and sent many times, with each encoding made once, when first asked for.
 * `kept`: whether its holder still keeps it (for improveLater; kept as long as referenced if absent).
 */
export type StoredBody = {
  body: Uint8Array;
  encoded: { br?: Promise<Buffer>; gzip?: Promise<Buffer> };
  kept?: () => boolean;
};

/**
 * A stored body as a client whose Accept-Encoding is `acceptEncoding` takes it: gzip at its
 * highest level, or brotli quick and later at its highest quality (improveLater), started by the
 * first request that asks for that encoding (those arriving meanwhile wait for the same work), or
 * as it is. `varies`: whether the answer depends on Accept-Encoding (the body is long enough to be
 * compressed), for the Vary header.
 */
export async function encodeStored(
  stored: StoredBody,
  acceptEncoding: string | undefined,
): Promise<{ body: Uint8Array; encoding: "br" | "gzip" | null; varies: boolean }> {
  if (stored.body.byteLength < MIN_BYTES) return { body: stored.body, encoding: null, varies: false };
  const encoding = negotiateEncoding(acceptEncoding);
  if (!encoding) return { body: stored.body, encoding: null, varies: true };
  stored.encoded[encoding] ??=
    encoding === "gzip"
      ? compressBody(stored.body, "gzip", "stored")
      : compressBody(stored.body, "br", "request").then((quick) => {
          improveLater(stored.body, quick.length, {
            wanted: stored.kept ?? (() => true),
            use: (best) => {
              stored.encoded.br = Promise.resolve(best);
            },
          });
          return quick;
        });
  return { body: await stored.encoded[encoding], encoding, varies: true };
}

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
  if (method === "HEAD" || res.status === 204 || res.status === 304) return res;
  if (res.headers.has("Content-Encoding")) return res;
  // Byte-addressed answers (files with ranges and ETags) go out as stored.
  if (res.headers.has("Accept-Ranges")) return res;
  if (!COMPRESSIBLE.test(res.headers.get("Content-Type") ?? "")) return res;
  const length = res.headers.get("Content-Length");
  if (length !== null && Number(length) < MIN_BYTES) return res;
  const encoding = negotiateEncoding(acceptEncoding);
  // An answer encoded from a stored body (encodeStored) says Vary already.
  if (!/\baccept-encoding\b/i.test(res.headers.get("Vary") ?? "")) res.headers.append("Vary", "Accept-Encoding");
  // The body is asked for last: on @hono/node-server's own Response, `body` builds the whole fetch
  // Response (a web stream over the bytes), which an answer sent as it is never needs.
  if (!encoding || !res.body) return res;
  let body: ReadableStream<Uint8Array> | Buffer;
  if (length !== null && Number(length) <= ONE_SHOT_MAX_BYTES) {
    body = await compressBody(new Uint8Array(await res.arrayBuffer()), encoding, "request");
  } else {
    const compressor =
      encoding === "br"
        ? zlib.createBrotliCompress({
            // 1 MiB of window for a body of unknown length (windowBitsFor).
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.constants.BROTLI_PARAM_LGWIN]: 20 },
          })
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
    if (c.get("pageCacheEncodes")) return;
    const encoded = await encodeResponse(c.res, c.req.method, c.req.header("Accept-Encoding"));
    if (encoded !== c.res) replaceResponse(c, encoded);
  };
}
