import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Authenticated } from "../../core/auth/auth.service";
import { AppError, type FieldErrors } from "../../lib/errors";
import { parseId } from "../../lib/ids";
import { invalidInput } from "../../lib/validation";
import type { AppEnv } from "../env";

export type Access = "public" | "member" | "admin";
export type AccessMiddleware = MiddlewareHandler<AppEnv> & { access: Access };

function accessMiddleware(access: Access, handler: MiddlewareHandler<AppEnv>): AccessMiddleware {
  return Object.assign(handler, { access });
}

/** Refusals by access.admin, which the security log reports (server/middleware/security-log.ts). */
export const refusedByAdminAccess = new WeakSet<Error>();

function refuseAdmin(error: AppError): AppError {
  refusedByAdminAccess.add(error);
  return error;
}

/**
 * Every API route declares who may call it with one of these as its first
 * handler; the authorization test reads the declaration back from the router.
 */
export const access = {
  public: accessMiddleware("public", async (_c, next) => next()),
  member: accessMiddleware("member", async (c, next) => {
    if (!c.var.auth) throw new AppError("unauthorized", "Unauthenticated.");
    return next();
  }),
  admin: accessMiddleware("admin", async (c, next) => {
    if (!c.var.auth) throw refuseAdmin(new AppError("unauthorized", "Unauthenticated."));
    if (c.var.auth.user.role.name !== "admin") {
      throw refuseAdmin(new AppError("forbidden", "This action is unauthorized."));
    }
    return next();
  }),
};

/** The signed-in caller of a route declared access.member or access.admin (which already refused everyone else). */
export function currentAuth(c: Context<AppEnv>): Authenticated {
  const auth = c.var.auth;
  if (!auth) throw new AppError("unauthorized", "Unauthenticated.");
  return auth;
}

export type Body = Record<string, unknown>;

/**
 * The request body as a plain object, whatever the encoding: JSON,
 * urlencoded or multipart (files stay File objects; repeated fields and
 * `name[]` fields become arrays). Malformed JSON is a 400, an unknown
 * content type a 415.
 */
export async function readBody(c: Context<AppEnv>): Promise<Body> {
  if (c.req.method === "GET" || c.req.method === "HEAD") return {};
  const contentType = c.req.header("content-type") ?? "";
  const type = contentType.toLowerCase();
  let bytes: ArrayBuffer;
  try {
    bytes = await c.req.arrayBuffer();
  } catch {
    throw new AppError("bad_request", "The request body could not be read.");
  }
  if (bytes.byteLength === 0) return {};
  if (type.startsWith("application/json") || type.endsWith("+json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    } catch {
      throw new AppError("bad_request", "Malformed JSON in the request body.");
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new AppError("bad_request", "The JSON body must be an object.");
    }
    const { _method, ...rest } = parsed as Body;
    return rest;
  }
  if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await new Request("http://body.invalid", {
        method: "POST",
        headers: { "content-type": contentType },
        body: bytes,
      }).formData();
    } catch {
      throw new AppError("bad_request", "Malformed form body.");
    }
    return formToObject(form);
  }
  throw new AppError("unsupported_media_type", "Send the body as JSON, urlencoded or multipart form data.");
}

export function formToObject(form: FormData): Body {
  const body: Body = {};
  for (const [rawKey, value] of form.entries()) {
    if (rawKey === "_method") continue;
    const isList = rawKey.endsWith("[]");
    const key = isList ? rawKey.slice(0, -2) : rawKey;
    const existing = body[key];
    if (isList) body[key] = Array.isArray(existing) ? [...existing, value] : [value];
    else if (existing === undefined) body[key] = value;
    else body[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return body;
}

export function ok(c: Context, data: Record<string, unknown> = {}, status: ContentfulStatusCode = 200) {
  return c.json({ status: "success", ...data }, status);
}

/** Invalid input is an answer, not an exception: 422 with the field messages. */
export function unprocessable(c: Context, errors: FieldErrors) {
  return c.json({ status: "error", message: "The given data was invalid.", errors }, 422);
}

/** The uploaded image of a multipart body, if one was sent; its content is checked by lib/images. */
export async function uploadedImage(body: Body, field = "image"): Promise<Uint8Array | undefined> {
  const image = body[field];
  if (image === undefined || image === "" || image === null) return undefined;
  if (!(image instanceof File)) {
    throw invalidInput({ [field]: ["The image must be a file."] });
  }
  return image.size > 0 ? new Uint8Array(await image.arrayBuffer()) : undefined;
}

/** The positive integer `:id` of a route; anything else is the given not-found. */
export function idParam(c: Context<AppEnv>, notFound: string): number {
  const id = parseId(c.req.param("id"));
  if (id === null) throw new AppError("not_found", notFound);
  return id;
}
