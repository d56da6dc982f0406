import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { requestContext } from "../../app/context";
import { CHAIR_REFUSED, guards } from "../../app/lib/guards";
import type { RequestContext } from "../../core/request-context";
import { createTestContext, type TestContext } from "../support/app";
import { capturedLogger } from "../support/logs";

const { logger, lines } = capturedLogger();
/** A real database behind the services: a refused admin page is an audit row too (decision 0074). */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
}, 60_000);
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  lines.length = 0;
});

/** A signed-in person of `role`; a member with `chairs` chairs those working groups (issue 36). */
function contextWith(role: "admin" | "member" | null, chairs: number[] = []) {
  const context = new RouterContextProvider();
  const auth = role
    ? {
        user: {
          id: 1,
          first_name: "A",
          last_name: "B",
          email: "a@b.org",
          phone_number: null,
          avatar: null,
          role: { name: role },
        },
        company: null,
        groups: chairs,
        chairs,
        sessionId: 1,
        expiresAt: "",
        remember: false,
      }
    : null;
  context.set(requestContext, {
    auth,
    logger,
    requestId: "req-guards-1",
    client: { ip: "203.0.113.5", userAgent: null },
    services: t.runtime.services,
  } as unknown as RequestContext);
  return context;
}

async function run(
  name: string | string[],
  role: "admin" | "member" | null,
  url = "http://x/dashboard?tab=2",
  chairs: number[] = [],
) {
  const chain = guards(...(Array.isArray(name) ? name : [name]));
  try {
    for (const guard of chain)
      await guard(
        {
          context: contextWith(role, chairs),
          request: new Request(url),
          url: new URL(url),
          params: {},
          pattern: "",
        } as never,
        async () => new Response(),
      );
    return null;
  } catch (thrown) {
    return thrown;
  }
}

describe("route guards (SPEC §6)", () => {
  it("auth sends logged-out visitors to /login with the path and query", async () => {
    const thrown = (await run("auth", null)) as Response;
    expect(thrown.status).toBe(302);
    expect(thrown.headers.get("Location")).toBe("/login?redirect=%2Fdashboard%3Ftab%3D2");
    expect(await run("auth", "member")).toBeNull();
  });

  it("admin sends non-admins to /dashboard and lets admins stay", async () => {
    const thrown = (await run("admin", "member")) as Response;
    expect(thrown.headers.get("Location")).toBe("/dashboard");
    expect(await run("admin", "admin")).toBeNull();
    expect(await run("ismanager", "admin")).toBeNull();
    expect(((await run("ismanager", "member")) as Response).headers.get("Location")).toBe("/dashboard");
  });

  it("lets a working group's chair into the admin area for the meetings, and tells them why not elsewhere", async () => {
    // The admin layout: admins, editors and chairs; a member who chairs nothing goes to their dashboard.
    expect(await run(["auth", "chair"], "member", "http://x/manage-events", [3])).toBeNull();
    expect(await run(["auth", "chair"], "admin", "http://x/manage-events")).toBeNull();
    const plain = (await run(["auth", "chair"], "member", "http://x/manage-events")) as Response;
    expect(plain.headers.get("Location")).toBe("/dashboard");
    // The secretariat's screens inside it: a 403 page that says what a chair may do.
    for (const guard of ["editor", "admin"]) {
      const refused = (await run(["auth", guard], "member", "http://x/manage-news", [3])) as {
        data: unknown;
        init: { status: number };
      };
      expect(refused.init.status, guard).toBe(403);
      expect(refused.data, guard).toBe(CHAIR_REFUSED);
    }
    // The admin home, where the login sends everyone: a chair goes on to their dashboard.
    const home = (await run(["auth", "editor"], "member", "http://x/manager", [3])) as Response;
    expect(home.headers.get("Location")).toBe("/dashboard");
  });

  it("an unknown guard name answers 500 'Unknown middleware {name}'", async () => {
    const thrown = (await run("superuser", "admin")) as { data: unknown; init: { status: number } };
    expect(thrown.init.status).toBe(500);
    expect(thrown.data).toBe("Unknown middleware superuser");
  });

  it("logs a refused admin page as access_refused (401 anonymous, 403 member), not the member area's login redirect", async () => {
    expect(await run("auth", null)).toBeInstanceOf(Response);
    expect(lines).toEqual([]);

    expect(await run(["auth", "admin"], null, "http://x/manager/users?page=2")).toBeInstanceOf(Response);
    expect(await run(["auth", "admin"], "member", "http://x/manage-news")).toBeInstanceOf(Response);
    expect(await run(["auth", "admin"], "admin", "http://x/manage-news")).toBeNull();
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        event: "access_refused",
        status: 401,
        method: "GET",
        path: "/manager/users",
        req_id: "req-guards-1",
        ip: "203.0.113.5",
      }),
      expect.objectContaining({ event: "access_refused", status: 403, path: "/manage-news", user: 1 }),
    ]);
    expect(lines[0]).not.toHaveProperty("user");
    const rows = await t.database.db.selectFrom("audit_log").select(["action", "summary"]).orderBy("id").execute();
    expect(rows.slice(-2)).toEqual([
      { action: "access_refused", summary: "Refused (401): GET /manager/users" },
      { action: "access_refused", summary: "Refused (403): GET /manage-news" },
    ]);
  });
});
