import fs from "node:fs";
import http from "node:http";
import path from "node:path";

/**
 * The baseline of `npm run bench`: a bare node:http server that answers each
 * benchmarked request with the bytes the app sent for it, held in memory.
 *
 *   node scripts/bench/static-server.mjs <manifest.json> <port> [host]
 *
 * The manifest lists { method, path, bearer, status, headers, file } per route, file
 * relative to the manifest; bearer routes answer requests that carry an Authorization
 * header, so one path can be measured signed in and anonymous. GET /readyz answers 200 unless a route claims it.
 */
const [manifestFile, port, host = "127.0.0.1"] = process.argv.slice(2);
if (!manifestFile || !port) {
  console.error("usage: node static-server.mjs <manifest.json> <port> [host]");
  process.exit(2);
}

const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
const routes = new Map();
routes.set("GET /readyz ", { status: 200, headers: { "Content-Type": "text/plain" }, body: Buffer.from("ok") });
for (const route of manifest.routes) {
  const body = fs.readFileSync(path.resolve(path.dirname(manifestFile), route.file));
  routes.set(`${route.method} ${route.path} ${route.bearer ? "bearer" : ""}`, {
    status: route.status,
    headers: route.headers,
    body,
  });
}
for (const route of routes.values()) route.headers = { ...route.headers, "Content-Length": String(route.body.length) };

const server = http.createServer((request, response) => {
  const route = routes.get(`${request.method} ${request.url} ${request.headers.authorization ? "bearer" : ""}`);
  if (!route) {
    response.writeHead(404, { "Content-Type": "text/plain" });
    response.end("Not found");
    return;
  }
  response.writeHead(route.status, route.headers);
  response.end(route.body);
});
server.listen(Number(port), host);
