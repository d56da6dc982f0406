import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { negotiateEncoding } from "../middleware/compress";
import { apiRouter, declare } from "./contract";
import { access } from "./http";

/** The files of Swagger UI we serve from our own origin (no CDN; scripts load as 'self' under our CSP). */
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

/** Starts Swagger UI on the document; a file of ours, since no inline script runs under our CSP. */
const INIT = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/api/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    withCredentials: true,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Masthead API reference</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<noscript><p>The API reference needs JavaScript. The document itself is at <a href="/api/openapi.json">/api/openapi.json</a>.</p></noscript>
<div id="swagger-ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/init.js"></script>
</body>
</html>
`;

const require = createRequire(import.meta.url);
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/**
 * Brotli's quality for the assets. Its default (11, the highest) took 23 s of CPU for the 1.7 MB
 * bundle on this two-core machine, and the first visitor of /api/docs waited for it (17-21 s in the
 * end-to-end suite); quality 5 took 0.4 s for 405 KB instead of 359 KB.
 */
const DOCS_BROTLI_QUALITY = 5;
type Encoded = "br" | "gzip" | "identity";
/** The assets as read and as compressed, once per process (the bundle is 1.7 MB; compressing it per request would cost). */
const cache = new Map<string, Promise<Uint8Array>>();
function asset(name: string, encoding: Encoded): Promise<Uint8Array> {
  const key = `${name} ${encoding}`;
  let bytes = cache.get(key);
  if (!bytes) {
    bytes =
      encoding === "identity"
        ? name === "init.js"
          ? Promise.resolve(new TextEncoder().encode(INIT))
          : readFile(path.join(path.dirname(require.resolve("swagger-ui-dist/package.json")), name))
        : asset(name, "identity").then((plain) =>
            encoding === "br"
              ? brotli(plain, {
                  params: {
                    [zlib.constants.BROTLI_PARAM_QUALITY]: DOCS_BROTLI_QUALITY,
                    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: plain.byteLength,
                  },
                })
              : gzip(plain),
          );
    cache.set(key, bytes);
  }
  return bytes;
}

/**
 * GET /api/openapi.json (generated from the routes' declarations, never written by hand) and the
 * human-readable reference at /api/docs. `document()` is called once, on the first request, when
 * every route is declared.
 */
export function docsRoutes(document: () => unknown) {
  const api: OpenAPIHono<AppEnv> = apiRouter();
  const tag = "API reference";
  const cached = { value: undefined as unknown };

  declare(
    api,
    {
      method: "get",
      path: "/openapi.json",
      access: access.public,
      tag,
      summary: "This document (OpenAPI 3.1)",
      response: { schema: z.object({ openapi: z.string() }).loose() },
    },
    (c) => {
      cached.value ??= document();
      return c.json(cached.value as object);
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/docs",
      access: access.public,
      tag,
      summary: "The API reference page",
      response: { schema: z.string(), mediaType: "text/html" },
    },
    (c) => c.html(PAGE),
  );

  declare(
    api,
    {
      method: "get",
      path: "/docs/assets/:file",
      access: access.public,
      tag,
      summary: "The API reference page's scripts and styles",
      params: z.object({ file: z.enum(["init.js", ...Object.keys(ASSETS)]) }),
      response: { schema: z.string(), mediaType: "text/javascript" },
      errors: [404],
    },
    async (c, { params }) => {
      const encoding = negotiateEncoding(c.req.header("accept-encoding")) ?? "identity";
      const bytes = await asset(params.file, encoding);
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": ASSETS[params.file] ?? "text/javascript; charset=utf-8",
        "Cache-Control": "public, max-age=3600",
        Vary: "Accept-Encoding",
        ...(encoding === "identity" ? {} : { "Content-Encoding": encoding }),
      });
    },
  );

  return api;
}
