import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestContext, type TestContext } from "../support/app";
import { declaredRoutes } from "../support/declared-routes";
import { signIn } from "../support/factories";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

describe("authorization of every API route", () => {
  it("every route declares its access (public, member or admin)", () => {
    const unclassified = declaredRoutes(t.runtime).filter((r) => !r.access);
    expect(unclassified, "routes without access.public/member/admin as their first handler").toEqual([]);
    expect(declaredRoutes(t.runtime).length).toBeGreaterThanOrEqual(3);
  });

  it("answers each route as its declaration says, for anonymous, member and admin", async () => {
    const failures: string[] = [];
    for (const route of declaredRoutes(t.runtime)) {
      const path = `/api${route.path.replace(/:[A-Za-z_]\w*(\{[^}]*\})?/g, "1")}`;
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
