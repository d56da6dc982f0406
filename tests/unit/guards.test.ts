import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { requestContext } from "../../app/context";
import { guards } from "../../app/lib/guards";
import type { RequestContext } from "../../core/request-context";

function contextWith(role: "admin" | "member" | null) {
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
        sessionId: 1,
        expiresAt: "",
        remember: false,
      }
    : null;
  context.set(requestContext, { auth } as unknown as RequestContext);
  return context;
}

async function run(name: string, role: "admin" | "member" | null, url = "http://x/dashboard?tab=2") {
  const [guard] = guards(name);
  try {
    await guard(
      { context: contextWith(role), request: new Request(url), url: new URL(url), params: {}, pattern: "" } as never,
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

  it("an unknown guard name answers 500 'Unknown middleware {name}'", async () => {
    const thrown = (await run("superuser", "admin")) as { data: unknown; init: { status: number } };
    expect(thrown.init.status).toBe(500);
    expect(thrown.data).toBe("Unknown middleware superuser");
  });
});
