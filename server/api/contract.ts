import { createRoute, OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { accessKey } from "../../core/access/access";
import { pageSchema } from "../../lib/pagination";
import { ALL_ENCODINGS, type Body, type Encoding } from "../../lib/request-body";
import type { SpoolOptions } from "../../lib/spool";
import { fieldErrors, invalidInput, validate } from "../../lib/validation";
import type { AppEnv } from "../env";
import type { AccessMiddleware } from "./http";
import { readBody, releaseBody } from "./http";

/**
 * An API route's contract (rule 1 of the architecture guide): who may call it, its path and query
 * parameters, its body for each encoding it accepts and its answer. The declaration validates the
 * input once and is what `/api/openapi.json` is generated from (@hono/zod-openapi); its access
 * middleware stays the route's first handler, so the authorization test reads it back from the router.
 *
 * The body is declared for the document but parsed by our own reader (server/api/body.ts), after
 * the access check: the library's own body validators buffer the body without our limits.
 */
export type Contract<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** The path as the router knows it, relative to /api: `/dashboard/news/:id`, `/page/:url{.+}`. */
  path: string;
  access: AccessMiddleware;
  summary: string;
  tag: string;
  description?: string;
  params?: P;
  query?: Q;
  body?: {
    schema: B;
    encodings?: readonly Encoding[];
    description?: string;
    /**
     * Large uploads: file parts are streamed to temporary files in `dir` (config.tmpDir), never
     * held in memory, each at most `maxFileBytes` (a larger one is a 413). The route's multipart
     * bodies may then be as large as `maxFileBytes` plus SPOOL_FORM_BYTES for the other fields,
     * even above UPLOAD_MAX_BYTES (server/middleware/body-limit.ts reads it from the route table);
     * every other route keeps UPLOAD_MAX_BYTES. A route opts in with
     * `body: { schema, encodings: ["multipart"], spool: { dir: config.tmpDir, maxFileBytes: config.paperMaxBytes } }`;
     * its handler gets each file as a disk-backed File and moves it into storage with
     * `storage.putFile(key, spooledPath(file))` (lib/spool.ts). Whatever is not moved is removed
     * when the handler is done (success or error), so a handler never cleans up after the parser.
     */
    spool?: SpoolOptions;
  };
  /** The success answer: its status (200 unless said) and schema, JSON unless another media type is named. */
  response: { status?: 200 | 201; schema: z.ZodType; mediaType?: string; description?: string };
  /** Statuses the route may answer besides those its declaration implies (e.g. 404, 409, 429). */
  errors?: readonly ErrorStatus[];
  /**
   * "content": the answer depends only on the path, query and body and on the caller's role, and
   * changes only with the content version (what admins publish) or with time; it is then kept in
   * memory per role (server/cache/answer-cache.ts). Never for answers that differ per user.
   */
  cache?: "content";
};

export type Input<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  /** The body as parsed, before the schema: where uploaded files are read from (the schema only documents them). */
  raw: Body;
};

type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 503 | 507;

/** The one error shape every API error answers with (server/errors.ts builds it). */
export const errorSchema = z
  .object({
    status: z.literal("error"),
    message: z.string(),
    errors: z.record(z.string(), z.array(z.string())).openapi({ description: "Messages by field (422)." }),
  })
  .openapi("Error");

/** `{ status: "success", ... }`: every successful JSON answer (see ok() in http.ts). */
export function success<T extends z.ZodRawShape>(shape: T) {
  return z.object({ status: z.literal("success"), ...shape });
}

/** A page of a list of `item` (lib/pagination), with the address of the next page for loading more. */
export function pageAnswer<T extends z.ZodType>(item: T) {
  return success({ ...pageSchema(item).shape, next_page_url: z.string().nullable() });
}

const MEDIA_TYPES: Record<Encoding, string> = {
  json: "application/json",
  urlencoded: "application/x-www-form-urlencoded",
  multipart: "multipart/form-data",
};

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: "Malformed body (JSON that does not parse, a broken form).",
  401: "Unauthenticated: no valid session cookie or Bearer token.",
  403: "Signed in, but not allowed (admins only).",
  404: "Not found.",
  405: "The method (or the `_method` asked for) is not supported at this path; see `Allow`.",
  409: "Conflict with the stored state.",
  413: "The body is larger than the limit, or a form has too many parts, fields or files.",
  415: "The body is sent in an encoding this route does not accept.",
  422: "The given data was invalid: messages by field in `errors`.",
  429: "Too many attempts; try again after `Retry-After` seconds.",
  503: "A service this route depends on cannot answer just now; with `Retry-After`, try again after that many seconds.",
  507: "The server is out of storage space.",
};

/** The OpenAPI path of a router path: `:id` → `{id}`, `:url{.+}` → `{url}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]\w*)(\{[^}]*\})?/g, "{$1}");
}

/** A router for one area of the API: parameter and query failures answer our one 422. */
export function apiRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw invalidInput(fieldErrors(result.error));
    },
  });
}

/**
 * The body, read by our parser (once, with its limits) and validated against the declared schema.
 * It runs in the route's handler, so after the access check and the parameter and query validators:
 * nothing of the body is read for a request the route refuses.
 */
async function validBody(
  c: Context<AppEnv>,
  body: { schema: z.ZodType; encodings: readonly Encoding[]; spool?: SpoolOptions },
) {
  const raw = await readBody(c, body.encodings, body.spool ? { spool: body.spool } : undefined);
  const parsed = validate(body.schema, raw);
  if (!parsed.success) throw invalidInput(parsed.errors);
  return { body: parsed.data, raw };
}

/**
 * The schema as the document shows it. zod-to-openapi does not know `.catch()` (a field that falls back
 * instead of failing): the document shows the field's own type. Validation uses the schema as declared.
 */
function documented<S extends z.ZodType>(schema: S): S {
  const def = (schema as unknown as { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } }).def;
  if (def.type === "catch" && def.innerType) return documented(def.innerType) as unknown as S;
  if (def.type === "optional" && def.innerType && hasCatch(def.innerType)) {
    return documented(def.innerType).optional() as unknown as S;
  }
  // A transform after a catch: the document shows what is sent, the input side.
  if (def.type === "pipe" && def.in && hasCatch(def.in)) return documented(def.in) as unknown as S;
  if (schema instanceof z.ZodObject) {
    const shape = Object.fromEntries(
      Object.entries(schema.shape).map(([key, field]) => [key, documented(field as z.ZodType)]),
    );
    return z.object(shape) as unknown as S;
  }
  return schema;
}

function hasCatch(schema: z.ZodType): boolean {
  const def = (schema as unknown as { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } }).def;
  if (def.type === "catch") return true;
  const inner = def.innerType ?? def.in;
  return inner !== undefined && hasCatch(inner);
}

function errorResponses(statuses: Iterable<ErrorStatus>) {
  const responses: RouteConfig["responses"] = {};
  for (const status of [...new Set(statuses)].sort()) {
    responses[status] = {
      description: ERROR_DESCRIPTIONS[status],
      content: { "application/json": { schema: errorSchema } },
      ...(status === 429 || status === 503
        ? { headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } } } }
        : status === 405
          ? { headers: { Allow: { description: "The methods this path answers to.", schema: { type: "string" } } } }
          : {}),
    };
  }
  return responses;
}

/** Declares a route on `api`: registers its contract in the document and its handler in the router. */
export function declare<
  P extends z.ZodType = z.ZodObject<Record<string, never>>,
  Q extends z.ZodType = z.ZodObject<Record<string, never>>,
  B extends z.ZodType = z.ZodObject<Record<string, never>>,
>(
  api: OpenAPIHono<AppEnv>,
  contract: Contract<P, Q, B>,
  handler: (c: Context<AppEnv>, input: Input<P, Q, B>) => Response | Promise<Response>,
) {
  const { access, body } = contract;
  const encodings = body?.encodings ?? ALL_ENCODINGS;
  const errors = new Set<ErrorStatus>(contract.errors ?? []);
  if (access.access !== "public") errors.add(401);
  if (access.access === "admin" || access.access === "editor" || access.access === "chair") errors.add(403);
  if (body) for (const status of [400, 413, 415, 422] as const) errors.add(status);
  if (contract.params || contract.query) errors.add(422);
  if (body && contract.method === "post") errors.add(405);
  const response = contract.response;
  const request = {
    ...(contract.params ? { params: contract.params } : {}),
    ...(contract.query ? { query: contract.query } : {}),
  } as RouteConfig["request"];
  const shown = {
    ...(contract.params ? { params: documented(contract.params) } : {}),
    ...(contract.query ? { query: documented(contract.query) } : {}),
  } as RouteConfig["request"];
  const override =
    contract.method === "post"
      ? ""
      : " Clients that can only POST may send a POST with `_method` in the body (or the `X-HTTP-Method-Override` header, or `?_method=`).";
  const document = createRoute({
    method: contract.method,
    path: openApiPath(contract.path),
    tags: [contract.tag],
    summary: contract.summary,
    description: `${contract.description ?? ""}${contract.method === "get" ? "" : override}`.trim() || undefined,
    security: access.access === "public" ? [] : [{ bearerAuth: [] }, { cookieAuth: [] }],
    "x-access": access.access,
    request: {
      ...shown,
      ...(body
        ? {
            body: {
              description:
                [body.description, body.spool ? `Each file may be up to ${body.spool.maxFileBytes} bytes.` : undefined]
                  .filter(Boolean)
                  .join(" ") || undefined,
              // Required when an empty body would not do (a list's filters may all be left out).
              required: !body.schema.safeParse({}).success,
              content: Object.fromEntries(
                encodings.map((encoding) => [MEDIA_TYPES[encoding], { schema: documented(body.schema) }]),
              ),
            },
          }
        : {}),
    },
    responses: {
      [response.status ?? 200]: {
        description: response.description ?? "Success.",
        content: { [response.mediaType ?? "application/json"]: { schema: response.schema } },
      },
      ...errorResponses(errors),
    },
  });
  api.openAPIRegistry.registerPath(document);
  // The handler answers the shapes declared above; the library's typed responses are not used.
  const routeHandler = async (c: Context<AppEnv>) => {
    try {
      const read = body
        ? await validBody(c, { schema: body.schema, encodings, spool: body.spool })
        : { body: {}, raw: {} };
      const valid = (target: string) => (c.req.valid as (target: string) => unknown).call(c.req, target);
      const input = {
        params: (contract.params ? valid("param") : c.req.param()) as z.output<P>,
        query: (contract.query ? valid("query") : {}) as z.output<Q>,
        body: read.body as z.output<B>,
        raw: read.raw,
      };
      // A read, even when it comes as a POST: the content version stays where it is (server/middleware/page-cache.ts).
      if (contract.cache) {
        c.set("readOnly", true);
        c.set("contentAnswer", true);
      }
      // An anonymous GET the page cache will keep (with its headers, in every encoding) skips this cache.
      const answers = contract.cache && !c.get("pageCacheEncodes") ? c.get("answerCache") : undefined;
      if (answers) {
        const url = new URL(c.req.url);
        // What the answer may depend on of the caller: their access (core/access/access.ts), not only their role.
        const key = `${accessKey(c.get("auth"))} ${c.req.method} ${url.pathname}${url.search} ${JSON.stringify(input.body)}`;
        return await answers.answer(key, async () => handler(c, input), c.req.header("Accept-Encoding"));
      }
      return await handler(c, input);
    } finally {
      // Spooled files the handler did not move into storage (an answer streaming one would be cut short).
      await releaseBody(c.req.raw);
    }
  };
  // Read back from the router by declaredRoutes: the body limit and the method override use it before routing.
  const declared = Object.assign(routeHandler, { spool: body?.spool, cache: contract.cache }) as never;
  api.openapi(
    {
      method: contract.method,
      // The router's own pattern (a regular-expression parameter stays as written).
      path: contract.path,
      request,
      responses: {},
      middleware: [access],
      hide: true,
    },
    declared,
  );
}
