import { Writable } from "node:stream";
import pino from "pino";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { requestContext } from "../../app/context";
import { action as loginAction } from "../../app/routes/account/login";
import { action as settingsAction } from "../../app/routes/account/user-settings";
import { RESET_REQUEST_MIN_MS } from "../../core/accounts/password-reset.service";
import { PASSWORD_TOO_COMMON, PASSWORD_TOO_GUESSABLE } from "../../core/accounts/password-rules";
import type { Authenticated } from "../../core/auth/auth.service";
import type { RequestContext } from "../../core/request-context";
import { createServices } from "../../core/services";
import { localStorage } from "../../lib/storage";
import { createApp } from "../../server/app";
import { PAGE_CACHE_HEADER } from "../../server/middleware/page-cache";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { createUser, PASSWORD, signIn } from "../support/factories";
import { pageSite } from "../support/page-site";

// Issue 11 §8 (sessions and passwords) and the sign-in lines of §9; decision 0017.

let now = new Date("2026-05-04T08:00:00.000Z");
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ NODE_ENV: "production" }, { clock: () => now });
});
afterAll(async () => t.close());
beforeEach(async () => {
  now = new Date(now.getTime() + 86400_000);
  await t.database.db.deleteFrom("rate_limits").execute();
});

const advance = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};
const me = (token: string) => call(t.app, "GET", "/api/dashboard/user", { token });
const apiLogin = (json: Record<string, unknown>, options: { cookie?: string; token?: string } = {}) =>
  call(t.app, "POST", "/api/login", { json, ...options });
const tokenOf = (res: Awaited<ReturnType<typeof call>>) => res.json?.access_token as string;

/** What the Hono server hands a page's loader or action (server/app.ts). */
function pageContext(auth: Authenticated | null, sessionToken: string | null, logger = t.runtime.logger) {
  const context = new RouterContextProvider();
  const value: RequestContext = {
    services: t.runtime.services,
    auth,
    sessionToken,
    client: { ip: "192.0.2.44", userAgent: "vitest" },
    nonce: "",
    requestId: "page-request-1",
    secureCookies: false,
    origin: ORIGIN,
    logger,
    publicConfig: { recaptchaSiteKey: null, gtmId: null },
  };
  context.set(requestContext, value);
  return context;
}

function formPost(path: string, fields: Record<string, string>) {
  return new Request(`${ORIGIN}${path}`, { method: "POST", body: new URLSearchParams(fields) });
}

type ActionArgs = Parameters<typeof loginAction>[0];
async function pageLogin(fields: Record<string, string>, earlier: string | null = null) {
  const auth = earlier ? await t.runtime.services.auth.authenticate(earlier) : null;
  const result = await loginAction({
    request: formPost("/login", fields),
    context: pageContext(auth, earlier),
    params: {},
  } as unknown as ActionArgs);
  return result instanceof Response ? result : null;
}
const cookieToken = (response: Response | null) =>
  /auth\.session=([\w-]+)/.exec(response?.headers.get("set-cookie") ?? "")?.[1] ?? null;

describe("passwords are used exactly as typed", () => {
  const SPACED = "  harbour lights at dusk  ";

  it("signs in through the API with the spaces, and not without them", async () => {
    const { user } = await createUser(t.runtime.services, { password: SPACED });
    expect((await apiLogin({ email: ` ${user.email.toUpperCase()} `, password: SPACED })).status).toBe(200);
    expect((await apiLogin({ email: user.email, password: SPACED.trim() })).status).toBe(401);
  });

  it("signs in through the login page's action with the spaces, and not without them", async () => {
    const { user } = await createUser(t.runtime.services, { password: SPACED });
    const signedIn = await pageLogin({ email: user.email, password: SPACED, redirect: "/dashboard" });
    expect(signedIn?.status).toBe(302);
    expect(signedIn?.headers.get("location")).toBe("/dashboard");
    expect(await t.runtime.services.auth.authenticate(cookieToken(signedIn))).toMatchObject({ user: { id: user.id } });
    expect(await pageLogin({ email: user.email, password: SPACED.trim() })).toBeNull();
  });

  it("keeps the spaces of a new password chosen in the settings", async () => {
    const member = await signIn(t.runtime.services);
    const changed = await call(t.app, "PATCH", "/api/dashboard/user/settings", {
      token: member.token,
      json: { password: PASSWORD, new_password: SPACED, confirm_new_password: SPACED },
    });
    expect(changed.status).toBe(200);
    expect((await apiLogin({ email: member.user.email, password: SPACED })).status).toBe(200);
    expect((await apiLogin({ email: member.user.email, password: SPACED.trim() })).status).toBe(401);
  });
});

describe("idle timeout", () => {
  it("ends a session without Remember me after 2 hours without a request", async () => {
    const { user } = await createUser(t.runtime.services);
    const token = tokenOf(await apiLogin({ email: user.email, password: PASSWORD }));
    // Requests keep it alive past the 2 hours...
    for (let i = 0; i < 4; i++) {
      advance(2 * 3600 - 90);
      expect((await me(token)).status).toBe(200);
    }
    // ...until none comes for 2 hours.
    advance(2 * 3600 + 1);
    expect((await me(token)).status).toBe(401);
    // Ended for good, not only refused.
    expect(await t.database.db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute()).toEqual(
      [],
    );
  });

  it("ends an admin's session without Remember me after 30 minutes without a request; a member's lives on", async () => {
    const { user: admin } = await createUser(t.runtime.services, { role: "admin" });
    const { user: member } = await createUser(t.runtime.services);
    const adminToken = tokenOf(await apiLogin({ email: admin.email, password: PASSWORD }));
    const memberToken = tokenOf(await apiLogin({ email: member.email, password: PASSWORD }));
    advance(30 * 60 - 90);
    expect((await me(adminToken)).status).toBe(200);
    advance(30 * 60 + 1);
    expect((await me(adminToken)).status).toBe(401);
    expect((await me(memberToken)).status).toBe(200);
    // With Remember me an admin's session has the remembered idle time.
    const remembered = tokenOf(await apiLogin({ email: admin.email, password: PASSWORD, remember: true }));
    advance(3 * 3600);
    expect((await me(remembered)).status).toBe(200);
  });

  it("ends a remembered session after 14 days without a request, and at SESSION_TTL whatever the requests", async () => {
    const { user } = await createUser(t.runtime.services);
    const token = tokenOf(await apiLogin({ email: user.email, password: PASSWORD, remember: true }));
    advance(14 * 86400 - 120);
    expect((await me(token)).status).toBe(200);
    advance(14 * 86400 - 120);
    expect((await me(token)).status).toBe(200);
    advance(14 * 86400 + 1);
    expect((await me(token)).status).toBe(401);

    const capped = tokenOf(await apiLogin({ email: user.email, password: PASSWORD, remember: true }));
    for (let day = 1; day < 30; day++) {
      advance(86400);
      expect((await me(capped)).status).toBe(200);
    }
    advance(86400 - 1); // 30 days (SESSION_TTL) less a second after the login
    expect((await me(capped)).status).toBe(200);
    advance(2);
    expect((await me(capped)).status).toBe(401);
  });

  it("writes last_seen_at at most once a minute", async () => {
    const { user } = await createUser(t.runtime.services);
    const token = tokenOf(await apiLogin({ email: user.email, password: PASSWORD }));
    const lastSeen = async () =>
      (
        await t.database.db
          .selectFrom("sessions")
          .select("last_seen_at")
          .where("user_id", "=", user.id)
          .executeTakeFirstOrThrow()
      ).last_seen_at;
    const loggedInAt = await lastSeen();
    expect(loggedInAt).toBe(now.toISOString());
    advance(30);
    await me(token);
    expect(await lastSeen()).toBe(loggedInAt);
    advance(31);
    await me(token);
    expect(await lastSeen()).toBe(now.toISOString());
  });

  it("counts a session written before the column existed (last_seen_at null) from its creation", async () => {
    const { user } = await createUser(t.runtime.services);
    const token = tokenOf(await apiLogin({ email: user.email, password: PASSWORD }));
    await t.database.db.updateTable("sessions").set({ last_seen_at: null }).where("user_id", "=", user.id).execute();
    advance(3600);
    expect((await me(token)).status).toBe(200);
    advance(2 * 3600 + 1);
    expect((await me(token)).status).toBe(401);
  });

  it("follows SESSION_IDLE_TIMEOUT and SESSION_REMEMBER_IDLE_TIMEOUT", async () => {
    const configured = await createTestContext(
      { SESSION_IDLE_TIMEOUT: "10m", SESSION_REMEMBER_IDLE_TIMEOUT: "1h" },
      { clock: () => now, database: t.database },
    );
    try {
      const { user } = await createUser(configured.runtime.services);
      const login = (remember: boolean) =>
        call(configured.app, "POST", "/api/login", { json: { email: user.email, password: PASSWORD, remember } });
      const get = (token: string) => call(configured.app, "GET", "/api/dashboard/user", { token });
      const short = tokenOf(await login(false));
      const remembered = tokenOf(await login(true));
      advance(9 * 60);
      expect((await get(short)).status).toBe(200);
      advance(10 * 60 + 1);
      expect((await get(short)).status).toBe(401);
      expect((await get(remembered)).status).toBe(200);
      advance(3600 + 1);
      expect((await get(remembered)).status).toBe(401);
    } finally {
      await configured.close();
    }
  });
});

describe("signing in again", () => {
  it("with the session cookie ends the earlier session (API)", async () => {
    const { user } = await createUser(t.runtime.services);
    const first = tokenOf(await apiLogin({ email: user.email, password: PASSWORD }));
    const second = tokenOf(
      await apiLogin({ email: user.email, password: PASSWORD }, { cookie: `auth.session=${first}` }),
    );
    expect((await me(first)).status).toBe(401);
    expect((await me(second)).status).toBe(200);
    // A wrong password ends nothing.
    await apiLogin({ email: user.email, password: "not the password" }, { cookie: `auth.session=${second}` });
    expect((await me(second)).status).toBe(200);
    // An API client's Bearer token is not a browser session: it stays.
    const third = tokenOf(await apiLogin({ email: user.email, password: PASSWORD }, { token: second }));
    expect((await me(second)).status).toBe(200);
    expect((await me(third)).status).toBe(200);
  });

  it("through the login page ends the earlier session, also another account's", async () => {
    const { user } = await createUser(t.runtime.services);
    const other = await signIn(t.runtime.services);
    const first = cookieToken(await pageLogin({ email: user.email, password: PASSWORD }));
    const second = cookieToken(await pageLogin({ email: user.email, password: PASSWORD }, first));
    expect(await t.runtime.services.auth.authenticate(first)).toBeNull();
    expect(await t.runtime.services.auth.authenticate(second)).not.toBeNull();
    await pageLogin({ email: user.email, password: PASSWORD }, other.token);
    expect(await t.runtime.services.auth.authenticate(other.token)).toBeNull();
  });
});

describe("Cache-Control and CSP", () => {
  it("answers a signed-in caller private, no-store (API and pages), and an anonymous API call no-store, not private", async () => {
    const member = await signIn(t.runtime.services);
    expect((await me(member.token)).headers.get("cache-control")).toBe("private, no-store");
    const viaCookie = await call(t.app, "GET", "/api/dashboard/user", { cookie: member.cookie });
    expect(viaCookie.headers.get("cache-control")).toBe("private, no-store");
    // A page address (this app has no page build: a 404, through the same middleware as every page).
    const page = await call(t.app, "GET", "/dashboard", { cookie: member.cookie });
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    // Also an error answer to a signed-in caller.
    const refused = await call(t.app, "GET", "/api/dashboard/users", { token: member.token });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("cache-control")).toBe("private, no-store");

    const anonymous = await call(t.app, "GET", "/api/getContactData");
    expect(anonymous.status).toBe(200);
    // Not personal, and nothing a shared cache should keep either (decision 0031).
    expect(anonymous.headers.get("cache-control")).toBe("no-store");
  });

  it("answers a login (it carries the new token) private, no-store", async () => {
    const { user } = await createUser(t.runtime.services);
    const res = await apiLogin({ email: user.email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  it("keeps the page cache away from signed-in pages and still caches anonymous ones", async () => {
    const { services, config } = t.runtime;
    const app = pageSite(services, config);
    let renders = 0;
    app.get("/news", (c) => {
      renders += 1;
      return c.html(`<p>news ${renders}</p>`);
    });
    const member = await signIn(services);
    const signedIn = async () => app.request("/news", { headers: { cookie: member.cookie } });
    const first = await signedIn();
    const second = await signedIn();
    expect(first.headers.get("cache-control")).toBe("private, no-store");
    expect(second.headers.get(PAGE_CACHE_HEADER)).toBeNull();
    expect(renders).toBe(2);

    await app.request("/news");
    const anonymous = await app.request("/news");
    expect(anonymous.headers.get(PAGE_CACHE_HEADER)).toBe("hit");
    expect(anonymous.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=60, stale-while-revalidate=300");
    expect(renders).toBe(3);
  });

  it("forbids <base> in the CSP", async () => {
    const res = await call(t.app, "GET", "/healthz");
    expect(res.headers.get("content-security-policy")).toContain("base-uri 'none'");
  });
});

describe("common and guessable passwords", () => {
  const WEAK: [string, string][] = [
    ["passwordpassword", PASSWORD_TOO_GUESSABLE],
    ["Password123!", PASSWORD_TOO_COMMON],
    ["P@ssw0rd1234", PASSWORD_TOO_COMMON],
  ];
  const STRONG = "lantern quay seventeen";

  const mailedToken = async (to: string, path: string) => {
    const mail = await t.database.db
      .selectFrom("mail_queue")
      .select("body_text")
      .where("to_address", "=", to)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    return new RegExp(`${path}\\?token=([\\w-]+)`).exec(mail.body_text)?.[1] as string;
  };

  it("are refused with a clear message when resetting a password", async () => {
    const { user } = await createUser(t.runtime.services);
    await t.runtime.services.passwordReset.request(user.email, { ip: "198.51.100.7", origin: ORIGIN });
    const token = await mailedToken(user.email, "/reset-password");
    for (const [password, message] of WEAK) {
      const res = await call(t.app, "POST", "/api/reset-password", {
        json: { token, password, password_confirmation: password },
      });
      expect(res.status).toBe(422);
      expect(res.json?.errors).toEqual({ password: [message] });
    }
    const ok = await call(t.app, "POST", "/api/reset-password", {
      json: { token, password: STRONG, password_confirmation: STRONG },
    });
    expect(ok.status).toBe(200);
  });

  it("are refused with a clear message when accepting an invitation", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const email = `welcome-${Date.now()}@example.org`;
    const invited = await call(t.app, "POST", "/api/dashboard/users", {
      token: admin.token,
      json: { first_name: "Wendy", last_name: "Welcome", email, role: "member" },
    });
    expect(invited.status).toBe(201);
    const token = await mailedToken(email, "/welcome");
    for (const [password, message] of WEAK) {
      const res = await call(t.app, "POST", "/api/welcome", {
        json: { token, password, password_confirmation: password },
      });
      expect(res.status).toBe(422);
      expect(res.json?.errors).toEqual({ password: [message] });
    }
    expect(
      (await call(t.app, "POST", "/api/welcome", { json: { token, password: STRONG, password_confirmation: STRONG } }))
        .status,
    ).toBe(200);
  });

  it("are refused with a clear message in the settings", async () => {
    const member = await signIn(t.runtime.services);
    for (const [password, message] of WEAK) {
      const res = await call(t.app, "PATCH", "/api/dashboard/user/settings", {
        token: member.token,
        json: { password: PASSWORD, new_password: password, confirm_new_password: password },
      });
      expect(res.status).toBe(422);
      expect(res.json?.errors).toEqual({ new_password: [message] });
    }
  });

  it("refuses a password made of the site's name or the account's own address", async () => {
    const { user } = await createUser(t.runtime.services, { email: `skipper.${Date.now()}@example.org` });
    const token = tokenOf(await apiLogin({ email: user.email, password: PASSWORD }));
    for (const password of ["masthead2026", "skipperskipper"]) {
      const res = await call(t.app, "PATCH", "/api/dashboard/user/settings", {
        token,
        json: { password: PASSWORD, new_password: password, confirm_new_password: password },
      });
      expect(res.status).toBe(422);
      expect(res.json?.errors).toHaveProperty("new_password");
    }
  });
});

describe("checking the current password", () => {
  it("POST /api/dashboard/user/checkValidPass takes the password in the body and shares the GET's budget", async () => {
    const member = await signIn(t.runtime.services);
    const post = (body: { json?: unknown; form?: Record<string, string> }) =>
      call(t.app, "POST", "/api/dashboard/user/checkValidPass", { token: member.token, ...body });
    expect((await post({ json: { password: PASSWORD } })).json).toEqual({ status: "success", valid: true });
    expect((await post({ json: { password: ` ${PASSWORD}` } })).json).toEqual({ status: "success", valid: false });
    expect((await post({ form: { password: PASSWORD } })).json).toEqual({ status: "success", valid: true });
    expect((await post({ json: {} })).json).toEqual({ status: "success", valid: false });
    expect(
      (await call(t.app, "POST", "/api/dashboard/user/checkValidPass", { json: { password: PASSWORD } })).status,
    ).toBe(401);
    // 4 checks so far; the GET and the POST count against the same 10 per 15 minutes.
    for (let i = 0; i < 3; i++) {
      const res = await call(t.app, "GET", "/api/dashboard/user/checkValidPass?password=x", { token: member.token });
      expect(res.status).toBe(200);
    }
    for (let i = 0; i < 3; i++) expect((await post({ json: { password: "x" } })).status).toBe(200);
    expect((await post({ json: { password: PASSWORD } })).status).toBe(429);
  });

  it("the settings page checks it from the form's POST body, never from a URL", async () => {
    const member = await signIn(t.runtime.services);
    const auth = await t.runtime.services.auth.authenticate(member.token);
    const attempt = (password: string) =>
      settingsAction({
        request: formPost("/dashboard/user-settings", {
          intent: "password",
          password,
          new_password: "lantern quay seventeen",
          confirm_new_password: "lantern quay seventeen",
        }),
        context: pageContext(auth, member.token),
        params: {},
      } as unknown as Parameters<typeof settingsAction>[0]);
    const wrong = (await attempt("not the password")) as unknown as { data: { errors: Record<string, string> } };
    expect(wrong.data.errors).toEqual({ password: "The current password is not correct." });
    const right = (await attempt(PASSWORD)) as unknown as { data: { saved: string } };
    expect(right.data.saved).toMatch(/Your password is changed/);
  });
});

describe("forgot password", () => {
  it("answers a known and an unknown address alike, after the same minimum time", async () => {
    const { user } = await createUser(t.runtime.services);
    const ask = async (email: string) => {
      const started = performance.now();
      const res = await call(t.app, "POST", "/api/forgot-password", { json: { email } });
      return { res, ms: performance.now() - started };
    };
    const stranger = `nobody-${Date.now()}@example.org`;
    const known = await ask(user.email);
    const unknown = await ask(stranger);
    expect(known.res.status).toBe(200);
    expect(unknown.res.text).toBe(known.res.text);
    // Timers may fire a millisecond early; the floor is what hides the difference in work.
    expect(known.ms).toBeGreaterThanOrEqual(RESET_REQUEST_MIN_MS - 2);
    expect(unknown.ms).toBeGreaterThanOrEqual(RESET_REQUEST_MIN_MS - 2);
    // The work differs only in what is written: a link for the account, nothing for a stranger.
    const mails = await t.database.db
      .selectFrom("mail_queue")
      .select("to_address")
      .where("purpose", "=", "password_reset")
      .where("to_address", "in", [user.email, stranger])
      .execute();
    expect(mails).toEqual([{ to_address: user.email }]);
  });
});

/** Services and an app that log to an array, as production logs to stdout. */
function loggingServices() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { base: undefined },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  const { config } = t.runtime;
  const services = createServices({
    origin: config.baseUrl.origin,
    db: t.database.db,
    dialect: t.database.dialect,
    storage: localStorage(config.uploadsDir),
    privateStorage: localStorage(config.privateDir),
    sessionTtlSeconds: config.sessionTtlSeconds,
    logger,
    clock: () => now,
  });
  return { lines, logger, services, app: createApp({ ...t.runtime, services, logger }) };
}

describe("security log lines", () => {
  let logged: ReturnType<typeof loggingServices>;
  beforeEach(() => {
    logged = loggingServices();
  });
  const events = (name: string) => logged.lines.filter((line) => line.event === name);
  const attempt = (email: string, password: string) =>
    call(logged.app, "POST", "/api/login", {
      json: { email, password },
      headers: { "x-request-id": "req-sign-in-0001" },
    });

  it("logs a failed sign-in with the account (never what was typed) and the address", async () => {
    const { user } = await createUser(t.runtime.services);
    expect((await attempt(user.email, "not the password")).status).toBe(401);
    expect((await attempt("stranger@example.org", "hunter2hunter2")).status).toBe(401);
    expect(events("sign_in_failed")).toEqual([
      expect.objectContaining({
        level: 40,
        event: "sign_in_failed",
        reason: "wrong_password",
        user: user.id,
        ip: expect.any(String),
        req_id: "req-sign-in-0001",
      }),
      expect.objectContaining({ event: "sign_in_failed", reason: "unknown_account", ip: expect.any(String) }),
    ]);
    expect(events("sign_in_failed")[1]).not.toHaveProperty("user");
    const written = JSON.stringify(logged.lines);
    expect(written).not.toContain("stranger@example.org");
    expect(written).not.toContain("not the password");
    expect(written).not.toContain("hunter2");
  });

  it("logs a successful sign-in with the account and the address (issue 30 §5), never the password or token", async () => {
    const { user } = await createUser(t.runtime.services);
    const signedIn = await attempt(user.email, PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(events("sign_in")).toEqual([
      expect.objectContaining({
        level: 30,
        event: "sign_in",
        user: user.id,
        ip: expect.any(String),
        remember: false,
        req_id: "req-sign-in-0001",
      }),
    ]);
    const written = JSON.stringify(logged.lines);
    expect(written).not.toContain(PASSWORD);
    expect(written).not.toContain(String(signedIn.json?.access_token));
    expect(written).not.toContain(user.email);
    // A refused one is not a sign-in.
    await attempt(user.email, "not the password");
    expect(events("sign_in")).toHaveLength(1);
  });

  it("logs a sign-in refused while the account is locked", async () => {
    const { user } = await createUser(t.runtime.services);
    for (let i = 0; i < 5; i++) expect((await attempt(user.email, `wrong guess ${i}`)).status).toBe(401);
    expect(events("sign_in_locked")).toEqual([]);
    const locked = await attempt(user.email, PASSWORD);
    expect(locked.status).toBe(429);
    expect(events("sign_in_locked")).toEqual([
      expect.objectContaining({
        level: 40,
        event: "sign_in_locked",
        scope: "account",
        user: user.id,
        ip: expect.any(String),
        retry_after: expect.any(Number),
        req_id: "req-sign-in-0001",
      }),
    ]);
  });

  it("logs from the login page's action too", async () => {
    const { user } = await createUser(t.runtime.services);
    const context = pageContext(null, null, logged.logger);
    context.set(requestContext, { ...context.get(requestContext), services: logged.services });
    await loginAction({
      request: formPost("/login", { email: user.email, password: "not the password" }),
      context,
      params: {},
    } as unknown as ActionArgs);
    expect(events("sign_in_failed")).toEqual([
      expect.objectContaining({ user: user.id, ip: "192.0.2.44", req_id: "page-request-1" }),
    ]);
    await loginAction({
      request: formPost("/login", { email: user.email, password: PASSWORD }),
      context,
      params: {},
    } as unknown as ActionArgs);
    expect(events("sign_in")).toEqual([
      expect.objectContaining({ event: "sign_in", user: user.id, ip: "192.0.2.44", req_id: "page-request-1" }),
    ]);
  });
});
