import zlib from "node:zlib";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestContext, type TestContext } from "../support/app";
import { declaredRoutes } from "../support/declared-routes";

let t: TestContext;
// biome-ignore lint/suspicious/noExplicitAny: the document is checked against the OpenAPI schema below
let doc: any;
beforeAll(async () => {
  t = await createTestContext();
  const res = await call(t.app, "GET", "/api/openapi.json");
  expect(res.status).toBe(200);
  doc = res.json;
});
afterAll(async () => t.close());

/** The router's `:id` (or `:url{.+}`) is the document's `{id}`. */
const documentPath = (path: string) => `/api${path.replace(/:([A-Za-z_]\w*)(\{[^}]*\})?/g, "{$1}")}`;

type Operation = {
  "x-access": string;
  security: Record<string, string[]>[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
};
const operation = (method: string, path: string): Operation | undefined =>
  doc.paths?.[documentPath(path)]?.[method.toLowerCase()];

// biome-ignore lint/suspicious/noExplicitAny: a JSON schema of the document
type Schema = any;
/** A schema with its `$ref` followed to the component it names. */
const resolved = (schema: Schema): Schema =>
  typeof schema?.$ref === "string" ? resolved(doc.components.schemas[schema.$ref.split("/").pop()]) : schema;
/** The JSON schema of an operation's success answer. */
const answer = (method: string, path: string, status = "200"): Schema =>
  operation(method, path)?.responses[status]?.content?.["application/json"]?.schema;

/**
 * Where a schema (and what it contains, through references) is the empty schema `{}`,
 * which says nothing of the value: as paths such as `properties.data.items`.
 */
function undescribed(schema: Schema, at = "", seen = new Set<string>()): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  if (typeof schema.$ref === "string") {
    if (seen.has(schema.$ref)) return [];
    return undescribed(resolved(schema), `${at}→${schema.$ref.split("/").pop()}`, new Set(seen).add(schema.$ref));
  }
  const { description: _, example: __, ...rest } = schema;
  if (Object.keys(rest).length === 0) return [at || "(the answer)"];
  const inner: [string, Schema][] = [
    ...Object.entries(schema.properties ?? {}).map(([key, value]): [string, Schema] => [`properties.${key}`, value]),
    ...(schema.items ? [["items", schema.items] as [string, Schema]] : []),
    ...(schema.additionalProperties !== undefined && schema.additionalProperties !== false
      ? [["additionalProperties", schema.additionalProperties] as [string, Schema]]
      : []),
    ...(["anyOf", "oneOf", "allOf"] as const).flatMap((key) =>
      (schema[key] ?? []).map((value: Schema, i: number): [string, Schema] => [`${key}.${i}`, value]),
    ),
  ];
  return inner.flatMap(([key, value]) => undescribed(value, at ? `${at}.${key}` : key, seen));
}

describe("GET /api/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes every route of the router, with the access the authorization test reads", () => {
    const routes = declaredRoutes(t.runtime);
    expect(routes.length).toBeGreaterThan(30);
    const problems: string[] = [];
    for (const route of routes) {
      const op = operation(route.method, route.path);
      if (!op) problems.push(`${route.method} ${documentPath(route.path)} is missing`);
      else if (op["x-access"] !== route.access) {
        problems.push(`${route.method} ${route.path}: x-access ${op["x-access"]}, router ${route.access}`);
      } else if (route.access === "public" ? op.security.length !== 0 : op.security.length !== 2) {
        problems.push(`${route.method} ${route.path}: security ${JSON.stringify(op.security)}`);
      }
    }
    expect(problems).toEqual([]);
    const documented = Object.values(doc.paths as Record<string, object>).flatMap((item) => Object.keys(item));
    expect(documented.length, "no operation the router does not have").toBe(routes.length);
  });

  it("includes the SPEC §7 calls, with their bodies per encoding", () => {
    for (const [method, path] of [
      ["POST", "/login"],
      ["GET", "/dashboard/user"],
      ["POST", "/dashboard/logout"],
      ["GET", "/search"],
      ["GET", "/page/:url{.+}"],
      ["GET", "/getContactData"],
      ["POST", "/join"],
      ["GET", "/meetings"],
      ["GET", "/getPostBySlug/:slug"],
      ["POST", "/getPosts"],
      ["GET", "/dashboard/news"],
      ["POST", "/dashboard/news"],
      ["PATCH", "/dashboard/news/:id"],
      ["DELETE", "/dashboard/news/:id"],
      ["POST", "/settings/profile/updateAvatar"],
      ["GET", "/dashboard/user/checkValidPass"],
      ["PATCH", "/dashboard/user/settings"],
    ]) {
      expect(operation(method, path), `${method} ${path}`).toBeDefined();
    }
    expect(Object.keys(operation("POST", "/dashboard/news")?.requestBody?.content ?? {}).sort()).toEqual([
      "application/json",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
    ]);
    expect(Object.keys(operation("POST", "/settings/profile/updateAvatar")?.requestBody?.content ?? {})).toEqual([
      "multipart/form-data",
    ]);
    const login = operation("POST", "/login")?.requestBody?.content["application/json"] as {
      schema: { properties: Record<string, unknown>; required: string[] };
    };
    expect(Object.keys(login.schema.properties)).toEqual(expect.arrayContaining(["email", "password", "remember"]));
  });

  it("names the error answers: 401/403 by access, 413/415/422 for bodies, 429 with Retry-After", () => {
    const statuses = (method: string, path: string) => Object.keys(operation(method, path)?.responses ?? {});
    expect(statuses("GET", "/dashboard/users")).toEqual(expect.arrayContaining(["200", "401", "403", "422"]));
    expect(statuses("GET", "/dashboard/user")).toEqual(expect.arrayContaining(["200", "401"]));
    expect(statuses("GET", "/dashboard/user")).not.toContain("403");
    expect(statuses("PATCH", "/dashboard/news/:id")).toEqual(
      expect.arrayContaining(["200", "400", "401", "403", "404", "413", "415", "422"]),
    );
    const limited = operation("POST", "/login")?.responses["429"];
    expect(limited?.headers).toHaveProperty("Retry-After");
    // The public forms: a captcha service that cannot answer is a 503, with Retry-After when it may soon.
    for (const path of ["/join", "/contact"]) {
      expect(operation("POST", path)?.responses["503"]?.headers, path).toHaveProperty("Retry-After");
      // What `started_at` is, and what happens without it, for an API client (decision 0039).
      const body = operation("POST", path)?.requestBody?.content["application/json"] as {
        schema: { properties: Record<string, { description?: string }> };
      };
      const startedAt = body.schema.properties.started_at?.description ?? "";
      expect(startedAt, path).toContain("the value the site issued when it rendered the form");
      expect(startedAt, path).toContain("marked as probable spam");
    }
    const invalid = operation("POST", "/login")?.responses["422"]?.content?.["application/json"]?.schema;
    expect(invalid).toEqual({ $ref: "#/components/schemas/Error" });
    expect(doc.components.schemas.Error.required).toEqual(["status", "message", "errors"]);
  });

  it("describes the posts and users it answers with, field by field", () => {
    const post = resolved(answer("GET", "/getPostBySlug/:slug").properties.data);
    expect(Object.keys(post.properties)).toEqual(
      expect.arrayContaining([
        "id",
        "slug",
        "title",
        "content",
        "author_name",
        "image",
        "image_srcset",
        "published_at",
      ]),
    );
    expect(resolved(answer("POST", "/getPosts").properties.data.items).properties).toHaveProperty("excerpt");
    expect(resolved(answer("GET", "/dashboard/users").properties.data.items).properties.status.enum).toEqual([
      "active",
      "invited",
      "deactivated",
    ]);
    expect(resolved(answer("POST", "/login/two-factor").properties.user).properties.role.properties.name.enum).toEqual([
      "admin",
      "editor",
      "member",
    ]);
    // POST /login answers a session, or (two-factor sign-in, decision 0075) the challenge of its second step.
    const login = answer("POST", "/login").anyOf as Schema[];
    expect(login).toHaveLength(2);
    expect(resolved(login[0]).properties.access_token).toBeDefined();
    expect(resolved(login[1]).properties.status.const ?? resolved(login[1]).properties.status.enum).toEqual(
      expect.anything(),
    );
    expect(JSON.stringify(login[1])).toContain("two_factor_required");
  });

  it("describes every JSON answer: no response schema, nor any part of one, is the empty schema {}", () => {
    const problems: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
      // The document answers itself: its shape is the OpenAPI specification's, not ours to repeat.
      if (path === "/api/openapi.json") continue;
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          for (const [mediaType, content] of Object.entries(response.content ?? {})) {
            for (const at of undescribed(content.schema)) {
              problems.push(`${method.toUpperCase()} ${path} ${status} ${mediaType}: ${at}`);
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("names the entities it answers with as components, none of them nullable in itself", () => {
    const components = doc.components.schemas as Record<string, Schema>;
    for (const name of [
      "PostSummary",
      "Post",
      "PublicUser",
      "AdminUser",
      "AdminPage",
      "PageSummary",
      "SiteSettings",
      "SearchResult",
      "ContentImage",
      "MeetingSummary",
      "Meeting",
      "MeetingImage",
      "Schedule",
      "Sponsor",
      "JoinRequest",
      "MailStatus",
    ]) {
      expect(components, name).toHaveProperty(name);
    }
    // A field that may be null says so where it is used (anyOf [$ref, null]), never in the component.
    const nullable = Object.entries(components)
      .filter(([, schema]) => [schema.type].flat().includes("null"))
      .map(([name]) => name);
    expect(nullable).toEqual([]);
    const meeting = resolved(answer("GET", "/meetings/:slug").properties.event);
    expect(Object.keys(meeting.properties)).toEqual(
      expect.arrayContaining(["slug", "start_date", "images", "schedules", "sponsors", "content"]),
    );
    expect(resolved(answer("GET", "/meetings").properties.data.items).properties.image).toEqual({
      anyOf: [{ $ref: "#/components/schemas/MeetingImage" }, { type: "null" }],
    });
  });

  it("declares the Bearer token and the session cookie", () => {
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }),
      cookieAuth: expect.objectContaining({ type: "apiKey", in: "cookie", name: "auth.session" }),
    });
  });

  it("a declared body is validated once, with the one 422 shape, after the access check", async () => {
    const anonymous = await call(t.app, "PATCH", "/api/dashboard/settings", { json: { "site.name": "" } });
    expect(anonymous.status).toBe(401);
    const bad = await call(t.app, "POST", "/api/login", { json: { email: "", password: 5 } });
    expect(bad.status).toBe(422);
    expect(bad.json).toEqual({
      status: "error",
      message: "The given data was invalid.",
      errors: { email: ["Email is required."], password: [expect.any(String)] },
    });
    const badQuery = await call(t.app, "GET", "/api/meetings?page=0");
    expect(badQuery.status).toBe(422);
    expect(badQuery.json).toEqual({
      status: "error",
      message: "The given data was invalid.",
      errors: { page: ["The page must be 1 or more."] },
    });
  });
});

describe("GET /api/docs", () => {
  it("is an HTML page whose scripts and styles come from our origin, and are served", async () => {
    const res = await t.app.request("/api/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    const assets = [...html.matchAll(/<(?:script|link rel="stylesheet")[^>]+(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset, "same origin, no CDN").toMatch(/^\/api\/docs\/assets\//);
      const served = await t.app.request(asset);
      expect(served.status, asset).toBe(200);
      expect((await served.text()).length, asset).toBeGreaterThan(100);
    }
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect((await t.app.request("/api/docs/assets/other.js")).status).toBe(422);
    // The 1.7 MB bundle is compressed once per process, not per request, and quickly, since its first
    // visitor waits for it: brotli's highest quality took 5.8 s of CPU here (and 17-21 s of waiting
    // in the end-to-end suite), quality 5 0.1 s. The process's CPU time includes zlib's thread pool.
    const bundle = "/api/docs/assets/swagger-ui-bundle.js";
    const cpu = process.cpuUsage();
    const br = await t.app.request(bundle, { headers: { "accept-encoding": "br" } });
    const spent = process.cpuUsage(cpu);
    expect((spent.user + spent.system) / 1000, "ms of CPU for the first brotli answer").toBeLessThan(1000);
    expect(br.headers.get("content-encoding")).toBe("br");
    const decoded = zlib.brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString();
    expect(decoded).toBe(await (await t.app.request(bundle)).text());
    expect(decoded).toContain("SwaggerUIBundle");
  });
});
