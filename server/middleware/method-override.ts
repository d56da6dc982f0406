import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";

const OVERRIDABLE = new Set(["PATCH", "PUT", "DELETE"]);

async function readMethodField(request: Request): Promise<string | null> {
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.startsWith("application/json")) {
      const body = (await request.json()) as unknown;
      return body && typeof body === "object" && "_method" in body
        ? String((body as { _method: unknown })._method)
        : null;
    }
    if (type.startsWith("multipart/form-data") || type.startsWith("application/x-www-form-urlencoded")) {
      const value = (await request.formData()).get("_method");
      return typeof value === "string" ? value : null;
    }
  } catch {
    // A malformed body is reported by the route that reads it.
  }
  return null;
}

/**
 * Lets clients that can only POST (HTML forms, the spec's multipart calls)
 * ask for PATCH/PUT/DELETE with a `_method` field or X-HTTP-Method-Override.
 * The request is dispatched again with the new method and the same body.
 */
export function methodOverride(
  dispatch: (request: Request) => Response | Promise<Response>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== "POST") return next();
    const header = c.req.header("x-http-method-override");
    const body = await c.req.raw.clone().arrayBuffer();
    const probe = new Request(c.req.url, { method: "POST", headers: c.req.raw.headers, body });
    const wanted = (header ?? (await readMethodField(probe)) ?? "").toUpperCase();
    if (!OVERRIDABLE.has(wanted)) return next();
    return dispatch(new Request(c.req.url, { method: wanted, headers: c.req.raw.headers, body }));
  };
}
