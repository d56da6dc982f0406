import { spawnSync } from "node:child_process";
import fs from "node:fs";
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

/**
 * A self-contained nginx configuration (its own pid, logs and temp folders under
 * `prefix`) that terminates TLS on `listenPort` and forwards to the app
 * servers as a reverse proxy must: the visitor's Host, the scheme and the
 * client address in X-Forwarded-*, keep-alive to the upstream.
 */
export function proxyConfig(options: {
  prefix: string;
  listenPort: number;
  upstreams: string[];
  tls?: { certificate: string; key: string };
  clientMaxBodySize?: string;
}): string {
  const { prefix, listenPort, upstreams, tls } = options;
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

  upstream masthead {
${upstreams.map((address) => `    server ${address} max_fails=1 fail_timeout=2s;`).join("\n")}
    keepalive 16;
    # Shorter than the app's keep-alive timeout (server/shutdown.ts), so nginx never reuses a connection the app is closing.
    keepalive_timeout 4s;
  }

  server {
    listen 127.0.0.1:${listenPort}${tls ? " ssl" : ""};
${tls ? `    ssl_certificate ${tls.certificate};\n    ssl_certificate_key ${tls.key};\n` : ""}
    location / {
      proxy_pass http://masthead;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
`;
}
