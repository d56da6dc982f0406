import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { Logger } from "../../lib/logger";
import type { AppEnv } from "../env";

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** Request id (a well-formed incoming X-Request-Id is kept) and one JSON log line per request. */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    c.set("requestId", requestId);
    const started = performance.now();
    await next();
    c.res.headers.set("X-Request-Id", requestId);
    const status = c.res.status;
    const line = {
      req_id: requestId,
      method: c.req.method,
      path: c.req.path,
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      user: c.var.auth?.user.id,
      ip: c.var.clientIp,
    };
    if (status >= 500) logger.error(line, "request");
    else logger.info(line, "request");
  };
}
