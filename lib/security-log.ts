import { loggedPath } from "./logged-path";
import type { Logger } from "./logger";

/**
 * Security events as one structured line each, so an operator can filter on
 * `event` (docs/decisions/0018-operator-logs.md lists every event and field).
 * Every path goes out through `loggedPath` here, whoever logs it, so no caller
 * can log a secret address (decision 0034).
 */

/** A request refused because the caller may not use an admin route (API 401/403, or a guard's redirect). */
export type AccessRefused = {
  req_id: string;
  status: 401 | 403;
  method: string;
  path: string;
  /** The signed-in user's id; absent for an anonymous caller. */
  user?: number;
  ip: string;
};

/** A successful change made by an admin (API write or page action). */
export type AdminChange = {
  req_id: string;
  user: number;
  email: string;
  ip: string;
  method: string;
  /** The API route pattern (`/api/dashboard/news/:id`) or the page path. */
  route: string;
  path: string;
  /** What the page form asked for (its `intent` field), when it says. */
  intent?: string;
  /** The record changed, when the route or the form names one. */
  id?: string;
  status: number;
};

export function logAccessRefused(logger: Logger, fields: AccessRefused) {
  logger.warn({ event: "access_refused", ...fields, path: loggedPath(fields.path) }, "access refused");
}

export function logAdminChange(logger: Logger, fields: AdminChange) {
  logger.info(
    { event: "admin_change", ...fields, route: loggedPath(fields.route), path: loggedPath(fields.path) },
    "admin change",
  );
}

/** Why an upload was refused: the answer's status, named (decision 0034). */
export const UPLOAD_REJECTED_REASONS = {
  401: "unauthenticated",
  403: "forbidden",
  413: "too_large",
  415: "type",
  422: "invalid",
} as const;

/** An upload (a multipart body) refused before or while it was read, whatever refused it. */
export type UploadRejected = {
  req_id: string;
  reason: (typeof UPLOAD_REJECTED_REASONS)[keyof typeof UPLOAD_REJECTED_REASONS];
  status: number;
  method: string;
  path: string;
  /** The body's declared length, when it declared one. */
  bytes?: number;
  /** The fields refused (names only, never values), when the refusal names them (`type`, `invalid`). */
  fields?: string[];
  /** The signed-in user's id; absent for an anonymous caller. */
  user?: number;
  ip: string;
};

export function logUploadRejected(logger: Logger, fields: UploadRejected) {
  logger.warn({ event: "upload_rejected", ...fields, path: loggedPath(fields.path) }, "upload rejected");
}
