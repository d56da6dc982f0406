import { type Context, Hono } from "hono";
import type { PaperDownload } from "../core/library/library.service";
import { contentDisposition } from "../lib/content-disposition";
import { parseId } from "../lib/ids";
import { viewerOf } from "./api/http";
import type { AppEnv, Runtime } from "./env";
import { sendStoredFile } from "./stored-files";

/** Members-only files: the browser keeps them for itself and asks again (a 304 with the ETag) each time. */
const MEMBERS_CACHE = "private, max-age=0, must-revalidate";
/** Public files: anyone may keep them, and asks again each time (a new file takes the same address). */
const PUBLIC_CACHE = "public, max-age=0, must-revalidate";

/**
 * `/papers/{id}/download`, `/papers/{id}/view` and `/papers/{id}/revisions/{revisionId}/download`
 * (issue 14 'Files that stay private'): a paper's file from the private root, for those who may
 * have it (canDownload), 404 for everyone else and for ids that are no paper, so that nothing tells
 * them apart. Streams from the private storage (local disk or S3, never a public address), with ETag revalidation and single byte ranges for browsers' PDF viewers.
 */
export function paperRoutes(runtime: Runtime) {
  const { services } = runtime;
  const app = new Hono<AppEnv>();
  const notFound = (c: Context<AppEnv>) => c.text("Not found", 404);

  /** Answers a file the viewer may have: attachment (a download) or inline (the browser's PDF viewer). */
  function send(c: Context<AppEnv>, file: PaperDownload, disposition: "attachment" | "inline") {
    const headers: Record<string, string> = {
      "Content-Type": file.contentType,
      "Content-Disposition": contentDisposition(disposition, file.fileName),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": file.isPublic ? PUBLIC_CACHE : MEMBERS_CACHE,
    };
    // Shown in the browser, a document runs nothing of ours and reaches nothing of the site's.
    if (disposition === "inline") headers["Content-Security-Policy"] = "sandbox; default-src 'none'";
    return sendStoredFile(c, file, headers);
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
