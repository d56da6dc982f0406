import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./server";

/**
 * The built server as a TLS-terminating proxy reaches it: plain HTTP on
 * loopback, the public host in Host, the scheme in X-Forwarded-Proto, the
 * browser's https Origin. Every browser form must work; a foreign Origin must not.
 */
const PUBLIC = "https://masthead.test";
const ADMIN = { email: "proxy-admin@masthead.test", password: "proxy admin long password" };

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({
    env: {
      BASE_URL: PUBLIC,
      TRUST_PROXY: "true",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
    },
  });
});

afterAll(async () => {
  await server?.stop();
  server?.cleanup();
});

/** A form post as the browser sends it through the proxy. */
async function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      // fetch sends its own Host; a proxy names the public host in X-Forwarded-Host (or Host, see nginx.test.ts).
      "x-forwarded-host": "masthead.test",
      origin: PUBLIC,
      "sec-fetch-site": "same-origin",
      "x-forwarded-proto": "https",
      "x-forwarded-for": "203.0.113.7",
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

function sessionCookieOf(response: Response): string {
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith("__Host-auth.session="));
  if (!cookie) throw new Error(`no session cookie (status ${response.status})`);
  return cookie.split(";")[0];
}

describe("behind a TLS-terminating proxy", () => {
  it("signs in through the login form, with a Secure __Host- cookie (Path=/, no Domain)", async () => {
    const response = await postForm("/login", { email: ADMIN.email, password: ADMIN.password });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/manager");
    const cookies = response.headers.getSetCookie();
    const cookie = cookies.find((value) => value.startsWith("__Host-auth.session="));
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*Path=\/(;|$)/);
    expect(cookie).not.toMatch(/Domain=/i);
    expect(cookies.some((value) => value.startsWith("auth.session="))).toBe(false);
  });

  it("does not read a session under the plain name over https (it could be planted), and signing out clears both names", async () => {
    const token = sessionCookieOf(await postForm("/login", { email: ADMIN.email, password: ADMIN.password })).split(
      "=",
    )[1];
    const over = (cookie: string) => ({
      "x-forwarded-host": "masthead.test",
      "x-forwarded-proto": "https",
      cookie,
    });
    // A plain `auth.session` may come from a sibling subdomain or an answer over http: session fixation.
    const plain = await fetch(`${server.url}/manager`, { redirect: "manual", headers: over(`auth.session=${token}`) });
    expect(plain.status).toBe(302);
    expect(plain.headers.get("location")).toMatch(/^\/login/);
    const api = await fetch(`${server.url}/api/dashboard/user`, { headers: over(`auth.session=${token}`) });
    expect(api.status).toBe(401);
    // The same token under the __Host- name is the session; a plain one beside it changes nothing.
    const prefixed = over(`auth.session=not-the-session; __Host-auth.session=${token}`);
    expect((await fetch(`${server.url}/manager`, { redirect: "manual", headers: prefixed })).status).toBe(200);
    const out = await postForm("/logout", {}, { cookie: `__Host-auth.session=${token}; auth.session=${token}` });
    const cleared = out.headers.getSetCookie();
    expect(cleared.some((value) => /^__Host-auth\.session=;.*Max-Age=0/.test(value))).toBe(true);
    expect(cleared.some((value) => /^auth\.session=;.*Max-Age=0/.test(value))).toBe(true);
    expect((await fetch(`${server.url}/manager`, { redirect: "manual", headers: prefixed })).status).toBe(302);
  });

  it("reads the plain auth.session name for a request that came over http", async () => {
    const internal = { "x-forwarded-host": new URL(server.url).host, origin: server.url, "x-forwarded-proto": "http" };
    const response = await postForm("/login", { email: ADMIN.email, password: ADMIN.password }, internal);
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith("auth.session="));
    const manager = await fetch(`${server.url}/manager`, {
      redirect: "manual",
      headers: { ...internal, cookie: cookie?.split(";")[0] ?? "" },
    });
    expect(manager.status).toBe(200);
  });

  it("keeps the plain auth.session name for a request that came over http", async () => {
    const response = await postForm(
      "/login",
      { email: ADMIN.email, password: ADMIN.password },
      // The internal address (not the public host), as a trusted proxy forwards plain http.
      { "x-forwarded-host": new URL(server.url).host, origin: server.url, "x-forwarded-proto": "http" },
    );
    expect(response.status).toBe(302);
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith("auth.session="));
    expect(cookie).toBeDefined();
    expect(cookie).not.toMatch(/Secure/i);
  });

  it("signs in through the form's data request (JavaScript on)", async () => {
    const response = await postForm("/login.data", { email: ADMIN.email, password: ADMIN.password });
    expect(response.status).toBe(202);
    expect(sessionCookieOf(response)).toMatch(/^__Host-auth\.session=/);
  });

  it("sends the join form", async () => {
    const response = await postForm("/join", {
      company_name: "Proxy Marine Ltd",
      representative_name: "Pia Proxy",
      email: "pia@proxy-marine.test",
      phone_number: "+44 20 7946 0000",
      page_path: "/",
      started_at: String(Date.now() - 60_000),
      website: "",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/join\/thank-you/);
  });

  it("saves an admin page", async () => {
    const cookie = sessionCookieOf(await postForm("/login", { email: ADMIN.email, password: ADMIN.password }));
    const response = await postForm(
      "/manager/pages/history",
      { title: "History", content: "<p>Founded on the water, behind a proxy.</p>" },
      { cookie },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/manager/pages/history?saved=1");
    const page = await fetch(`${server.url}/api/page/history`, { headers: { "x-forwarded-host": "masthead.test" } });
    expect(await page.text()).toContain("behind a proxy");
  });

  it("still refuses a form posted from another site", async () => {
    const cookie = sessionCookieOf(await postForm("/login", { email: ADMIN.email, password: ADMIN.password }));
    const response = await postForm(
      "/manager/pages/history",
      { title: "Hijacked", content: "<p>Hijacked</p>" },
      { cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    );
    expect(response.status).toBe(403);
    const page = await fetch(`${server.url}/api/page/history`, { headers: { "x-forwarded-host": "masthead.test" } });
    expect(await page.text()).not.toContain("Hijacked");
    const login = await postForm(
      "/login",
      { email: ADMIN.email, password: ADMIN.password },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    );
    expect(login.status).toBe(403);
  });
});
