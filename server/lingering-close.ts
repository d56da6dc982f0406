import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import os from "node:os";

/**
 * How a connection closed after an answer whose request body was not all read (a refused upload)
 * goes on reading and discarding what the client still sends, as nginx's `lingering_close` does
 * (`lingering_timeout`, `lingering_time`): until nothing has come for `idleMs`, at most `maxMs` in
 * all and `maxBytes` discarded. Long enough for the client to read the answer (Node's fetch takes
 * up to 1.5 s to hand over the answer to a 50 MB FormData upload on a busy machine, while it still
 * sends), short enough that a slow or endless sender cannot hold the connection.
 */
export const LINGER = { idleMs: 2_000, maxMs: 10_000, maxBytes: 64 * 1024 * 1024 } as const;
export type LingerLimits = { idleMs: number; maxMs: number; maxBytes: number };

const lingering = new WeakSet<Socket>();

/**
 * The parts of Node's own objects this reads, which its public types do not name: the HTTP parser a
 * server socket carries (`socket.parser`, its `incoming` is the request being read) and the socket's
 * libuv stream handle (`useUserBuffer`, `onread`, `bytesRead`: what `net.Socket`'s documented
 * `onread` option uses). Present on Node 20 to 24; each is checked before use, and where one is
 * missing the connection closes as Node closes it (`canDiscard`).
 */
type ServerSocket = Socket & {
  parser?: { incoming?: IncomingMessage | null; unconsume?: () => void } | null;
  _handle?: {
    useUserBuffer?: (buffer: Uint8Array) => void;
    readStart?: () => number;
    onread?: (...args: unknown[]) => void;
    bytesRead?: number;
  } | null;
};

/**
 * Lingering close (decision 0034). When an answer says `Connection: close` before the request's
 * body has all arrived (a 401/413/415 refused unread, server/errors.ts), Node ends the socket and
 * destroys it as soon as the answer is written; the kernel then answers the bytes the client is
 * still sending with a reset, which often reaches the client before it has read the answer
 * (EPIPE/ECONNRESET in place of the 401). Instead the socket is half-closed once the answer is
 * written (the client sees the end of the answer and of the connection), and what still arrives is
 * read and thrown away until the client closes its side or a bound of `LINGER` is reached; then it
 * is destroyed.
 *
 * Node's http server calls `socket.destroySoon()` after the last answer on a connection; this takes
 * that call over on each socket whose current request (the parser's `incoming`) is still incomplete.
 * Nothing runs per request.
 */
export function lingerBeforeClose(server: Server, limits: LingerLimits = LINGER): void {
  server.on("connection", (socket: ServerSocket) => {
    const destroySoon = socket.destroySoon;
    socket.destroySoon = function lingerThenDestroy(this: Socket) {
      const request = socket.parser?.incoming;
      if (!request || request.complete || socket.destroyed || !canDiscard(socket)) return destroySoon.call(this);
      linger(socket, limits);
    };
  });
}

/**
 * One 64 KiB buffer every lingering socket reads into and nobody reads from. Read through the
 * stream, each chunk of a discarded body is a new buffer (and the parser copies the body once more):
 * 60 clients sending 10 MB at once leave 600 MB of garbage, which Node 24's collector lets the
 * process grow by 120-180 MB before it frees (1-2 MB on Node 20). Read into this, a discarded body
 * allocates nothing.
 */
const discardBuffer = Buffer.allocUnsafe(64 * 1024);

function linger(socket: ServerSocket, limits: LingerLimits): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  const started = performance.now();
  let lastData = started;
  let discarded = 0;
  const done = () => {
    clearTimeout(timer);
    if (!socket.destroyed) socket.destroy();
  };
  const received = (bytes: number) => {
    lastData = performance.now();
    discarded += bytes;
    if (discarded > limits.maxBytes) done();
  };
  // One timer, re-armed for whichever bound comes first (not one per chunk).
  const check = () => {
    const now = performance.now();
    const idleLeft = limits.idleMs - (now - lastData);
    const totalLeft = limits.maxMs - (now - started);
    if (idleLeft <= 0 || totalLeft <= 0) return done();
    timer = setTimeout(check, Math.min(idleLeft, totalLeft));
    timer.unref();
  };
  let timer = setTimeout(check, Math.min(limits.idleMs, limits.maxMs));
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  // A reset by the client after it has read the answer is its way of closing.
  socket.on("error", () => {});
  discardIntoOneBuffer(socket, received, done);
  // The answer is queued before this: the FIN follows it.
  socket.end();
}

/** libuv's "already reading" (`uv_read_start` on a stream that reads): its errors are negated errno values. */
const UV_EALREADY = -os.constants.errno.EALREADY;

/**
 * Whether this Node's socket handle can read into a caller's buffer and say how much it read (Node 20
 * to 24 can). Where it cannot, the connection closes as Node closes it: reading the discarded body
 * through the stream instead would make the garbage this avoids, and its end of input is not seen
 * there once the parser has consumed the handle (tried: the socket then stays open until the idle
 * bound).
 */
function canDiscard(socket: ServerSocket): boolean {
  const handle = socket._handle;
  return (
    !!handle &&
    typeof handle.useUserBuffer === "function" &&
    typeof handle.readStart === "function" &&
    typeof handle.bytesRead === "number"
  );
}

/**
 * Reads what still arrives straight from the socket's handle into `discardBuffer`, past the HTTP
 * parser and the stream. The handle counts what it read (`bytesRead`), which tells how much each
 * read brought.
 */
function discardIntoOneBuffer(socket: ServerSocket, received: (bytes: number) => void, done: () => void): void {
  const handle = socket._handle;
  if (!handle?.useUserBuffer || !handle.readStart) return;
  // The parser reads the handle itself (Node's http server "consumes" it); it has answered and must
  // see no more of this connection.
  if (typeof socket.parser?.unconsume === "function") socket.parser.unconsume();
  let seen = handle.bytesRead ?? 0;
  // biome-ignore lint/correctness/useHookAtTopLevel: Node's stream handle method, not a React hook
  handle.useUserBuffer(discardBuffer);
  handle.onread = () => {
    const total = handle.bytesRead ?? seen;
    if (total > seen) {
      received(total - seen);
      seen = total;
      return;
    }
    // Nothing read: either nothing has come yet (libuv reports EAGAIN as an empty read and goes on
    // reading, so starting again answers UV_EALREADY), or the client's end of the connection or a
    // reset (libuv has stopped reading). The connection is destroyed right away in the second case.
    if (handle.readStart?.() === UV_EALREADY) return;
    done();
  };
  handle.readStart();
}

/**
 * `Expect: 100-continue` (Node's `checkContinue`): the request is handed to the app at once, and
 * `100 Continue` is sent only when something starts reading the body. A caller the route refuses
 * before reading (access, the declared size, the content type: server/middleware/body-limit.ts,
 * server/api/http.ts) gets its 401/403/413/415 without having sent the body at all.
 */
export function continueWhenRead(server: Server): void {
  server.on("checkContinue", (request: IncomingMessage, response: ServerResponse) => {
    const onListener = (event: string | symbol) => {
      if (event !== "data" && event !== "readable") return;
      request.off("newListener", onListener);
      // After the answer (a refusal), a reader is only the discarding of the unread body.
      if (!response.headersSent && !response.writableEnded) response.writeContinue();
    };
    request.on("newListener", onListener);
    // Handled as any request: by the server's "request" listeners, in their order.
    server.emit("request", request, response);
  });
}
