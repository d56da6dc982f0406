import { Readable } from "node:stream";
import type { Context } from "hono";
import { getMimeType } from "hono/utils/mime";
import { fileStoreUnavailable } from "../lib/errors";
import { ifNoneMatchNames } from "../lib/etag";
import type { FileStat, ReadableFileStorage } from "../lib/storage";
import { isSafeStorageKey } from "../lib/storage";
import { UPLOADS_PATH } from "../lib/uploads";
import type { AppEnv } from "./env";

type ByteRange = { start: number; end: number };

/**
 * The byte range a Range header asks for: one range (`a-b`, `a-`, `-n`) within
 * the file, "unsatisfiable" (416), or null to answer the whole file (no
 * header, a malformed one, several ranges: all may be answered with a 200).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | "unsatisfiable" | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Number(match[2]);
  if (start >= size) return "unsatisfiable";
  if (end < start) return null;
  return { start, end: Math.min(end, size - 1) };
}

/** A stored file to answer: its size and last write, and its bytes as a stream (a range of them). */
export type StoredFileBody = { stat: FileStat; open: (range?: ByteRange) => Readable };

/**
 * Answers a stored file with `headers` (its type, cache policy, …): an ETag from its size and last
 * write (files are never overwritten) with If-None-Match → 304, Last-Modified, and one byte range
 * (206, or 416 past the end; If-Range not matching → the whole file). Streamed, never read whole;
 * HEAD opens nothing.
 */
export async function sendStoredFile(c: Context<AppEnv>, file: StoredFileBody, fileHeaders: Record<string, string>) {
  const { size, modifiedAt } = file.stat;
  const etag = `"${size.toString(16)}-${modifiedAt.getTime().toString(16)}"`;
  const headers: Record<string, string> = {
    ...fileHeaders,
    ETag: etag,
    "Last-Modified": modifiedAt.toUTCString(),
    "Accept-Ranges": "bytes",
  };
  if (ifNoneMatchNames(c.req.header("If-None-Match"), [etag])) return c.body(null, 304, headers);

  // If-Range: a range of the file the client already holds part of, else the whole current file.
  const ifRange = c.req.header("If-Range");
  const range = ifRange && ifRange !== etag ? null : parseRange(c.req.header("Range"), size);
  if (range === "unsatisfiable") {
    return c.body(null, 416, { ...headers, "Content-Range": `bytes */${size}`, "Content-Length": "0" });
  }
  const status = range ? 206 : 200;
  if (range) headers["Content-Range"] = `bytes ${range.start}-${range.end}/${size}`;
  headers["Content-Length"] = String(range ? range.end - range.start + 1 : size);
  if (c.req.method === "HEAD" || size === 0) return c.body(null, status, headers);
  const body = await started(file.open(range ?? undefined));
  if (!body) return c.text("Not found", 404);
  return c.body(Readable.toWeb(body) as ReadableStream<Uint8Array>, status, headers);
}

/**
 * The file's bytes once the first of them has come, or null when it is gone. The size and ETag
 * come from a stat before the read (S3: a HEAD before the GET), and a file can be deleted between
 * the two: answered before its first bytes, that was a 200 with a length that the body then fell
 * short of. A store that fails at that point is a 503 (fileStoreUnavailable).
 */
async function started(stream: Readable): Promise<Readable | null> {
  const chunks = stream[Symbol.asyncIterator]();
  let first: IteratorResult<Buffer>;
  try {
    first = await chunks.next();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw fileStoreUnavailable(error);
  }
  async function* rest(): AsyncGenerator<Buffer> {
    if (first.done) return;
    yield first.value;
    // Stopping early (a reader gone) returns the iterator, which destroys the source stream.
    yield* { [Symbol.asyncIterator]: () => chunks };
  }
  return Readable.from(rest(), { objectMode: false });
}

/** Files whose name changes with their content: cached for good. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

/** Uploads: generated names, so cached for good; sandboxed in case a hostile file slipped through. */
const UPLOAD_HEADERS = {
  "Cache-Control": IMMUTABLE,
  "Content-Security-Policy": "default-src 'none'; img-src 'self'; sandbox",
  "X-Content-Type-Options": "nosniff",
};
/** A redirect to the public URL may change with the configuration: kept an hour, not for good. */
const REDIRECT_CACHE = "public, max-age=3600";

/**
 * `/uploads/<key>`: a public file from the uploads storage (local disk or S3), or a redirect to
 * `<publicUrl>/<key>` when the uploads are published elsewhere (a CDN, S3_PUBLIC_URL). Anything that
 * is not a safe storage key once decoded (`..`, upper case) is a 404, as is a missing file.
 */
export function serveUploads(storage: ReadableFileStorage, publicUrl?: string) {
  return async (c: Context<AppEnv>) => {
    const notFound = () => c.text("Not found", 404);
    // Decoded a segment at a time: an encoded slash (news%2Fa.webp) would name the same file at
    // a second address, and so a second entry in every cache in front of us.
    let segments: string[];
    try {
      segments = new URL(c.req.url).pathname
        .slice(UPLOADS_PATH.length + 1)
        .split("/")
        .map(decodeURIComponent);
    } catch {
      return notFound();
    }
    if (segments.some((segment) => segment.includes("/"))) return notFound();
    const key = segments.join("/");
    if (!isSafeStorageKey(key)) return notFound();
    if (publicUrl) {
      c.header("Cache-Control", REDIRECT_CACHE);
      return c.redirect(`${publicUrl}/${key}`, 302);
    }
    const stat = await storage.stat(key).catch((error) => {
      throw fileStoreUnavailable(error);
    });
    if (!stat) return notFound();
    return sendStoredFile(
      c,
      { stat, open: (range) => storage.open(key, range) },
      { ...UPLOAD_HEADERS, "Content-Type": getMimeType(key) ?? "application/octet-stream" },
    );
  };
}
