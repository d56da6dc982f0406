import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { lingerBeforeClose } from "../../server/lingering-close";

/**
 * The lingering close on a real node:http server (decision 0034): a refusal answered before the body
 * is read reaches the client, what the client still sends is read and discarded, and the connection
 * ends when the client ends it, not only when a bound runs out. Run on the machine's Node and on
 * Node 24 (npm test).
 */
const KB = 1024;
let server: http.Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server that refuses every request with 401 before reading its body, as server/errors.ts does. */
async function refusingServer(options: { idleMs: number; maxMs: number }) {
  const closed: number[] = [];
  server = http.createServer((_request, response) => {
    response.writeHead(401, { "content-type": "application/json", connection: "close" });
    response.end('{"status":"error"}');
  });
  server.on("connection", (socket: Socket) => {
    const opened = performance.now();
    socket.on("close", () => closed.push(performance.now() - opened));
  });
  lingerBeforeClose(server, { idleMs: options.idleMs, maxMs: options.maxMs, maxBytes: 64 * 1024 * KB });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, closed };
}

/**
 * Sends a request declaring `total` bytes in `pieces` writes `pauseMs` apart, reads the answer, and
 * ends its side once all is sent. Resolves with the status read, and whether a write failed.
 */
function slowUpload(port: number, total: number, pieces: number, pauseMs: number) {
  return new Promise<{ status: number | null; writeError: string | null; answeredAt: number }>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    let writeError: string | null = null;
    let answeredAt = 0;
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      if (!answeredAt && answer.includes("\r\n\r\n")) answeredAt = performance.now();
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      writeError = error.code ?? error.message;
    });
    socket.on("close", () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
      resolve({ status: status ? Number(status) : null, writeError, answeredAt });
    });
    socket.write(
      `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: ${total}\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const piece = Buffer.alloc(Math.ceil(total / pieces), 0x41);
    let sent = 0;
    const next = () => {
      if (socket.destroyed) return;
      if (sent >= pieces) {
        socket.end();
        return;
      }
      sent += 1;
      socket.write(piece, () => setTimeout(next, pauseMs));
    };
    next();
  });
}

describe("lingering close", () => {
  it("lets a client that sends in pauses shorter than the idle bound send it all and read the 401", async () => {
    const { port } = await refusingServer({ idleMs: 1_000, maxMs: 10_000 });
    // 30 pieces of 64 KiB 50 ms apart, all within the idle bound of each other. (The empty reads a busy
    // server sees between pieces, which must not end the linger, show under the built server and
    // Node's fetch: tests/process/refused-uploads.test.ts.)
    const outcome = await slowUpload(port, 30 * 64 * KB, 30, 50);
    expect(outcome).toMatchObject({ status: 401, writeError: null });
  });

  it("closes the connection when the client ends its side, long before the idle bound", async () => {
    const { port, closed } = await refusingServer({ idleMs: 20_000, maxMs: 60_000 });
    const outcome = await slowUpload(port, 4_000 * KB, 4, 0);
    expect(outcome).toMatchObject({ status: 401, writeError: null });
    // The test's own timeout (5 s) is far below the 20 s idle bound: only the client's end closes it.
    await expect.poll(() => closed.length, { timeout: 4_000 }).toBe(1);
  });

  it("closes a connection whose client sends nothing more once the idle bound has passed", async () => {
    const { port, closed } = await refusingServer({ idleMs: 300, maxMs: 10_000 });
    const socket = net.connect(port, "127.0.0.1");
    socket.on("error", () => {});
    socket.write("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n");
    socket.write(Buffer.alloc(64 * KB, 0x41));
    await expect.poll(() => closed.length, { timeout: 4_000 }).toBe(1);
    socket.destroy();
  });
});
