import { Readable } from "node:stream";
import { type Context, Hono } from "hono";
import type { PaperDownload } from "../core/library/library.service";
import { contentDisposition } from "../lib/content-disposition";
import { parseId } from "../lib/ids";
import { viewerOf } from "./api/http";
import type { AppEnv, Runtime } from "./env";

/** Members-only files: the browser keeps them for itself and asks again (a 304 with the ETag) each time. */
const MEMBERS_CACHE = "private, max-age=0, must-revalidate";
/** Public files: anyone may keep them, and asks again each time (a new file takes the same address). */
const PUBLIC_CACHE = "public, max-age=0, must-revalidate";

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
 * `/papers/{id}/download`, `/papers/{id}/view` and `/papers/{id}/revisions/{revisionId}/download`
 * (issue 14 'Files that stay private'): a paper's file from the private root, for those who may
 * have it (canDownload), 404 for everyone else and for ids that are no paper, so that nothing tells
 * them apart. Streams from disk, with ETag revalidation and single byte ranges for browsers' PDF viewers.
 */
export function paperRoutes(runtime: Runtime) {
  const { services } = runtime;
  const app = new Hono<AppEnv>();
  const notFound = (c: Context<AppEnv>) => c.text("Not found", 404);

  /** Answers a file the viewer may have: attachment (a download) or inline (the browser's PDF viewer). */
  function send(c: Context<AppEnv>, file: PaperDownload, disposition: "attachment" | "inline") {
    const { size, modifiedAt } = file.stat;
    const etag = `"${size.toString(16)}-${modifiedAt.getTime().toString(16)}"`;
    const headers: Record<string, string> = {
      "Content-Type": file.contentType,
      "Content-Disposition": contentDisposition(disposition, file.fileName),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": file.isPublic ? PUBLIC_CACHE : MEMBERS_CACHE,
      ETag: etag,
      "Last-Modified": modifiedAt.toUTCString(),
      "Accept-Ranges": "bytes",
    };
    // Shown in the browser, a document runs nothing of ours and reaches nothing of the site's.
    if (disposition === "inline") headers["Content-Security-Policy"] = "sandbox; default-src 'none'";
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
  }

  app.get("/papers/:id/download", async (c) => {
    const id = parseId(c.req.param("id"));
    const file = id === null ? null : await services.library.paperDownload(id, viewerOf(c));
    return file ? send(c, file, "attachment") : notFound(c);
  });

  // A PDF in the browser's own viewer (search results open it at #page=N); other types are downloads.
  app.get("/papers/:id/view", async (c) => {
    const id = parseId(c.req.param("id"));
    const file = id === null ? null : await services.library.paperDownload(id, viewerOf(c));
    if (!file) return notFound(c);
    return send(c, file, file.contentType === "application/pdf" ? "inline" : "attachment");
  });

  app.get("/papers/:id/revisions/:revisionId/download", async (c) => {
    const id = parseId(c.req.param("id"));
    const revisionId = parseId(c.req.param("revisionId"));
    const file =
      id === null || revisionId === null ? null : await services.library.revisionDownload(id, revisionId, viewerOf(c));
    return file ? send(c, file, "attachment") : notFound(c);
  });

  return app;
}
