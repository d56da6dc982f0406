import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOGIN_LIMITS } from "../../core/auth/auth.service";
import { createApp } from "../../server/app";
import { buildRuntime, call, createTestContext, type TestContext } from "../support/app";
import { reopen } from "../support/database";
import { createUser, PASSWORD } from "../support/factories";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ TRUST_PROXY: "true" });
});
afterAll(async () => t.close());

const login = (email: string, password: string, ip = "192.0.2.10", app = t.app) =>
  call(app, "POST", "/api/login", { json: { email, password }, headers: { "x-forwarded-for": `10.0.0.1, ${ip}` } });

describe("login rate limits", () => {
  it("limits failed logins per account with 429 and Retry-After, even for the right password", async () => {
    const { user } = await createUser(t.runtime.services);
    for (let i = 0; i < LOGIN_LIMITS.perAccount.max; i++) {
      // Spread over addresses so that only the account limit is in play.
      expect((await login(user.email, "wrong password", `192.0.2.${20 + i}`)).status).toBe(401);
    }
    const limited = await login(user.email, PASSWORD, "192.0.2.99");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(LOGIN_LIMITS.perAccount.windowSeconds);
    expect(limited.json).toMatchObject({
      status: "error",
      message: "Too many login attempts. Please try again later.",
    });
  });

  it("still limits after a restart (the counters live in the database)", async () => {
    const { user } = await createUser(t.runtime.services);
    for (let i = 0; i < LOGIN_LIMITS.perAccount.max; i++)
      await login(user.email, "wrong password", `192.0.2.${40 + i}`);
    const database = reopen(t.database);
    const restarted = createApp(buildRuntime(t.runtime.config, database));
    const res = await login(user.email, PASSWORD, "192.0.2.98", restarted);
    expect(res.status).toBe(429);
    await database.destroy();
  });

  it("a successful login clears the account's failures", async () => {
    const { user } = await createUser(t.runtime.services);
    for (let i = 0; i < LOGIN_LIMITS.perAccount.max - 1; i++) await login(user.email, "wrong password", "192.0.2.60");
    expect((await login(user.email, PASSWORD, "192.0.2.60")).status).toBe(200);
    for (let i = 0; i < LOGIN_LIMITS.perAccount.max - 1; i++) {
      expect((await login(user.email, "wrong password", "192.0.2.60")).status).toBe(401);
    }
  });

  it("limits failed logins per IP address across accounts", async () => {
    const ip = "198.51.100.77";
    for (let i = 0; i < LOGIN_LIMITS.perIp.max; i++) {
      expect((await login(`nobody${i}@example.org`, "wrong password", ip)).status).toBe(401);
    }
    const { user } = await createUser(t.runtime.services);
    expect((await login(user.email, PASSWORD, ip)).status).toBe(429);
    expect((await login(user.email, PASSWORD, "198.51.100.78")).status).toBe(200);
  });
});
