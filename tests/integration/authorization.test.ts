import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../server/api";
import type { Access } from "../../server/api/http";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

type Declared = { method: string; path: string; access: Access | undefined };

/** Every API route as the router knows it, with the access its first handler declares. */
function declaredRoutes(): Declared[] {
  const api = createApi(t.runtime);
  const byRoute = new Map<string, Declared>();
  for (const route of api.routes) {
    if (route.method === "ALL") continue;
    const key = `${route.method} ${route.path}`;
    const declared = byRoute.get(key) ?? { method: route.method, path: route.path, access: undefined };
    const access = (route.handler as { access?: Access }).access;
    if (access) declared.access = access;
    byRoute.set(key, declared);
  }
  return [...byRoute.values()];
}

describe("authorization of every API route", () => {
  it("every route declares its access (public, member or admin)", () => {
    const unclassified = declaredRoutes().filter((r) => !r.access);
    expect(unclassified, "routes without access.public/member/admin as their first handler").toEqual([]);
    expect(declaredRoutes().length).toBeGreaterThanOrEqual(3);
  });

  it("answers each route as its declaration says, for anonymous, member and admin", async () => {
    const failures: string[] = [];
    for (const route of declaredRoutes()) {
      const path = `/api${route.path.replace(/:[A-Za-z_]\w*/g, "1")}`;
      for (const who of ["anonymous", "member", "admin"] as const) {
        // A fresh session per call: some routes (logout) end the session they are called with.
        const token = who === "anonymous" ? undefined : (await signIn(t.runtime.services, who)).token;
        const res = await call(t.app, route.method, path, { token, json: route.method === "GET" ? undefined : {} });
        const expected =
          route.access === "public"
            ? "allowed"
            : who === "anonymous"
              ? 401
              : route.access === "admin" && who === "member"
                ? 403
                : "allowed";
        const ok =
          expected === "allowed"
            ? res.status !== 401 && res.status !== 403 && res.status < 500
            : res.status === expected;
        if (!ok) failures.push(`${route.method} ${path} as ${who}: got ${res.status}, expected ${expected}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
