import type { Context, MiddlewareHandler } from "hono";
import { managesContent } from "../../core/access/access";
import { currentActor } from "../../core/audit/actor";
import type { AuditService } from "../../core/audit/audit.service";
import { AppError } from "../../lib/errors";
import { loggedPath } from "../../lib/logged-path";
import type { Logger } from "../../lib/logger";
import { logAccessRefused, logAdminChange, logUploadRejected, UPLOAD_REJECTED_REASONS } from "../../lib/security-log";
import { refusedByAdminAccess } from "../api/http";
import type { AppEnv } from "../env";

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Posts that change nothing an operator audits: ending one's own session, checking one's password. */
const NOT_CHANGES = new Set(["/logout", "/api/dashboard/logout", "/api/dashboard/user/checkValidPass"]);
/** Page forms are small urlencoded bodies; uploads (multipart) are not read a second time. */
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;
const UPLOAD_TYPE = /^multipart\//i;

/** React Router's data requests (`/manager/users.data`) are the page's own path. */
function pagePath(path: string): string {
  if (path === "/_root.data") return "/";
  // A path that is itself a secret (an unsubscribe or registration link) is logged redacted.
  return loggedPath(path.endsWith(".data") ? path.slice(0, -".data".length) : path);
}

/** The API route's id parameter (`:id`), read back after the route ran. */
function apiRecordId(c: Context<AppEnv>): string | undefined {
  try {
    const params = c.req.param() as Record<string, string>;
    return params.id ?? Object.values(params).find((value) => value.length > 0);
  } catch {
    return undefined;
  }
}

/** The kind of thing a path writes, as the audit log names it (core/audit/audit.schema AUDIT_ENTITIES). */
const ENTITY_PATHS: [RegExp, string][] = [
  [/\/(manage-news|dashboard\/news)\b/, "news"],
  [/\/(manager\/pages|dashboard\/pages)\b/, "page"],
  [/\/(manage-events|dashboard\/meeting)\b/, "meeting"],
  [/\/dashboard\/papers-categor/, "category"],
  [/\/(manager\/library|dashboard\/papers)\b/, "paper"],
  [/\/(manager\/members|dashboard\/compan|dashboard\/company|dashboard\/members)/, "company"],
  [/\/(manager\/users|dashboard\/users?|dashboard\/user-settings)\b/, "user"],
  [/\/(manager\/settings|dashboard\/settings)\b/, "settings"],
  [/\/(manager\/requests|dashboard\/join|registrations)/, "request"],
];
function entityOf(path: string): string {
  return ENTITY_PATHS.find(([pattern]) => pattern.test(path))?.[1] ?? "site";
}

/** A numeric segment of a page path (`/manage-news/12/edit`). */
function pathRecordId(path: string): string | undefined {
  return /\/(\d+)(?:\/|$)/.exec(path)?.[1];
}

/**
 * The security events the HTTP layer sees, logged in one place rather than in
 * every route: refused admin API calls (`access.admin`, server/api/http.ts)
 * and every successful change by an admin, through the API or a page action.
 * Page guards log their own refusals (app/lib/guards.ts). Every refused upload
 * is an `upload_rejected` (uploadRejected below).
 */
export function securityLog(logger: Logger, audit?: AuditService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    const auth = c.get("auth");
    const isApi = c.req.path === "/api" || c.req.path.startsWith("/api/");
    const admin = auth ? managesContent(auth.user.role.name) : false;
    // The audit log's writers (decision 0074): the admins and editors, and the primary contacts of member companies.
    const writer = admin || auth?.company?.primary === true;
    const change = !READ_METHODS.has(method) && writer && !NOT_CHANGES.has(c.req.path);
    // The page action consumes the body, so the form's intent and id are read from a copy.
    const form = change && !isApi && FORM_TYPE.test(c.req.header("content-type") ?? "") ? c.req.raw.clone() : null;
    try {
      await next();
    } finally {
      // A POST the method override dispatched was logged where it ran, as the method it became.
      if (!c.get("effectiveMethod") && c.error && refusedByAdminAccess.has(c.error)) {
        logAccessRefused(logger, {
          req_id: c.get("requestId"),
          status: c.res.status === 403 ? 403 : 401,
          method,
          path: c.req.path,
          user: auth?.user.id,
          ip: c.get("clientIp"),
        });
        await audit?.record({
          action: "access_refused",
          entity: "site",
          summary: `Refused (${c.res.status === 403 ? 403 : 401}): ${method} ${loggedPath(c.req.path)}`,
        });
      }
      if (!c.get("effectiveMethod")) uploadRejected(logger, c);
    }
    // A read sent as a POST (a list's filters in the body: `readOnly`, server/api/contract.ts) changes nothing.
    if (!change || !auth || c.res.status >= 400 || c.get("effectiveMethod") || c.get("readOnly")) {
      await form?.body?.cancel();
      return;
    }
    let fields: URLSearchParams | null = null;
    try {
      if (form) fields = new URLSearchParams(await form.text());
    } catch {
      fields = null;
    }
    const path = isApi ? c.req.path : pagePath(c.req.path);
    const id = isApi ? apiRecordId(c) : (fields?.get("id") ?? pathRecordId(path));
    const intent = fields?.get("intent") ?? undefined;
    // A write no service described (decision 0074): the audit log still says who did what, where.
    if (audit && (currentActor().recorded ?? 0) === 0) {
      await audit.record({
        action: intent ?? method.toLowerCase(),
        entity: entityOf(path),
        entityId: id ?? null,
        summary: `${method} ${isApi ? c.req.routePath : path}${intent ? ` (${intent})` : ""}`,
      });
    }
    if (!admin) return;
    logAdminChange(logger, {
      req_id: c.get("requestId"),
      user: auth.user.id,
      email: auth.user.email,
      ip: c.get("clientIp"),
      method,
      route: isApi ? c.req.routePath : path,
      path,
      ...(intent ? { intent } : {}),
      ...(id ? { id } : {}),
      status: c.res.status,
    });
  };
}

/**
 * A refused upload (decision 0034), logged with the reason its status names: a multipart body
 * answered 401, 403, 413, 415 or 422, and any body in an encoding the route does not take (415: a
 * file route takes multipart only).
 */
function uploadRejected(logger: Logger, c: Context<AppEnv>): void {
  const status = c.res.status;
  if (!(status in UPLOAD_REJECTED_REASONS)) return;
  if (status !== 415 && !UPLOAD_TYPE.test(c.req.header("content-type") ?? "")) return;
  const declared = Number(c.req.header("content-length"));
  const fields = c.error instanceof AppError ? Object.keys(c.error.details.errors ?? {}) : [];
  logUploadRejected(logger, {
    req_id: c.get("requestId"),
    reason: UPLOAD_REJECTED_REASONS[status as keyof typeof UPLOAD_REJECTED_REASONS],
    status,
    method: c.req.method,
    path: c.req.path,
    ...(Number.isSafeInteger(declared) && declared > 0 ? { bytes: declared } : {}),
    ...(fields.length > 0 ? { fields } : {}),
    user: c.get("auth")?.user.id,
    ip: c.get("clientIp"),
  });
}
