import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestContext, type TestContext } from "../support/app";
import { createUser, signIn } from "../support/factories";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ BODY_MAX_BYTES: "2048", UPLOAD_MAX_BYTES: "4096" });
});
afterAll(async () => t.close());

describe("health", () => {
  it("answers /healthz and /readyz", async () => {
    expect((await call(t.app, "GET", "/healthz")).json).toEqual({ status: "ok" });
    const ready = await call(t.app, "GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.json).toMatchObject({ status: "ok", database: t.database.dialect });
  });
});

describe("API errors are JSON, never a stack trace", () => {
  it("404 for an unknown route", async () => {
    const res = await call(t.app, "GET", "/api/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ status: "error", message: "The requested API route does not exist.", errors: {} });
  });

  it("405 with Allow for a wrong method", async () => {
    const res = await call(t.app, "DELETE", "/api/dashboard/user");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(res.json?.status).toBe("error");
  });

  it("400 for malformed JSON", async () => {
    const res = await call(t.app, "POST", "/api/login", {
      body: '{"email":',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: "error", message: "Malformed JSON in the request body." });
  });

  it("413 for a body over the limit, 415 for an unknown content type", async () => {
    const big = await call(t.app, "POST", "/api/login", { json: { email: "a@b.org", password: "x".repeat(5000) } });
    expect(big.status).toBe(413);
    expect(big.json?.status).toBe("error");
    const upload = await call(t.app, "POST", "/api/login", {
      form: { email: "a@b.org", password: "x", file: new Blob([new Uint8Array(8000)]) },
      multipart: true,
    });
    expect(upload.status).toBe(413);
    const xml = await call(t.app, "POST", "/api/login", {
      body: "<login/>",
      headers: { "content-type": "application/xml" },
    });
    expect(xml.status).toBe(415);
  });

  it("honours _method on POST (form, JSON and header)", async () => {
    // DELETE /api/login does not exist, so a 405 proves the override happened.
    const form = await call(t.app, "POST", "/api/login", { form: { _method: "DELETE", email: "a@b.org" } });
    expect(form.status).toBe(405);
    const multipart = await call(t.app, "POST", "/api/login", { form: { _method: "PATCH" }, multipart: true });
    expect(multipart.status).toBe(405);
    const json = await call(t.app, "POST", "/api/login", { json: { _method: "PUT" } });
    expect(json.status).toBe(405);
    const header = await call(t.app, "POST", "/api/login", {
      json: {},
      headers: { "x-http-method-override": "DELETE" },
    });
    expect(header.status).toBe(405);
    // A _method the API does not know is ignored: this is still a POST login.
    const other = await call(t.app, "POST", "/api/login", { json: { _method: "TRACE", email: "", password: "" } });
    expect(other.status).toBe(422);
  });
});

describe("security headers", () => {
  it("sends CSP with a nonce, frame-ancestors none, nosniff and a referrer policy, no HSTS on http", async () => {
    const res = await call(t.app, "GET", "/healthz");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[\w+/=]+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("strict-transport-security")).toBeNull();
    expect(res.headers.get("x-request-id")).toMatch(/^[\w-]{8,}$/);
  });

  it("draws a new 16-byte nonce for every response, across the pool's refills", async () => {
    const nonces = new Set<string>();
    // More responses than the pool holds nonces (256), so that its refill is crossed.
    for (let i = 0; i < 300; i++) {
      const csp = (await call(t.app, "GET", "/healthz")).headers.get("content-security-policy") ?? "";
      const value = /'nonce-([^']+)'/.exec(csp)?.[1] ?? "";
      expect(Buffer.from(value, "base64")).toHaveLength(16);
      nonces.add(value);
    }
    expect(nonces.size).toBe(300);
  });

  it("adds HSTS when BASE_URL is https, and marks the cookie Secure", async () => {
    const https = await createTestContext({ BASE_URL: "https://masthead.example" }, { database: t.database });
    const res = await call(https.app, "GET", "/healthz");
    expect(res.headers.get("strict-transport-security")).toMatch(/max-age=31536000/);
    const { user, password } = await createUser(https.runtime.services);
    // A visitor at the public address: over https, so the cookie is `__Host-` and Secure (decision 0035).
    const login = await call(https.app, "POST", "https://masthead.example/api/login", {
      json: { email: user.email, password },
      headers: { host: "masthead.example" },
    });
    expect(login.headers.get("set-cookie")).toMatch(
      /^__Host-auth\.session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
    );
    expect(login.headers.get("set-cookie")).not.toMatch(/Domain=/i);
    await https.close();
  });

  it("compresses JSON with brotli or gzip when asked", async () => {
    const br = await t.app.request("/api/no-such-thing", { headers: { "accept-encoding": "gzip, br" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    const gzip = await t.app.request("/api/no-such-thing", { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    const plain = await t.app.request("/api/no-such-thing");
    expect(plain.headers.get("content-encoding")).toBeNull();
  });
});

describe("CSRF protection of cookie sessions", () => {
  it("refuses a cross-site cookie POST and accepts a same-origin one", async () => {
    const { cookie } = await signIn(t.runtime.services);
    const evil = await call(t.app, "POST", "/api/dashboard/logout", {
      cookie,
      headers: { origin: "https://evil.example" },
    });
    expect(evil.status).toBe(403);
    const crossSite = await call(t.app, "POST", "/api/dashboard/logout", {
      cookie,
      headers: { origin: "null", "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    const noProvenance = await t.app.request("/api/dashboard/logout", { method: "POST", headers: { cookie } });
    expect(noProvenance.status).toBe(403);
    // The session survived the forged attempts.
    expect((await call(t.app, "GET", "/api/dashboard/user", { cookie })).status).toBe(200);
    const same = await call(t.app, "POST", "/api/dashboard/logout", {
      cookie,
      headers: { origin: "http://localhost:3000" },
    });
    expect(same.status).toBe(200);
  });

  it("exempts Bearer-authenticated clients, which carry no ambient credentials", async () => {
    const { token } = await signIn(t.runtime.services);
    const res = await call(t.app, "POST", "/api/dashboard/logout", {
      token,
      headers: { origin: "https://other-client.example" },
    });
    expect(res.status).toBe(200);
  });

  it("refuses a cross-site login POST (login CSRF)", async () => {
    const res = await call(t.app, "POST", "/api/login", {
      json: { email: "a@b.org", password: "x" },
      headers: { origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
  });
});
