import http from "node:http";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { startServer } from "./server";

/**
 * SIGTERM while keep-alive clients load the built server: new connections are
 * refused, responses say Connection: close, in-flight requests finish, no
 * request is reset, nothing answers 5xx, and the process exits 0 long before
 * its 10 s force-exit.
 */
type Outcome = { status?: number; connection?: string; error?: string; socket?: number };

describe("stopping the built server", () => {
  it("finishes every in-flight request under keep-alive load and exits 0", async () => {
    const server = await startServer({ env: { LOG_LEVEL: "info" } });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 40 });
    const outcomes: Outcome[] = [];
    let stopSentAt = 0;
    let refused = false;

    const socketIds = new WeakMap<object, number>();
    let sockets = 0;
    const once = (path: string) =>
      new Promise<Outcome>((resolve) => {
        const request = http.get(`${server.url}${path}`, { agent }, (response) => {
          if (!socketIds.has(response.socket)) socketIds.set(response.socket, sockets++);
          const socket = socketIds.get(response.socket);
          response.resume();
          response.on("end", () =>
            resolve({ status: response.statusCode, connection: response.headers.connection, socket }),
          );
          response.on("error", (error: NodeJS.ErrnoException) =>
            resolve({ error: error.code ?? error.message, socket }),
          );
        });
        request.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      });

    // 40 clients, each sending requests back to back on its kept-alive connection.
    const paths = ["/", "/news", "/history", "/api/getDateFilters", "/healthz"];
    const clients = Array.from({ length: 40 }, async (_, n) => {
      for (let i = 0; !refused; i++) {
        const outcome = await once(paths[(n + i) % paths.length]);
        outcomes.push(outcome);
        if (outcome.error === "ECONNREFUSED") refused = true;
      }
    });
    // The signal comes once the load is real (over 100 answers), however long a loaded machine takes.
    const loadedBy = Date.now() + 60_000;
    while (outcomes.length <= 100 && Date.now() < loadedBy) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500));
    const before = outcomes.length;
    stopSentAt = Date.now();
    server.child.kill("SIGTERM");
    const code = await server.exited;
    const stoppedIn = Date.now() - stopSentAt;
    refused = true;
    await Promise.all(clients);
    agent.destroy();
    server.cleanup();

    expect(before).toBeGreaterThan(100); // the load was real
    expect(code).toBe(0);
    expect(stoppedIn).toBeLessThan(5_000);
    const errors = outcomes.filter((o) => o.error);
    // Only new connections after the stop may fail, and only by being refused.
    expect(errors.filter((o) => o.error !== "ECONNREFUSED")).toEqual([]);
    expect(outcomes.filter((o) => (o.status ?? 0) >= 500)).toEqual([]);
    // Every kept-alive connection ended with an answer that said so (Connection: close),
    // not by being cut while the client could still be writing on it.
    const lastBySocket = new Map<number, Outcome>();
    for (const outcome of outcomes) if (outcome.socket !== undefined) lastBySocket.set(outcome.socket, outcome);
    const cut = [...lastBySocket.values()].filter((o) => o.connection !== "close");
    expect(cut.length).toBeLessThanOrEqual(lastBySocket.size / 10); // only connections idle at the signal
    expect(cut.length).toBeLessThan(lastBySocket.size);
    const logs = server.logs();
    expect(logs.some((line) => line.msg === "shutting down")).toBe(true);
    expect(logs.some((line) => line.msg === "stopped")).toBe(true);
  });

  it("exits 0 at once when idle keep-alive connections are open", async () => {
    const server = await startServer({ env: { LOG_LEVEL: "warn" } });
    const agent = new http.Agent({ keepAlive: true });
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve) =>
        http.get(`${server.url}/healthz`, { agent }, (r) => r.resume().on("end", resolve)),
      );
    }
    const started = Date.now();
    const code = await server.stop("SIGTERM");
    agent.destroy();
    server.cleanup();
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("drops a client that sends its headers too slowly (15 s), not after Node's 60 s + 30 s", async () => {
    const server = await startServer({ env: { LOG_LEVEL: "warn" } });
    const socket = net.connect(server.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    const started = Date.now();
    const drip = setInterval(() => socket.write("X-Slow: a\r\n"), 1_000);
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("utf8");
    });
    socket.on("error", () => {});
    await new Promise((resolve) => socket.once("close", resolve));
    clearInterval(drip);
    const closedAfter = Date.now() - started;
    await server.stop();
    server.cleanup();
    expect(closedAfter).toBeGreaterThan(14_000);
    expect(closedAfter).toBeLessThan(20_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  }, 40_000);
});
