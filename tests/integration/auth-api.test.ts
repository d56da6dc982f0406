import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServices } from "../../core/services";
import { localStorage } from "../../lib/storage";
import { call, createTestContext, type TestContext } from "../support/app";
import { createUser, PASSWORD } from "../support/factories";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const login = (json: unknown, headers: Record<string, string> = {}) =>
  call(t.app, "POST", "/api/login", { json, headers });

describe("POST /api/login", () => {
  it("answers access_token and user, and sets the httpOnly auth. cookie", async () => {
    const { user } = await createUser(t.runtime.services, { role: "admin", email: "Chair@Example.org" });
    const res = await login({ email: "  chair@example.ORG ", password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      status: "success",
      access_token: expect.any(String),
      user: { id: user.id, email: "chair@example.org", first_name: "Test", role: { name: "admin" } },
    });
    expect(res.json?.user).not.toHaveProperty("password_hash");
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^auth\.session=[\w-]+; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(cookie).not.toMatch(/Max-Age/); // no 'Remember me': ends with the browser
  });

  it("keeps the session for SESSION_TTL with Remember me", async () => {
    const { user } = await createUser(t.runtime.services);
    const res = await login({ email: user.email, password: PASSWORD, remember: true });
    expect(res.headers.get("set-cookie")).toMatch(/Max-Age=2592000/);
    const expires = Date.parse(res.json?.expires_at as string);
    expect(expires - Date.now()).toBeGreaterThan(29 * 86400 * 1000);
  });

  it("issues a new token at every login", async () => {
    const { user } = await createUser(t.runtime.services);
    const a = await login({ email: user.email, password: PASSWORD });
    const b = await login({ email: user.email, password: PASSWORD });
    expect(a.json?.access_token).not.toBe(b.json?.access_token);
  });

  it("gives the same 401 body for an unknown e-mail and a wrong password", async () => {
    const { user } = await createUser(t.runtime.services);
    const wrong = await login({ email: user.email, password: "not the password" });
    const unknown = await login({ email: "nobody@example.org", password: "not the password" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.text).toBe(unknown.text);
    expect(wrong.json).toEqual({ status: "error", message: "The user name or password are incorrect", errors: {} });
  });

  it("refuses a deactivated account with the same 401", async () => {
    const { user } = await createUser(t.runtime.services);
    await t.database.db.updateTable("users").set({ is_active: 0 }).where("id", "=", user.id).execute();
    const res = await login({ email: user.email, password: PASSWORD });
    expect(res.status).toBe(401);
    expect(res.json?.message).toBe("The user name or password are incorrect");
  });

  it("answers 422 with the spec's field messages for missing fields", async () => {
    const res = await login({ email: "  ", password: "" });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      status: "error",
      message: "The given data was invalid.",
      errors: { email: ["Email is required."], password: ["Password is required."] },
    });
  });

  it("accepts urlencoded and multipart bodies", async () => {
    const { user } = await createUser(t.runtime.services);
    const form = await call(t.app, "POST", "/api/login", { form: { email: user.email, password: PASSWORD } });
    expect(form.status).toBe(200);
    const multipart = await call(t.app, "POST", "/api/login", {
      form: { email: user.email, password: PASSWORD },
      multipart: true,
    });
    expect(multipart.status).toBe(200);
  });

  it("never answers 500 to hostile bodies", async () => {
    const bodies: unknown[] = [
      [],
      "x",
      42,
      null,
      { email: ["a"], password: { $gt: "" } },
      { email: "a".repeat(10_000), password: "b" },
    ];
    for (const json of bodies) {
      const res = await login(json);
      expect([400, 401, 422]).toContain(res.status);
      expect(res.json?.status).toBe("error");
    }
  });
});

describe("GET /api/dashboard/user and POST /api/dashboard/logout", () => {
  it("returns the user for a Bearer token and for the cookie", async () => {
    const { user } = await createUser(t.runtime.services);
    const token = (await login({ email: user.email, password: PASSWORD })).json?.access_token as string;
    const bearer = await call(t.app, "GET", "/api/dashboard/user", { token });
    expect(bearer.status).toBe(200);
    // With the company they represent: none (issue 31).
    expect(bearer.json).toEqual({ status: "success", user: { ...user, company: null } });
    const cookie = await call(t.app, "GET", "/api/dashboard/user", { cookie: `auth.session=${token}` });
    expect(cookie.json?.user).toEqual({ ...user, company: null });
  });

  it("answers 401 without a session or with a made-up token", async () => {
    expect((await call(t.app, "GET", "/api/dashboard/user")).status).toBe(401);
    const res = await call(t.app, "GET", "/api/dashboard/user", { token: "forged-token" });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ status: "error" });
  });

  it("revokes the token server-side on logout", async () => {
    const { user } = await createUser(t.runtime.services);
    const token = (await login({ email: user.email, password: PASSWORD })).json?.access_token as string;
    const out = await call(t.app, "POST", "/api/dashboard/logout", { token });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/auth\.session=; .*Max-Age=0/);
    expect((await call(t.app, "GET", "/api/dashboard/user", { token })).status).toBe(401);
  });

  it("ends a session at its expiry: 12 hours without Remember me", async () => {
    const { user } = await createUser(t.runtime.services);
    let now = new Date("2026-03-01T08:00:00.000Z");
    const services = createServices({
      origin: t.runtime.config.baseUrl.origin,
      db: t.database.db,
      dialect: t.database.dialect,
      storage: localStorage(t.runtime.config.uploadsDir),
      privateStorage: localStorage(t.runtime.config.privateDir),
      sessionTtlSeconds: 30 * 86400,
      // Idle timeouts longer than the lifetimes, so that only the expiry ends these sessions.
      sessionIdleSeconds: { short: 86400, admin: 86400, remembered: 60 * 86400 },
      clock: () => now,
    });
    const short = await services.auth.login({ email: user.email, password: PASSWORD }, { ip: "198.51.100.1" });
    const long = await services.auth.login(
      { email: user.email, password: PASSWORD, remember: true },
      { ip: "198.51.100.1" },
    );
    now = new Date("2026-03-01T19:59:00.000Z");
    expect(await services.auth.authenticate(short.token)).not.toBeNull();
    now = new Date("2026-03-01T20:00:01.000Z");
    expect(await services.auth.authenticate(short.token)).toBeNull();
    expect(await services.auth.authenticate(long.token)).not.toBeNull();
    now = new Date("2026-03-31T08:00:01.000Z");
    expect(await services.auth.authenticate(long.token)).toBeNull();
  });

  it("ends every session of a user when they are revoked, and on deactivation", async () => {
    const { user } = await createUser(t.runtime.services);
    const a = (await login({ email: user.email, password: PASSWORD })).json?.access_token as string;
    const b = (await login({ email: user.email, password: PASSWORD })).json?.access_token as string;
    const keep = await t.runtime.services.auth.authenticate(b);
    await t.runtime.services.auth.revokeUserSessions(user.id, keep?.sessionId);
    expect((await call(t.app, "GET", "/api/dashboard/user", { token: a })).status).toBe(401);
    expect((await call(t.app, "GET", "/api/dashboard/user", { token: b })).status).toBe(200);
    await t.database.db.updateTable("users").set({ is_active: 0 }).where("id", "=", user.id).execute();
    expect((await call(t.app, "GET", "/api/dashboard/user", { token: b })).status).toBe(401);
  });

  it("stores only a hash of the token", async () => {
    const { user } = await createUser(t.runtime.services);
    const token = (await login({ email: user.email, password: PASSWORD })).json?.access_token as string;
    const rows = await t.database.db
      .selectFrom("sessions")
      .select("token_hash")
      .where("user_id", "=", user.id)
      .execute();
    expect(rows.map((r) => r.token_hash)).not.toContain(token);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
