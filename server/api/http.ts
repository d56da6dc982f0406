import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  editsAnything,
  editsFor,
  managesContent,
  type RoleName,
  viewerOf as viewerOfAuth,
} from "../../core/access/access";
import type { Authenticated } from "../../core/auth/auth.service";
import { AppError } from "../../lib/errors";
import { parseId } from "../../lib/ids";
import {
  type Body,
  type Encoding,
  OVERRIDABLE_METHODS,
  type ParsedBody,
  type ParseOptions,
  parseBody,
} from "../../lib/request-body";
import { invalidInput } from "../../lib/validation";
import type { AppEnv } from "../env";

export type { Body } from "../../lib/request-body";

export type Access = "public" | "member" | "chair" | "editor" | "admin";
export type AccessMiddleware = MiddlewareHandler<AppEnv> & { access: Access };

function accessMiddleware(access: Access, handler: MiddlewareHandler<AppEnv>): AccessMiddleware {
  return Object.assign(handler, { access });
}

/** An admin without two-factor sign-in when the site asks for it (decision 0075). */
export const ADMIN_TWO_FACTOR_REQUIRED =
  "Two-factor sign-in is required for admins, editors and working groups' chairs: turn it on first (your settings page, /dashboard/user-settings, or POST /api/dashboard/user/two-factor/setup).";

/** Refusals by access.admin, access.editor and access.chair, which the security log reports (server/middleware/security-log.ts). */
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
    if (!c.get("auth")) throw new AppError("unauthorized", "Unauthenticated.");
    return next();
  }),
  /**
   * A working group's content: admins and editors, and the chairs of a group (issue 36); the
   * service then decides by the item's groups (editsFor), with a 403 that says why.
   */
  chair: accessMiddleware("chair", async (c, next) => {
    const auth = c.get("auth");
    if (!auth) throw new AppError("unauthorized", "Unauthenticated.");
    if (managesContent(auth.user.role.name)) return secretariat(managesContent)(c, next);
    // Only admins, editors and chairs are ever asked for it: this one chairs a group (decision 0086).
    if (auth.twoFactorSetupRequired) throw refuseAdmin(new AppError("forbidden", ADMIN_TWO_FACTOR_REQUIRED));
    // Refused as the secretariat's routes refuse, into the security log (server/middleware/security-log.ts).
    if (!editsAnything(editsFor(auth))) throw refuseAdmin(new AppError("forbidden", "This action is unauthorized."));
    // A chair's successful change is seen by the group's members: the shared renders move on.
    c.set("publishes", true);
    return next();
  }),
  /** The secretariat's content: news, pages, meetings, the library (admins and editors; issue 36). */
  editor: accessMiddleware("editor", secretariat(managesContent)),
  admin: accessMiddleware(
    "admin",
    secretariat((role) => role === "admin"),
  ),
};

/** The guard of the secretariat's routes: signed in, a role `allowed` takes, two-factor on when the site asks. */
function secretariat(allowed: (role: RoleName) => boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const auth = c.get("auth");
    if (!auth) throw refuseAdmin(new AppError("unauthorized", "Unauthenticated."));
    if (!allowed(auth.user.role.name)) {
      throw refuseAdmin(new AppError("forbidden", "This action is unauthorized."));
    }
    if (auth.twoFactorSetupRequired) throw refuseAdmin(new AppError("forbidden", ADMIN_TWO_FACTOR_REQUIRED));
    return next();
  };
}

/** The signed-in caller of a route declared access.member or access.admin (which already refused everyone else). */
export function currentAuth(c: Context<AppEnv>): Authenticated {
  const auth = c.get("auth");
  if (!auth) throw new AppError("unauthorized", "Unauthenticated.");
  return auth;
}

/**
 * Bodies parsed so far, by request: the method override reads a body to find
 * `_method` and hands the parsed result on to the route, which never reads it twice.
 */
const parsedBodies = new WeakMap<Request, Promise<ParsedBody>>();

/**
 * The body as parsed by parseBody, read at most once per request (the options of the first
 * reader apply: the method override passes the spooling of the routes it may dispatch to).
 * Whoever reads a body calls releaseBody once the request is done with it.
 */
export function parsedBodyOf(
  request: Request,
  accepts?: readonly Encoding[],
  options?: ParseOptions,
): Promise<ParsedBody> {
  let parsed = parsedBodies.get(request);
  if (!parsed) {
    parsed =
      request.method === "GET" || request.method === "HEAD"
        ? Promise.resolve({ body: {} })
        : parseBody(request, accepts, options);
    parsedBodies.set(request, parsed);
  }
  return parsed;
}

/**
 * Removes the temporary files of the request's spooled uploads, if its body was read with
 * spooling (a no-op otherwise, and when called again). A body that failed to parse left none.
 */
export async function releaseBody(request: Request): Promise<void> {
  const parsed = parsedBodies.get(request);
  if (!parsed) return;
  const { cleanup } = await parsed.catch((): Partial<ParsedBody> => ({}));
  await cleanup?.();
}

/** Hands an already parsed body to the request it is dispatched as (see the method override). */
export function attachParsedBody(request: Request, parsed: ParsedBody): void {
  parsedBodies.set(request, Promise.resolve(parsed));
}

/**
 * The request body as a plain object, in any encoding the route accepts
 * (all three unless it says otherwise; server/api/body.ts).
 * Call it after the route's access check: nothing is read from a caller the route refuses.
 */
export async function readBody(
  c: Context<AppEnv>,
  accepts?: readonly Encoding[],
  options?: ParseOptions,
): Promise<Body> {
  const { body, method } = await parsedBodyOf(c.req.raw, accepts, options);
  const wanted = method?.toUpperCase();
  // A `_method` that no route at this path answers to: refused, never done as the POST it came as.
  if (c.req.method === "POST" && wanted && OVERRIDABLE_METHODS.has(wanted)) {
    throw methodNotAllowed(wanted, c.get("allowedMethods") ?? ["POST"]);
  }
  return body;
}

export function ok(c: Context, data: Record<string, unknown> = {}, status: ContentfulStatusCode = 200) {
  return c.json({ status: "success", ...data }, status);
}

/** 405 with the Allow header (HEAD wherever GET is allowed). */
export function methodNotAllowed(method: string, allow: string[]): AppError {
  return new AppError("method_not_allowed", `The ${method} method is not supported for this route.`, {
    allow: allow.includes("GET") ? [...allow, "HEAD"] : allow,
  });
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

/**
 * The files of a list field (`images[]`, SPEC §3 'Form helper rules'): none when absent or an
 * empty value ("no images"); anything that is not a file is a 422 beside the field.
 */
export async function uploadedImages(body: Body, field = "images"): Promise<Uint8Array[]> {
  const value = body[field];
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const files: Uint8Array[] = [];
  for (const item of items) {
    if (item === "") continue;
    if (!(item instanceof File)) throw invalidInput({ [field]: ["Each image must be a file."] });
    if (item.size > 0) files.push(new Uint8Array(await item.arrayBuffer()));
  }
  return files;
}

/** A positive integer id parameter of a route (`:id` unless named); anything else is the given not-found. */
export function idParam(c: Context<AppEnv>, notFound: string, name = "id"): number {
  const id = parseId(c.req.param(name));
  if (id === null) throw new AppError("not_found", notFound);
  return id;
}

/** Whose content the caller may change: 'all' for admins and editors, a chair's groups (core/access editsFor). */
export function editsOf(c: Context<AppEnv>) {
  return editsFor(c.get("auth"));
}

/** Who is asking, as the read services take it: members' access (core/access/access.ts), and whether an admin. */
export function viewerOf(c: Context<AppEnv>): ReturnType<typeof viewerOfAuth> {
  return viewerOfAuth(c.get("auth"));
}

/** The uploaded file of a multipart field, if one was sent (its content is checked by the service). */
export function uploadedFile(body: Body, field: string): File | null {
  const file = body[field];
  if (file === undefined || file === "" || file === null) return null;
  if (!(file instanceof File)) throw invalidInput({ [field]: ["The file must be a file."] });
  return file.size > 0 || file.name ? file : null;
}
