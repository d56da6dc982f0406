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

  it("checks no more passwords than the limit allows when attempts arrive at once through two processes", async () => {
    const { user } = await createUser(t.runtime.services);
    const database = reopen(t.database);
    const second = createApp(buildRuntime(t.runtime.config, database));
    const attempts = 3 * LOGIN_LIMITS.perAccount.max;
    const answers = await Promise.all(
      Array.from({ length: attempts }, (_, i) =>
        login(user.email, "wrong password", `192.0.2.${120 + i}`, i % 2 ? second : t.app),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_LIMITS.perAccount.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(attempts - LOGIN_LIMITS.perAccount.max);
    // Refused attempts were not made: the addresses they came from have nothing counted against them.
    const { user: neighbour } = await createUser(t.runtime.services);
    const lastAddress = `192.0.2.${120 + attempts - 1}`;
    for (let i = 0; i < LOGIN_LIMITS.perAccount.max - 1; i++)
      await login(neighbour.email, "wrong password", lastAddress, second);
    expect((await login(neighbour.email, PASSWORD, lastAddress)).status).toBe(200);
    await database.destroy();
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
