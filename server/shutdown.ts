import type { Server } from "node:http";
import type { Socket } from "node:net";
import net from "node:net";

/**
 * Timeouts of the HTTP server, set explicitly rather than left to Node's
 * defaults (with which a client sending its headers slowly was dropped only
 * after 81 s: a 60 s headers timeout checked every 30 s).
 */
export const HTTP_TIMEOUTS = {
  /** Whole request headers within this (slowloris). */
  headersTimeout: 15_000,
  /** The whole request, body included: a 10 MB upload at 100 kB/s fits. */
  requestTimeout: 120_000,
  /** An idle keep-alive connection is closed after this; proxies keep theirs shorter (scripts/nginx.ts: 4 s). */
  keepAliveTimeout: 5_000,
  /** How often Node checks the two request timeouts above. */
  connectionsCheckingInterval: 1_000,
} as const;

/**
 * A connection that was idle when the shutdown began gets this long to send
 * one more request (answered with Connection: close) before it is closed:
 * closing it at once would reset a request already on the wire.
 */
const IDLE_GRACE_MS = 250;

/**
 * Graceful shutdown for a keep-alive HTTP server. After `drain()`:
 * the listening socket is closed (new connections are refused), every response
 * says `Connection: close` (so each connection ends after its in-flight
 * request), idle connections are closed after a short grace, and the promise
 * resolves once the last connection has ended.
 */
export function gracefulShutdown(server: Server) {
  const inFlight = new Map<Socket, number>();
  let draining = false;
  /** Requests being answered, on every connection. */
  let answering = 0;
  /** Who waits for a moment when no request is being answered (`whenQuiet`). */
  let waiting: (() => void)[] = [];

  const closeIfIdle = (socket: Socket) => {
    setTimeout(() => {
      if ((inFlight.get(socket) ?? 0) === 0 && !socket.destroyed) socket.destroy();
    }, IDLE_GRACE_MS).unref();
  };

  server.on("connection", (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once("close", () => inFlight.delete(socket));
  });
  // Ahead of the app's listener: the page cache's front door answers a hit synchronously, headers and all.
  server.prependListener("request", (request, response) => {
    const socket = request.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    answering += 1;
    if (draining) response.setHeader("Connection", "close");
    response.once("close", () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      inFlight.set(socket, left);
      if (draining && left === 0) closeIfIdle(socket);
      answering -= 1;
      if (answering === 0 && waiting.length > 0) {
        const woken = waiting;
        waiting = [];
        for (const wake of woken) wake();
      }
    });
  });

  return {
    get draining() {
      return draining;
    },
    /**
     * Resolves once no request is being answered, or after `maxMs` at the latest: background work
     * that can wait (sending mail) goes between requests rather than in front of them.
     */
    whenQuiet(maxMs: number): Promise<void> {
      if (answering === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiting = waiting.filter((other) => other !== wake);
          resolve();
        }, maxMs);
        timer.unref();
        waiting.push(wake);
      });
    },
    drain(): Promise<void> {
      draining = true;
      return new Promise((resolve) => {
        // net.Server's close stops accepting and calls back once every connection has ended.
        // http.Server's own close() would also close idle connections at once (racing requests
        // already on the wire); they get IDLE_GRACE_MS instead.
        net.Server.prototype.close.call(server, () => resolve());
        for (const [socket, count] of inFlight) if (count === 0) closeIfIdle(socket);
      });
    },
  };
}
