import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureNginx, proxyConfig, selfSignedCertificate } from "../../scripts/nginx";
import { freePort, type ServerProcess, startServer } from "./server";

/**
 * A real nginx (Debian's package) terminating TLS in front of the built
 * server, as README 'Deploying for more traffic' describes: the browser's
 * forms must work through it, and a foreign origin must not.
 */
const ADMIN = { email: "nginx-admin@masthead.test", password: "nginx admin long password" };

let app: ServerProcess;
let nginx: ChildProcess;
let prefix: string;
let publicOrigin: string;
let certificate: Buffer;

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

/** One HTTPS request through nginx, trusting only our self-signed certificate. */
function request(
  method: string,
  pathname: string,
  options: { form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${publicOrigin}${pathname}`,
      {
        method,
        ca: certificate,
        headers: {
          ...(body
            ? { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)) }
            : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const browserHeaders = () => ({ origin: publicOrigin, "sec-fetch-site": "same-origin" });

function sessionCookie(answer: Answer): string {
  const cookies = answer.headers["set-cookie"] ?? [];
  // Over https the session cookie is `__Host-auth.session` (decision 0035).
  const session = cookies.find((value) => value.startsWith("__Host-auth.session="));
  if (!session) throw new Error(`no session cookie (status ${answer.status}): ${answer.body.slice(0, 200)}`);
  return session.split(";")[0];
}

async function signIn(): Promise<string> {
  return sessionCookie(await request("POST", "/login", { form: ADMIN, headers: browserHeaders() }));
}

beforeAll(async () => {
  const binary = ensureNginx();
  if (!binary) throw new Error("nginx is not installed and could not be installed (apt-get as root).");
  prefix = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-nginx-"));
  selfSignedCertificate(prefix, "127.0.0.1");
  certificate = fs.readFileSync(path.join(prefix, "cert.pem"));
  const listenPort = await freePort();
  publicOrigin = `https://127.0.0.1:${listenPort}`;
  app = await startServer({
    env: {
      BASE_URL: publicOrigin,
      TRUST_PROXY: "true",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
    },
  });
  const config = path.join(prefix, "nginx.conf");
  fs.writeFileSync(
    config,
    proxyConfig({
      prefix,
      listenPort,
      upstreams: [`127.0.0.1:${app.port}`],
      tls: { certificate: path.join(prefix, "cert.pem"), key: path.join(prefix, "key.pem") },
    }),
  );
  nginx = spawn(binary, ["-p", prefix, "-c", config], { stdio: ["ignore", "ignore", "pipe"] });
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      if ((await request("GET", "/healthz")).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      throw new Error(`nginx did not come up: ${fs.readFileSync(path.join(prefix, "error.log"), "utf8")}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
});

afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((resolve) => nginx.on("exit", resolve));
    nginx.kill("SIGTERM");
    await exited;
  }
  await app?.stop();
  app?.cleanup();
  if (prefix) fs.rmSync(prefix, { recursive: true, force: true });
});

describe("through nginx terminating TLS", () => {
  it("offers HTTP/2 to browsers, as docs/deploy/nginx-masthead.conf does", async () => {
    const url = new URL(publicOrigin);
    const negotiated = await new Promise<string | false>((resolve, reject) => {
      const socket = tls.connect(
        { host: url.hostname, port: Number(url.port), ALPNProtocols: ["h2", "http/1.1"], rejectUnauthorized: false },
        () => {
          resolve(socket.alpnProtocol ?? false);
          socket.end();
        },
      );
      socket.on("error", reject);
    });
    expect(negotiated).toBe("h2");
  });

  it("serves pages over HTTPS with HSTS", async () => {
    const home = await request("GET", "/");
    expect(home.status).toBe(200);
    expect(home.headers["strict-transport-security"]).toContain("max-age=");
  });

  it("signs in through the login form, the cookie Secure, and the session works on the next page", async () => {
    const answer = await request("POST", "/login", { form: ADMIN, headers: browserHeaders() });
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe("/manager");
    expect((answer.headers["set-cookie"] ?? []).join("\n")).toMatch(/auth\.session=[^;]+;.*Secure/i);
    const manager = await request("GET", "/manager", { headers: { cookie: sessionCookie(answer) } });
    expect(manager.status).toBe(200);
  });

  it("sends the join form", async () => {
    const answer = await request("POST", "/join", {
      form: {
        company_name: "Nginx Navigation AS",
        representative_name: "Nina Nginx",
        email: "nina@nginx-navigation.test",
        phone_number: "+47 22 00 00 00",
        page_path: "/",
        started_at: String(Date.now() - 60_000),
        website: "",
      },
      headers: browserHeaders(),
    });
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toMatch(/^\/join\/thank-you/);
  });

  it("saves an admin page", async () => {
    const cookie = await signIn();
    const answer = await request("POST", "/manager/pages/collaboration", {
      form: { title: "Collaboration", content: "<p>Saved through nginx.</p>" },
      headers: { ...browserHeaders(), cookie },
    });
    expect(answer.status).toBe(302);
    expect((await request("GET", "/api/page/collaboration")).body).toContain("Saved through nginx.");
  });

  it("refuses a form posted from another site", async () => {
    const cookie = await signIn();
    const answer = await request("POST", "/manager/pages/collaboration", {
      form: { title: "Collaboration", content: "<p>Forged</p>" },
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site", cookie },
    });
    expect(answer.status).toBe(403);
    expect((await request("GET", "/api/page/collaboration")).body).not.toContain("Forged");
  });
});
