import { Readable } from "node:stream";
import { Hono } from "hono";
import { attachmentDisposition } from "../lib/content-disposition";
import { parseId } from "../lib/ids";
import type { AppEnv, Runtime } from "./env";

/** Members-only files: the browser keeps them for itself and asks again (a 304 with the ETag) each time. */
const MEMBERS_CACHE = "private, max-age=0, must-revalidate";
/** Papers' ids are PostgreSQL integers: anything longer is no paper. */

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

/** Whether an If-None-Match list names this ETag (weak comparison, RFC 9110 §13.1.2). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/**
 * `/papers/{id}/download` (issue 14 'Files that stay private'): a paper's file
 * from the private root, for those who may have it (canDownload), 404 for
 * everyone else and for ids that are no paper, so that nothing tells them
 * apart. Streams from disk, with ETag revalidation and single byte ranges for
 * browsers' PDF viewers.
 */
export function paperRoutes(runtime: Runtime) {
  const { services } = runtime;
  const app = new Hono<AppEnv>();

  app.get("/papers/:id/download", async (c) => {
    const notFound = () => c.text("Not found", 404);
    const id = parseId(c.req.param("id"));
    if (id === null) return notFound();
    const file = await services.library.paperDownload(id, { signedIn: c.var.auth !== null });
    if (!file) return notFound();

    const { size, modifiedAt } = file.stat;
    const etag = `"${size.toString(16)}-${modifiedAt.getTime().toString(16)}"`;
    const headers: Record<string, string> = {
      "Content-Type": file.contentType,
      "Content-Disposition": attachmentDisposition(file.fileName),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": MEMBERS_CACHE,
      ETag: etag,
      "Last-Modified": modifiedAt.toUTCString(),
      "Accept-Ranges": "bytes",
    };
    if (matchesEtag(c.req.header("If-None-Match"), etag)) return c.body(null, 304, headers);

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
    const stream = Readable.toWeb(file.open(range ?? undefined)) as ReadableStream<Uint8Array>;
    return c.body(stream, status, headers);
  });

  return app;
}
