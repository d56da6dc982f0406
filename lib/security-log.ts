import type { Logger } from "./logger";

/**
 * Security events as one structured line each, so an operator can filter on
 * `event` (docs/decisions/0018-operator-logs.md lists every event and field).
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
  logger.warn({ event: "access_refused", ...fields }, "access refused");
}

export function logAdminChange(logger: Logger, fields: AdminChange) {
  logger.info({ event: "admin_change", ...fields }, "admin change");
}
