import { randomUUID } from "node:crypto";
import type { HttpBindings } from "@hono/node-server";
import type { Context, MiddlewareHandler } from "hono";
import { loggedPath } from "../../lib/logged-path";
import type { Logger } from "../../lib/logger";
import type { AppEnv } from "../env";

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;
/** nginx's code for a client that closed the connection before the answer; nobody receives it. */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * Whether the client went away before we answered (a cancelled upload, a closed tab): its
 * connection closed before the answer was written, or reading the rest of the body failed with
 * `aborted` (ECONNRESET). That is the client's doing, not a server error. Under node:http the
 * response's connection says so; asking the request's `signal` instead would make
 * @hono/node-server build an AbortController for every request. Requests made in-process
 * (tests, the method override's dispatch) have no connection and ask the signal.
 */
export function clientAborted(c: Context<AppEnv>, error?: unknown): boolean {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  const gone = outgoing ? outgoing.destroyed && !outgoing.writableFinished : c.req.raw.signal.aborted;
  if (gone) return true;
  const failure = error as { code?: unknown; message?: unknown } | null | undefined;
  return failure?.code === "ECONNRESET" && failure.message === "aborted";
}

/** A well-formed incoming X-Request-Id (a proxy's), else a new one. */
export function acceptedRequestId(incoming: string | string[] | undefined): string {
  return typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Request id (a well-formed incoming X-Request-Id is kept) and one JSON log line per request. */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const requestId = acceptedRequestId(c.req.header("x-request-id"));
    c.set("requestId", requestId);
    const started = performance.now();
    await next();
    c.res.headers.set("X-Request-Id", requestId);
    const aborted = clientAborted(c, c.error);
    const status = aborted ? CLIENT_CLOSED_REQUEST : c.res.status;
    const line = {
      req_id: requestId,
      method: c.req.method,
      path: loggedPath(c.req.path),
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      user: c.get("auth")?.user.id,
      ip: c.get("clientIp"),
    };
    if (aborted) logger.info(line, "client aborted");
    else if (status >= 500) logger.error(line, "request");
    else logger.info(line, "request");
  };
}
