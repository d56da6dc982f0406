import net from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./server";

/**
 * The built app's logs as an operator reads them (docs/decisions/0018): page
 * errors with the request id, refused admin pages, admin changes made through
 * page forms, aborted uploads; and the sharing cards' absolute picture URLs.
 */
const ADMIN = { email: "logs-admin@masthead.test", password: "logs admin long password" };

let server: ServerProcess;
let token = "";

beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  const login = await fetch(`${server.url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  token = ((await login.json()) as { access_token: string }).access_token;
});

afterAll(async () => {
  await server?.stop();
  server?.cleanup();
});

async function waitForLog(predicate: (line: Record<string, unknown>) => boolean) {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const found = server.logs().find(predicate);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no matching log line:\n${server.stdout.slice(-20).join("\n")}`);
}

/** A news post with a picture, through the admin API. */
async function postWithPicture(title: string) {
  const form = new FormData();
  form.append("title", title);
  form.append("content", "<p>With a picture.</p>");
  const png = await sharp({ create: { width: 1200, height: 630, channels: 3, background: "#2a6f97" } })
    .png()
    .toBuffer();
  form.append("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "card.png");
  form.append("image_alt", "A blue sharing card");
  const response = await fetch(`${server.url}/api/dashboard/news`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { post: { id: number; slug: string } }).post;
}

describe("operator logs of the built app", () => {
  it("logs a failing page loader as JSON with the request id, path and error", async () => {
    // A real failure under the loader: the table it reads is gone.
    const db = new Database(path.join(server.dataDir, "site.db"));
    db.exec("alter table member_companies rename to member_companies_gone");
    try {
      const response = await fetch(`${server.url}/members-list`, { headers: { "x-request-id": "req-page-error-1" } });
      expect(response.status).toBe(500);
      await response.text();
      const line = await waitForLog((l) => l.msg === "page error");
      expect(line).toMatchObject({ level: 50, req_id: "req-page-error-1", method: "GET", path: "/members-list" });
      expect(String((line.err as { message?: string }).message)).toMatch(/member_companies/);
    } finally {
      db.exec("alter table member_companies_gone rename to member_companies");
      db.close();
    }
    // Nothing about it on stderr: React Router's own console.error is replaced.
    expect(server.stderr.join("\n")).not.toMatch(/member_companies/);
  });

  it("does not log redirects and 404s thrown on purpose as errors", async () => {
    const before = server.logs().filter((l) => l.msg === "page error").length;
    expect((await fetch(`${server.url}/post/no-such-post`)).status).toBe(404);
    expect((await fetch(`${server.url}/dashboard`, { redirect: "manual" })).status).toBe(302);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.logs().filter((l) => l.msg === "page error")).toHaveLength(before);
  });

  it("logs a refused admin page as access_refused", async () => {
    const response = await fetch(`${server.url}/manager/users`, {
      redirect: "manual",
      headers: { "x-request-id": "req-refused-page-1" },
    });
    expect(response.status).toBe(302);
    const line = await waitForLog((l) => l.event === "access_refused" && l.req_id === "req-refused-page-1");
    expect(line).toMatchObject({ level: 40, status: 401, method: "GET", path: "/manager/users", ip: "127.0.0.1" });
  });

  it("logs an admin's page form (delete a post) as admin_change with the intent and the id", async () => {
    const post = await postWithPicture("Deleted from the list");
    await waitForLog((l) => l.event === "admin_change" && l.route === "/api/dashboard/news");
    const response = await fetch(`${server.url}/manage-news`, {
      method: "POST",
      redirect: "manual",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/x-www-form-urlencoded",
        "x-request-id": "req-page-change-1",
      },
      body: new URLSearchParams({ intent: "delete", id: String(post.id) }).toString(),
    });
    expect(response.status).toBeLessThan(400);
    const line = await waitForLog((l) => l.event === "admin_change" && l.req_id === "req-page-change-1");
    expect(line).toMatchObject({
      level: 30,
      email: ADMIN.email,
      method: "POST",
      route: "/manage-news",
      intent: "delete",
      id: String(post.id),
    });
    expect(typeof line.user).toBe("number");
  });

  it("logs an upload the client aborts on a page form as 'client aborted', not as an error", async () => {
    const boundary = "masthead-abort";
    const request = [
      "POST /join HTTP/1.1",
      `Host: 127.0.0.1:${server.port}`,
      `Origin: ${server.url}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      "Content-Length: 800000",
      "X-Request-Id: req-aborted-page-1",
      "",
      `--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="big.bin"\r\n\r\n${"x".repeat(8000)}`,
    ].join("\r\n");
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(server.port, "127.0.0.1", () => {
        socket.write(request, () => setTimeout(() => socket.destroy(), 150));
      });
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
    const line = await waitForLog((l) => l.req_id === "req-aborted-page-1");
    expect(line).toMatchObject({ level: 30, msg: "client aborted", status: 499, path: "/join" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.logs().filter((l) => l.req_id === "req-aborted-page-1" && Number(l.level) >= 50)).toEqual([]);
    expect(server.stderr.join("\n")).not.toMatch(/aborted/i);
  });

  it("gives sharing cards absolute og:image and twitter:image URLs on BASE_URL", async () => {
    const post = await postWithPicture("A picture for the cards");
    const html = await (await fetch(`${server.url}/post/${post.slug}`)).text();
    const og = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
    const twitter = /<meta name="twitter:image" content="([^"]+)"/.exec(html)?.[1];
    expect(og).toMatch(new RegExp(`^${server.url.replace(/[.:/]/g, "\\$&")}/uploads/\\S+`));
    expect(twitter).toBe(og);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"');
    const picture = await fetch(og as string);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toMatch(/^image\//);
  });
});
