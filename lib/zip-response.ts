import type { Readable } from "node:stream";
import { ReadableStream as NodeReadableStream } from "node:stream/web";
import { contentDisposition } from "./content-disposition";

/**
 * A ZIP streamed to the client as it is written, downloaded under `filename`, never kept by a cache.
 *
 * The archive (archiver's own stream class) is read through its async iterator, one chunk per pull:
 * `Readable.toWeb` pushed its chunks from the archive's 'data' events, and a chunk emitted just after
 * the client had gone (the download abandoned, a connection closed by a load test) was handed to the
 * cancelled stream, which threw from the event: an uncaught exception that ended the server process.
 * Pulled chunks stop with the client; cancelling ends the iterator, which destroys the archive.
 * The iterator listens for the archive's errors only once the body is first read: until then (and
 * for ever when nothing reads it, as for a HEAD request) a listener keeps an error from going
 * uncaught; the archive is destroyed with it, so a later read still ends in that error.
 */
export function zipResponse(archive: { filename: string; stream: Readable }): Response {
  archive.stream.on("error", (error: Error) => archive.stream.destroy(error));
  return new Response(NodeReadableStream.from(archive.stream) as unknown as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": contentDisposition("attachment", archive.filename),
      "Cache-Control": "private, no-store",
    },
  });
}
