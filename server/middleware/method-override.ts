import type { MiddlewareHandler } from "hono";
import { OVERRIDABLE_METHODS } from "../../lib/request-body";
import type { SpoolOptions } from "../../lib/spool";
import { type Access, access, attachParsedBody, methodNotAllowed, parsedBodyOf, releaseBody } from "../api/http";
import type { AppEnv } from "../env";
import { memo } from "./page-cache";

/** An API route as the router declares it: method, path pattern (relative to /api) and access. */
export type DeclaredRoute = {
  method: string;
  test: RegExp;
  access: Access;
  /** Where its file parts are spooled, when it takes large uploads (contract `body.spool`). */
  spool?: SpoolOptions;
  /** `cache: "content"` in its contract: the answer depends only on the request and the caller's role. */
  cache?: "content";
};

// Every admin may do what an editor may (core/access/access.ts managesContent), so editor is the looser.
const LOOSENESS: Record<Access, number> = { public: 0, member: 1, chair: 2, editor: 3, admin: 4 };

/** Sends the request on to the API with the caller's context; answers as the API does. */
export type Dispatch = (request: Request, variables: AppEnv["Variables"]) => Promise<Response>;

/**
 * Lets clients that can only POST (HTML forms, SPEC §7's multipart calls) ask
 * for PATCH/PUT/DELETE, with the X-HTTP-Method-Override header, `?_method=`
 * or a `_method` body field — deciding from the route table first, so that
 * nothing is read that no route would accept:
 * - a path with no PATCH/PUT/DELETE route is a plain POST (the body is never touched here);
 * - the header or query names the method up front: dispatched with the body unread;
 * - otherwise the caller must be one that some route at this path accepts (401/403
 *   before a byte of the body is read), and the body is parsed once, with its limits,
 *   and handed on parsed to the route that answers.
 */
export function methodOverride(routes: DeclaredRoute[], dispatch: Dispatch): MiddlewareHandler<AppEnv> {
  // What the route table says of a path, worked out once per path (every POST to the API asks).
  const routesAt = memo((path: string) => {
    const atPath = routes.filter((route) => route.test.test(path) && route.method !== "GET");
    const targets = new Set(
      atPath.filter((route) => OVERRIDABLE_METHODS.has(route.method)).map((route) => route.method),
    );
    const allowed = [...new Set(routes.filter((route) => route.test.test(path)).map((route) => route.method))];
    return { atPath, targets, allowed };
  });
  return async (c, next) => {
    if (c.req.method !== "POST") return next();
    const { atPath, targets, allowed } = routesAt(c.req.path.replace(/^\/api/, "") || "/");
    // A copy: what the route table says is shared by every request to this path.
    c.set("allowedMethods", [...allowed]);
    const named = (c.req.header("x-http-method-override") ?? c.req.query("_method"))?.toUpperCase();
    if (named !== undefined && OVERRIDABLE_METHODS.has(named) && !targets.has(named)) {
      throw methodNotAllowed(named, allowed);
    }
    if (targets.size === 0) return next();

    let request: Request;
    if (named !== undefined && targets.has(named)) {
      request = new Request(c.req.url, {
        method: named,
        headers: c.req.raw.headers,
        body: c.req.raw.body,
        signal: c.req.raw.signal,
        // @ts-expect-error Node's fetch needs duplex for a streamed body; the DOM typings do not know it
        duplex: "half",
      });
    } else {
      const loosest = atPath.reduce((a, b) => (LOOSENESS[b.access] < LOOSENESS[a.access] ? b : a)).access;
      await access[loosest](c, async () => {});
      // A route here that takes large uploads (whose limit let the body in) gets its files spooled.
      const spool = atPath
        .flatMap((route) => (route.spool ? [route.spool] : []))
        .reduce<SpoolOptions | undefined>((a, b) => (a && a.maxFileBytes >= b.maxFileBytes ? a : b), undefined);
      const parsed = await parsedBodyOf(c.req.raw, undefined, spool ? { spool } : undefined);
      const wanted = parsed.method?.toUpperCase();
      if (wanted === undefined || !targets.has(wanted)) {
        try {
          return await next();
        } finally {
          await releaseBody(c.req.raw);
        }
      }
      const headers = new Headers(c.req.raw.headers);
      headers.delete("content-length");
      request = new Request(c.req.url, { method: wanted, headers, signal: c.req.raw.signal });
      attachParsedBody(request, parsed);
    }
    try {
      const variables = c.var;
      const response = await dispatch(request, variables);
      // A member's change that publishes (a company profile) moves the content version as the POST's own would.
      if (variables.publishes) c.set("publishes", true);
      // Set after the dispatch, which logs the request's security events itself (server/app.ts).
      c.set("effectiveMethod", request.method);
      return response;
    } finally {
      // The temporary files of a body parsed here (a no-op when it was passed on unread).
      await releaseBody(c.req.raw);
    }
  };
}
