import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";

/**
 * The baseline of `npm run bench`: a bare node:http server that answers each
 * benchmarked request with the bytes the app sent for it, held in memory.
 *
 *   node scripts/bench/static-server.mjs <manifest.json> <port> [host]
 *
 * The manifest lists { method, path, bearer, status, headers, file, brotli } per route, file
 * relative to the manifest. Routes are keyed by method and path (query included), and
 * by whether the request carries an Authorization header ("bearer" routes), so one path can
 * be measured signed in and anonymous. A route with `brotli: true` also has a br variant: its
 * bytes compressed once here at start (brotli quality 11) and sent with `Content-Encoding: br`
 * to requests whose Accept-Encoding names br, as a server with precompressed pages would.
 * GET /readyz answers 200 unless a route claims it.
 */
const [manifestFile, port, host = "127.0.0.1"] = process.argv.slice(2);
if (!manifestFile || !port) {
  console.error("usage: node static-server.mjs <manifest.json> <port> [host]");
  process.exit(2);
}

const key = (method, url, bearer, br) => `${method} ${url} ${bearer ? "bearer" : ""} ${br ? "br" : ""}`;

const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
const routes = new Map();
routes.set(key("GET", "/readyz", false, false), {
  status: 200,
  headers: { "Content-Type": "text/plain" },
  body: Buffer.from("ok"),
});
for (const route of manifest.routes) {
  const body = fs.readFileSync(path.resolve(path.dirname(manifestFile), route.file));
  routes.set(key(route.method, route.path, route.bearer, false), {
    status: route.status,
    headers: route.headers,
    body,
  });
  if (route.brotli) {
    const compressed = zlib.brotliCompressSync(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    routes.set(key(route.method, route.path, route.bearer, true), {
      status: route.status,
      headers: { ...route.headers, "Content-Encoding": "br", Vary: "Accept-Encoding" },
      body: compressed,
    });
  }
}
for (const route of routes.values()) route.headers = { ...route.headers, "Content-Length": String(route.body.length) };

/** Whether Accept-Encoding names br without q=0. */
function acceptsBrotli(header = "") {
  return header.split(",").some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return name === "br" && (q === undefined || Number(q.slice(2)) > 0);
  });
}

const server = http.createServer((request, response) => {
  const bearer = Boolean(request.headers.authorization);
  const br = acceptsBrotli(request.headers["accept-encoding"]);
  const route =
    (br && routes.get(key(request.method, request.url, bearer, true))) ||
    routes.get(key(request.method, request.url, bearer, false));
  if (!route) {
    response.writeHead(404, { "Content-Type": "text/plain" });
    response.end("Not found");
    return;
  }
  response.writeHead(route.status, route.headers);
  response.end(route.body);
});
server.listen(Number(port), host);
