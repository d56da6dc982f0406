import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isForeignKeyViolation } from "../lib/db-errors";
import { AppError, asStorageFull } from "../lib/errors";
import { loggedPath } from "../lib/logged-path";
import type { Logger } from "../lib/logger";
import { hasBody } from "../lib/request-body";
import type { AppEnv } from "./env";
import { CLIENT_CLOSED_REQUEST, clientAborted } from "./middleware/request-log";

export function errorBody(message: string, errors: Record<string, string[]> = {}) {
  return { status: "error", message, errors };
}

/**
 * The single place where a thrown error becomes an HTTP answer. Known errors
 * keep their status and message; anything else is logged with the request id
 * and answered with a generic 500 that reveals nothing.
 */
const REFUSED_UNREAD = new Set([401, 403, 413, 415]);

export function handleError(logger: Logger) {
  return (error: Error, c: Context<AppEnv>) => {
    if (clientAborted(c, error)) {
      // Nobody is left to answer. Before the request log starts (a body read early) this is the only line.
      if (!c.get("requestId"))
        logger.info({ method: c.req.method, path: loggedPath(c.req.path), ip: c.get("clientIp") }, "client aborted");
      return new Response(null, { status: CLIENT_CLOSED_REQUEST });
    }
    const wantsJson = c.req.path.startsWith("/api/") || c.req.path === "/api";
    let status: ContentfulStatusCode = 500;
    let message = "Internal server error.";
    let errors: Record<string, string[]> | undefined;
    const headers: Record<string, string> = {};
    // A full disk found outside the storage and database layers (e.g. a log or outbox file) is a 507 too.
    error = asStorageFull(error);
    if (error instanceof AppError) {
      status = error.status as ContentfulStatusCode;
      message = error.message;
      errors = error.details.errors;
      if (error.details.retryAfter) headers["Retry-After"] = String(error.details.retryAfter);
      if (error.details.allow) headers.Allow = error.details.allow.join(", ");
      if (error.code === "insufficient_storage") {
        logger.error({ req_id: c.get("requestId"), err: error.cause ?? error }, "out of storage space");
      } else if (error.code === "unavailable") {
        logger.error({ req_id: c.get("requestId"), err: error.cause ?? error }, "service unavailable");
      } else if (isForeignKeyViolation(error.cause)) {
        // Two people at once, or a check a service lacks: the operator sees which (asRaceRefusal).
        logger.warn({ req_id: c.get("requestId"), err: error.cause }, "write refused by a foreign key");
      }
    } else if (error instanceof HTTPException) {
      status = error.status as ContentfulStatusCode;
      message = error.message || "Bad request.";
    } else {
      logger.error({ req_id: c.get("requestId"), err: error }, "unhandled error");
    }
    // A refusal before the body was read (401, 403, 413, 415): the connection closes after the answer
    // instead of reading the rest of an upload nobody will use (up to 64 MB per request otherwise).
    // The server lingers before closing (server/lingering-close.ts), so the client reads this answer.
    if (REFUSED_UNREAD.has(status) && hasBody(c.req.raw) && !c.req.raw.bodyUsed) headers.Connection = "close";
    if (wantsJson) return c.json(errorBody(message, errors), status, headers);
    return c.text(message, status, headers);
  };
}
