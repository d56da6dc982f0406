/**
 * A fault of Node 24's fetch, not of ours (decision 0038). From undici 7.20 (Node 24 has 7.29) a
 * FormData body is written by a promise nothing awaits (nodejs/undici#5835): when whoever reads
 * the body cancels it part way, as the app does with a form it refuses unread (lib/request-body.ts)
 * and as fetch does when a server answers before the upload ends, the next part's enqueue throws
 * `Invalid state: ReadableStream is already closed` as an unhandled rejection in the process that
 * built the body: the test, never the server (its bodies come from sockets). Vitest reports it as
 * an error of the run (vitest.config.ts, vitest.process.config.ts); this recognises that error,
 * and only it: thrown by the stream controller's enqueue, with nothing but Node's own code on the
 * stack (undici's next), none of ours.
 */
export function isUndiciFormDataWriteAfterCancel(error: { code?: unknown; message?: string; stack?: string }): boolean {
  if (error.code !== "ERR_INVALID_STATE" || error.message !== "Invalid state: ReadableStream is already closed")
    return false;
  const frames = (error.stack ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("at "));
  return (
    frames.length >= 2 &&
    frames[0].startsWith("at ReadableByteStreamController.enqueue (node:internal/webstreams/") &&
    frames[1].startsWith("at node:internal/deps/undici/undici:") &&
    frames.every((frame) => /[( ]node:/.test(frame))
  );
}
