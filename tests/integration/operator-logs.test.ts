import net from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../../server/app";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { capturedLogger } from "../support/logs";

/**
 * What an operator reads in the logs (docs/decisions/0018-operator-logs.md):
 * refused admin calls, admin changes and aborted uploads, as JSON lines.
 */
let t: TestContext;
let app: ReturnType<typeof createApp>;
const { logger, lines } = capturedLogger();

beforeAll(async () => {
  t = await createTestContext();
  app = createApp({ ...t.runtime, logger });
});
afterAll(async () => t.close());
beforeEach(() => {
  lines.length = 0;
});

const events = (name: string) => lines.filter((line) => line.event === name);

describe("access_refused", () => {
  it("logs a refused admin API call with status, path, user and IP (401 anonymous, 403 member)", async () => {
    const anonymous = await call(app, "GET", "/api/dashboard/news", { headers: { "x-request-id": "req-anon-0001" } });
    expect(anonymous.status).toBe(401);
    const member = await signIn(t.runtime.services, "member");
    const refused = await call(app, "DELETE", "/api/dashboard/news/7", { token: member.token });
    expect(refused.status).toBe(403);

    const [first, second] = events("access_refused");
    expect(first).toMatchObject({
      level: 40,
      event: "access_refused",
      status: 401,
      method: "GET",
      path: "/api/dashboard/news",
      req_id: "req-anon-0001",
    });
    expect(first).not.toHaveProperty("user");
    expect(typeof first.ip).toBe("string");
    expect(second).toMatchObject({
      status: 403,
      method: "DELETE",
      path: "/api/dashboard/news/7",
      user: member.user.id,
      req_id: refused.headers.get("x-request-id"),
    });
    expect(events("access_refused")).toHaveLength(2);
  });

  it("does not log what is not an admin refusal: member routes, allowed calls", async () => {
    expect((await call(app, "GET", "/api/dashboard/user")).status).toBe(401);
    const admin = await signIn(t.runtime.services, "admin");
    expect((await call(app, "GET", "/api/dashboard/news", { token: admin.token })).status).toBe(200);
    expect(events("access_refused")).toEqual([]);
  });
});

describe("admin_change", () => {
  it("logs every successful admin write once: who, what (method and route) and which id", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const created = await call(app, "POST", "/api/dashboard/news", {
      token: admin.token,
      json: { title: "Audit trail", content: "<p>Logged.</p>" },
    });
    expect(created.status).toBe(201);
    const id = String((created.json as { post: { id: number } }).post.id);
    const updated = await call(app, "PATCH", `/api/dashboard/news/${id}`, {
      token: admin.token,
      json: { title: "Audit trail, again", content: "<p>Logged twice.</p>" },
    });
    expect(updated.status).toBe(200);
    expect((await call(app, "DELETE", `/api/dashboard/news/${id}`, { token: admin.token })).status).toBeLessThan(300);

    const changes = events("admin_change");
    expect(changes).toHaveLength(3);
    const who = { level: 30, user: admin.user.id, email: admin.user.email };
    expect(changes[0]).toMatchObject({ ...who, method: "POST", route: "/api/dashboard/news", status: 201 });
    expect(changes[0]).not.toHaveProperty("id");
    expect(changes[1]).toMatchObject({
      ...who,
      method: "PATCH",
      route: "/api/dashboard/news/:id",
      path: `/api/dashboard/news/${id}`,
      id,
      req_id: updated.headers.get("x-request-id"),
    });
    expect(changes[2]).toMatchObject({ ...who, method: "DELETE", route: "/api/dashboard/news/:id", id });
  });

  it("a method override (_method=PATCH) is logged once, as the PATCH it became", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const created = await call(app, "POST", "/api/dashboard/news", {
      token: admin.token,
      json: { title: "Overridden", content: "<p>Body.</p>" },
    });
    const id = String((created.json as { post: { id: number } }).post.id);
    lines.length = 0;
    const overridden = await call(app, "POST", `/api/dashboard/news/${id}`, {
      token: admin.token,
      form: { _method: "PATCH", title: "Overridden twice", content: "<p>Body.</p>" },
    });
    expect(overridden.status).toBe(200);
    expect(events("admin_change")).toEqual([
      expect.objectContaining({ method: "PATCH", route: "/api/dashboard/news/:id", id }),
    ]);
  });

  it("does not log failed writes, members' own changes, an admin's password check or logout", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    expect((await call(app, "POST", "/api/dashboard/news", { token: admin.token, json: { title: "" } })).status).toBe(
      422,
    );
    const member = await signIn(t.runtime.services, "member");
    expect(
      (await call(app, "PATCH", "/api/dashboard/user/settings", { token: member.token, json: { first_name: "Mia" } }))
        .status,
    ).toBeLessThan(300);
    const check = await call(app, "POST", "/api/dashboard/user/checkValidPass", {
      token: admin.token,
      json: { password: "not it" },
    });
    expect(check.status).toBe(200);
    expect((await call(app, "POST", "/api/dashboard/logout", { token: admin.token })).status).toBeLessThan(300);
    expect(events("admin_change")).toEqual([]);
  });

  it("does not log an admin's reads that come as a POST (the news list)", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const list = await call(app, "POST", "/api/getPosts", { token: admin.token, json: { filters: "" } });
    expect(list.status).toBe(200);
    expect(events("admin_change")).toEqual([]);
  });
});

describe("a client that aborts its upload", () => {
  let server: ServerType;
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
        port = info.port;
        resolve();
      });
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  /** Sends the headers and part of a multipart body over real TCP, then drops the connection. */
  async function abortedUpload(path: string, headers: Record<string, string> = {}) {
    const boundary = "masthead-abort";
    const head = [
      `POST ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      "Content-Length: 500000",
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      "",
      "",
    ].join("\r\n");
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n${"x".repeat(4000)}`;
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.write(head + part, () => setTimeout(() => socket.destroy(), 100));
      });
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
  }

  async function waitForLine(predicate: (line: Record<string, unknown>) => boolean) {
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      if (lines.some(predicate)) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no matching log line in ${JSON.stringify(lines)}`);
  }

  it("is logged as 'client aborted' (info), never as a server error", async () => {
    await abortedUpload("/api/join");
    const admin = await signIn(t.runtime.services, "admin");
    await abortedUpload("/api/dashboard/images", { Authorization: `Bearer ${admin.token}` });
    await waitForLine((line) => line.msg === "client aborted" && line.path === "/api/dashboard/images");
    expect(lines.filter((line) => line.msg === "client aborted").map((line) => line.path)).toEqual([
      "/api/join",
      "/api/dashboard/images",
    ]);
    expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});
