import { Readable } from "node:stream";
import { contentDisposition } from "./content-disposition";

/** A ZIP streamed to the client as it is written, downloaded under `filename`, never kept by a cache. */
export function zipResponse(archive: { filename: string; stream: Readable }): Response {
  return new Response(Readable.toWeb(archive.stream) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": contentDisposition("attachment", archive.filename),
      "Cache-Control": "private, no-store",
    },
  });
}
