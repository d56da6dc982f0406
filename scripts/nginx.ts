import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { installDebianPackage } from "./debian-package";

/**
 * nginx for the tests that put a real reverse proxy in front of the built
 * server, found or installed the way Chromium is (scripts/browser.ts):
 * a system nginx, else Debian's package with apt-get when we are root.
 */
const CANDIDATES = ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx"];

export function findNginx(): string | null {
  return CANDIDATES.find((file) => fs.existsSync(file)) ?? null;
}

export function ensureNginx(log: (message: string) => void = console.log): string | null {
  const found = findNginx();
  if (found) return found;
  if (!installDebianPackage("nginx", log)) {
    log("No nginx found and it could not be installed (root and apt-get needed): the proxy test will fail.");
    return null;
  }
  // The package starts a server on port 80 with its default site; ours run with their own config.
  spawnSync("sh", ["-c", "nginx -s stop 2>/dev/null || true"]);
  return findNginx();
}

/** A self-signed certificate for `name` (an IP address gets it as its subjectAltName), written as cert.pem and key.pem in `dir`. */
export function selfSignedCertificate(dir: string, name: string): { certificate: string; key: string } {
  const certificate = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  const altName = /^[\d.]+$/.test(name) ? ["-addext", `subjectAltName=IP:${name}`] : [];
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      `/CN=${name}`,
      ...altName,
      "-keyout",
      key,
      "-out",
      certificate,
    ],
    { stdio: "ignore" },
  );
  return { certificate, key };
}

/**
 * The session cookie under either of its names (core/auth/auth.cookie.ts: `__Host-auth.session` over https,
 * `auth.session` over http): nginx's `$cookie_…` variables cannot name a dot, so a map finds it.
 */
const SESSION_COOKIE_PATTERN = String.raw`"~(^|;)\s*(__Host-)?auth\.session="`;

/** Where the reference configuration is written (docs/deploy/), and what it stands for. */
export const REFERENCE_CONFIG_FILE = "docs/deploy/nginx-masthead.conf";

const indent = (text: string, spaces: number) =>
  text
    .split("\n")
    .map((line) => (line ? `${" ".repeat(spaces)}${line}` : line))
    .join("\n");

/** The app processes, with keep-alive connections to them. */
function upstreamBlock(upstreams: string[]): string {
  return `upstream masthead {
${upstreams.map((address) => `    server ${address} max_fails=1 fail_timeout=2s;`).join("\n")}
    keepalive 16;
    # Shorter than the app's keep-alive timeout (5 s, server/shutdown.ts), so nginx never reuses a connection the app is closing.
    keepalive_timeout 4s;
}`;
}

/** nginx's cache of anonymous pages (decision 0031): its zone, and what makes a request personal. */
function pageCacheZone(path: string, maxSize: string): string {
  return `# Anonymous pages, kept as long as the app's Cache-Control says (s-maxage: PAGE_CACHE_S_MAXAGE).
proxy_cache_path ${path} levels=1:2 keys_zone=masthead_pages:10m max_size=${maxSize} inactive=10m use_temp_path=off;

# Signed in: the session cookie (__Host-auth.session over https, auth.session over http;
# nginx's $cookie_ variables cannot name a dot).
map $http_cookie $masthead_session {
    default 0;
    ${SESSION_COOKIE_PATTERN} 1;
}`;
}

/**
 * The location that forwards to the app as a reverse proxy must: the
 * visitor's Host, the scheme and the client address in X-Forwarded-*,
 * keep-alive to the upstream, the next process when one refuses or drops a
 * request it had not answered; with `cache`, anonymous pages from nginx's
 * cache (never a signed-in caller's, never into it either).
 */
function proxyLocation(options: { cache: boolean; upstreamHeader?: boolean }): string {
  const cache = `

    proxy_cache masthead_pages;
    proxy_cache_key $scheme$host$request_uri;
    # No proxy_cache_valid: an answer is kept only when its own Cache-Control allows it (s-maxage), and the app
    # allows it for anonymous pages alone; private, no-store and Set-Cookie answers are never kept.
    proxy_cache_bypass $masthead_session $http_authorization;
    proxy_no_cache $masthead_session $http_authorization;
    proxy_cache_revalidate on;
    proxy_cache_lock on;
    proxy_cache_use_stale updating error timeout http_502 http_503;
    proxy_cache_background_update on;
    add_header X-Cache-Status $upstream_cache_status always;`;
  return `location / {
    proxy_pass http://masthead;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_set_header X-Forwarded-Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    # A process that refuses or drops a request it has not answered (a restart's SIGTERM, a crash) hands it to
    # the next. Without non_idempotent, a POST is handed on only if it was never sent: one that may have been
    # applied is not applied twice.
    proxy_next_upstream error timeout http_502 http_503;
    proxy_next_upstream_tries 3;${options.cache ? cache : ""}${
      options.upstreamHeader
        ? "\n    # Tests only: which process answered.\n    add_header X-Upstream $upstream_addr always;"
        : ""
    }
}`;
}

/**
 * A self-contained nginx configuration (its own pid, logs and temp folders under
 * `prefix`) on `listenPort`, forwarding to the app servers (see proxyLocation):
 * TLS with `tls`, plain HTTP on loopback without; nginx's page cache under
 * `prefix` with `cache` (the cluster, decision 0031).
 */
export function proxyConfig(options: {
  prefix: string;
  listenPort: number;
  upstreams: string[];
  /** TLS with this certificate, and HTTP/2 as a public site serves it (docs/deploy/nginx-masthead.conf). */
  tls?: { certificate: string; key: string };
  clientMaxBodySize?: string;
  cache?: boolean;
  /** Adds X-Upstream (the address of the process that answered) for the tests. */
  upstreamHeader?: boolean;
}): string {
  const { prefix, listenPort, upstreams, tls } = options;
  const cache = options.cache ?? false;
  return `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${prefix}/access.log;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  client_max_body_size ${options.clientMaxBodySize ?? "12m"};

${indent(upstreamBlock(upstreams), 2)}
${cache ? `\n${indent(pageCacheZone(`${prefix}/cache`, "256m"), 2)}\n` : ""}
  server {
    listen 127.0.0.1:${listenPort}${tls ? " ssl http2" : ""};
${tls ? `    ssl_certificate ${tls.certificate};\n    ssl_certificate_key ${tls.key};\n` : ""}
${indent(proxyLocation({ cache, upstreamHeader: options.upstreamHeader }), 4)}
  }
}
`;
}

/**
 * The reference for operators (docs/deploy/nginx-masthead.conf): what the
 * cluster tests run (the same upstream, cache and location), with TLS in
 * front as a public site has it. A site file, read inside nginx's http block.
 */
export function referenceConfig(): string {
  return `# Masthead behind nginx: the upstream, page cache and location that \`npm run cluster\` and the
# cluster tests (tests/cluster) run, plus the TLS a public site adds. Written by scripts/nginx.ts
# (\`npm run cluster -- --write-reference\`); decisions 0010, 0012 and 0031 say why each line is there.
#
# A site file: put it in /etc/nginx/sites-enabled/ (read inside nginx's http block), then change
# server_name, the certificate paths and the app processes' addresses. Each process runs
# \`npm start\` with its own PORT, the same DATABASE_URL (PostgreSQL) and shared storage, and
# BASE_URL=https://www.example.org, TRUST_PROXY=true.

${upstreamBlock(["127.0.0.1:3001", "127.0.0.1:3002"])}

${pageCacheZone("/var/cache/nginx/masthead", "1g")}

server {
    listen 80;
    listen [::]:80;
    server_name www.example.org;
    return 301 https://$host$request_uri;
}

server {
    # nginx 1.25 and later: \`listen 443 ssl;\` and \`http2 on;\`.
    listen 443 ssl http2;
    listen [::]:443 ssl http2;
    server_name www.example.org;
    ssl_certificate /etc/letsencrypt/live/www.example.org/fullchain.pem;
    ssl_certificate_key /etc/letsencrypt/live/www.example.org/privkey.pem;
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:masthead_tls:10m;
    # Above PAPER_MAX_BYTES (50 MiB by default): the app enforces the real limit of each route.
    client_max_body_size 60m;

${indent(proxyLocation({ cache: true }), 4)}
}
`;
}
