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

describe("upload_rejected (decision 0034)", () => {
  const image = () => new File([new Uint8Array(64)], "photo.jpg", { type: "image/jpeg" });

  it("logs an anonymous upload (unauthenticated), a member's to an admin route (forbidden) and a body the file route does not take (type)", async () => {
    const anonymous = await call(app, "POST", "/api/dashboard/news", {
      form: { title: "Hello", image: image() },
      multipart: true,
      headers: { "x-request-id": "req-upload-anon-1" },
    });
    expect(anonymous.status).toBe(401);
    const member = await signIn(t.runtime.services, "member");
    const forbidden = await call(app, "POST", "/api/dashboard/news", {
      form: { title: "Hello", image: image() },
      multipart: true,
      token: member.token,
    });
    expect(forbidden.status).toBe(403);
    const json = await call(app, "POST", "/api/settings/profile/updateAvatar", {
      json: { avatar: "me.png" },
      token: member.token,
    });
    expect(json.status).toBe(415);

    const [first, second, third] = events("upload_rejected");
    expect(first).toMatchObject({
      level: 40,
      reason: "unauthenticated",
      status: 401,
      method: "POST",
      path: "/api/dashboard/news",
      req_id: "req-upload-anon-1",
    });
    expect(first).not.toHaveProperty("user");
    expect(second).toMatchObject({ reason: "forbidden", status: 403, user: member.user.id });
    expect(third).toMatchObject({ reason: "type", status: 415, path: "/api/settings/profile/updateAvatar" });
    expect(events("upload_rejected")).toHaveLength(3);
  });

  it("answers a body declared over the limit with 413, the security headers, Cache-Control, a request line and the event", async () => {
    const declared = t.runtime.config.uploadMaxBytes + 1;
    const response = await app.request("/api/dashboard/news", {
      method: "POST",
      headers: {
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(declared),
        "x-request-id": "req-upload-large-1",
      },
      body: "--x--\r\n",
    });
    expect(response.status).toBe(413);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-request-id")).toBe("req-upload-large-1");
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: "request",
        req_id: "req-upload-large-1",
        status: 413,
        path: "/api/dashboard/news",
      }),
    );
    expect(events("upload_rejected")).toEqual([
      expect.objectContaining({ reason: "too_large", status: 413, bytes: declared, req_id: "req-upload-large-1" }),
    ]);
  });

  it("does not log a plain form's refusal or an accepted upload", async () => {
    expect((await call(app, "POST", "/api/dashboard/news", { json: { title: "x" } })).status).toBe(401);
    const admin = await signIn(t.runtime.services, "admin");
    const created = await call(app, "POST", "/api/dashboard/papers-categories", {
      form: { name: "Charts" },
      multipart: true,
      token: admin.token,
    });
    expect(created.status).toBe(201);
    expect(events("upload_rejected")).toEqual([]);
  });
});

describe("secrets in the request log", () => {
  it("logs the private calendar feed's address as /calendar/[redacted].ics", async () => {
    const member = await signIn(t.runtime.services, "member");
    const token = await t.runtime.services.profile.renewCalendarToken(member.user.id, member.password);
    const feed = await call(app, "GET", `/calendar/${token}.ics`);
    expect(feed.status).toBe(200);
    const unknown = await call(app, "GET", "/calendar/not-a-token.ics");
    expect(unknown.status).toBe(404);
    const paths = lines.filter((line) => line.msg === "request").map((line) => line.path);
    expect(paths).toEqual(["/calendar/[redacted].ics", "/calendar/[redacted].ics"]);
    expect(JSON.stringify(lines)).not.toContain(token);
  });

  it("redacts the token however the address spells it, in the request log and in the security events", async () => {
    const member = await signIn(t.runtime.services, "member");
    const token = await t.runtime.services.profile.renewCalendarToken(member.user.id, member.password);
    // Served: the router reads the decoded path.
    expect((await call(app, "GET", `/%63alendar/${token}.ics`)).status).toBe(200);
    // Not served, but the token in the address is as secret as in the right one.
    for (const spelling of [
      `/calendar%2F${token}.ics`,
      `/calendar%252F${token}.ics`,
      `/CALENDAR/${token}.ics`,
      `/x/..%2Fcalendar%2F${token}.ics`,
      `/events/calendar/${token}.ics`,
    ]) {
      expect((await call(app, "GET", spelling)).status, spelling).toBe(404);
    }
    // An admin route refused (access_refused) and a refused upload (upload_rejected) log their paths too.
    const refused = await call(app, "DELETE", `/api/dashboard/news/..%2F..%2F..%2Fcalendar%2F${token}.ics`);
    expect(refused.status).toBe(401);
    const upload = await call(app, "POST", `/api/dashboard/news/calendar%2F${token}.ics`, {
      form: { title: "x", image: new File([new Uint8Array(64)], "photo.jpg", { type: "image/jpeg" }) },
      multipart: true,
    });
    expect(upload.status).toBe(401);

    expect(events("access_refused").map((line) => line.path)).toEqual([
      "/calendar/[redacted].ics",
      "/api/dashboard/news/calendar/[redacted].ics",
    ]);
    expect(events("upload_rejected").map((line) => line.path)).toEqual(["/api/dashboard/news/calendar/[redacted].ics"]);
    expect(lines.filter((line) => line.msg === "request").length).toBeGreaterThanOrEqual(8);
    expect(JSON.stringify(lines)).not.toContain(token);
  });
});
