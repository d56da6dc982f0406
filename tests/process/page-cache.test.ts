import { spawn } from "node:child_process";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./server";

/**
 * Whether a page carries the role-only flag of a shared render (decision 0032): in React Router's
 * hydration data, or in the root facts of a page served as islands (decision 0033).
 */
const saysRoleOnly = (html: string) => html.includes(`\\"roleOnly\\",true`) || html.includes(`"roleOnly":true`);

/**
 * Issue 15: the page cache of the built server, as two processes sharing one
 * SQLite file serve it. A change an admin makes through one process is on the
 * very next request to the other; nothing personal is ever stored or served
 * from it; bots and browsers get the whole page, each from their own entry.
 */
const ADMIN = { email: "cache-admin@masthead.test", password: "cache admin long password" };

let first: ServerProcess;
let second: ServerProcess;
let token = "";

/** Adds a user to a server's database with the CLI an operator runs (npm run user). */
/**
 * Adds an account with the operator's CLI. Not spawnSync: a test process blocked for the seconds the
 * CLI takes on a loaded machine misses its connection pool's keep-alive timers, and its next fetch
 * goes out on a connection the server has meanwhile closed ("other side closed").
 */
async function addUser(dataDir: string, args: string[]) {
  // Vite puts BASE_URL=/ into the test process's environment; a real shell has none.
  const { TEST_DATABASE_URL, DATABASE_URL, BASE_URL, ...base } = process.env;
  const result = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/user.ts", "add", ...args], {
      env: { ...base, DATA_DIR: dataDir, LOG_LEVEL: "silent" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("close", (status) => resolve({ status, stderr }));
  });
  expect(result.status, result.stderr).toBe(0);
}

/** The Bearer token of an API client's sign-in. */
async function apiToken(server: ServerProcess, email: string, password: string): Promise<string> {
  const login = await fetch(`${server.url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  return ((await login.json()) as { access_token: string }).access_token;
}

/** The session cookie of a browser sign-in. */
async function signIn(server: ServerProcess, email: string, password: string): Promise<string> {
  const login = await fetch(`${server.url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ email, password }),
  });
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
  expect(cookie).toMatch(/^auth\.session=/);
  return cookie;
}

beforeAll(async () => {
  first = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  // The same data directory: the same database file, as two processes of one site would share it.
  second = await startServer({ dataDir: first.dataDir });
  const login = await fetch(`${first.url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  token = ((await login.json()) as { access_token: string }).access_token;
});

afterAll(async () => {
  await second?.stop();
  await first?.stop();
  first?.cleanup();
});

async function page(server: ServerProcess, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function publish(title: string) {
  const form = new FormData();
  form.append("title", title);
  form.append("content", "<p>Published through one process.</p>");
  const response = await fetch(`${first.url}/api/dashboard/news`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

describe("page cache across processes", () => {
  it("shows an admin's change made through one process on the next request to the other", async () => {
    for (const server of [first, second]) {
      await page(server, "/news");
      expect((await page(server, "/news")).headers.get("x-page-cache")).toBe("hit");
    }
    await publish("Cross-process cache check, first");
    // No wait: the very next request.
    const other = await page(second, "/news");
    expect(other.headers.get("x-page-cache")).toBe("miss");
    expect(other.text).toContain("Cross-process cache check, first");
    const same = await page(first, "/news");
    expect(same.text).toContain("Cross-process cache check, first");

    // The API's stored answers move with it.
    const list = async (server: ServerProcess) =>
      (
        await fetch(`${server.url}/api/getPosts`, {
          method: "POST",
          body: "{}",
          headers: { "content-type": "application/json" },
        })
      ).text();
    await list(second);
    await publish("Cross-process cache check, second");
    expect(await list(second)).toContain("Cross-process cache check, second");
  });

  it("answers hits with the encoding asked for, validators and 304s, and the stored page's own CSP nonce", async () => {
    await page(second, "/news", { "accept-encoding": "br, gzip" });
    const hit = await fetch(`${second.url}/news`, { headers: { "accept-encoding": "br, gzip" } });
    expect(hit.headers.get("x-page-cache")).toBe("hit");
    expect(hit.headers.get("content-encoding")).toBe("br");
    const html = await hit.text(); // fetch decodes brotli
    const nonce = /'nonce-([^']+)'/.exec(hit.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toBeTruthy();
    expect(html).toContain(`nonce="${nonce}"`);
    expect(hit.headers.get("x-frame-options")).toBe("DENY");
    const etag = hit.headers.get("etag") ?? "";
    const revalidated = await fetch(`${second.url}/news`, {
      headers: { "accept-encoding": "br, gzip", "if-none-match": etag },
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("etag")).toBe(etag);
    // Each hit logs its line with its own request id.
    const id = "req-cache-hit-1";
    await fetch(`${second.url}/news`, { headers: { "x-request-id": id } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(second.logs().some((line) => line.req_id === id && line.cache === "hit" && line.status === 200)).toBe(true);
  });

  it("answers an API client's GET of the meetings from the front door, anonymous or with a token, each from its own entry", async () => {
    const path = "/api/meetings?start_date=2025-06-01";
    const first = await page(second, path);
    expect(first.status).toBe(200);
    const id = "req-api-front-door-1";
    const hit = await page(second, path, { "x-request-id": id });
    expect(hit.headers.get("x-page-cache")).toBe("hit");
    expect(hit.headers.get("cache-control")).toBe("no-store");
    expect(JSON.parse(hit.text)).toEqual(JSON.parse(first.text));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(
      second.logs().some((line) => line.req_id === id && line.cache === "hit" && line.path === "/api/meetings"),
    ).toBe(true);
    // An API client with a token: its role's own entry, never the visitors'.
    const signedIn = await page(second, path, { authorization: `Bearer ${token}` });
    expect(signedIn.headers.get("x-page-cache")).toBe("miss");
    expect(JSON.parse(signedIn.text).data).toBeDefined();
    expect((await page(second, path, { authorization: `Bearer ${token}` })).headers.get("x-page-cache")).toBe("hit");
    // A route that does not declare its answer content is the app's every time.
    for (let i = 0; i < 2; i++) {
      const contact = await page(second, "/api/getContactData");
      expect(contact.status).toBe(200);
      expect(contact.headers.get("x-page-cache")).toBeNull();
    }
  });

  it("answers stored API reads sent as a POST, or with a Bearer token, at the front door; a token is checked each time", async () => {
    const post = (headers: Record<string, string> = {}, body = '{"filters":"06-2022"}') =>
      fetch(`${second.url}/api/getPosts`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    expect((await post()).status).toBe(200);
    const anonymous = await post({ "x-request-id": "req-api-post-hit-1" });
    expect(anonymous.headers.get("x-page-cache")).toBe("hit");
    expect((await post({}, '{"filters":"07-2022"}')).headers.get("x-page-cache")).toBe("miss");
    // A POST read always gets its answer, whatever validator it sends.
    const validated = await post({ "if-none-match": "*" });
    expect(validated.status).toBe(200);
    expect(JSON.parse(await validated.text()).data).toBeDefined();
    // Type and body are keyed apart: one request's type and body never pass for another's.
    const form = (type: string, body: string) =>
      fetch(`${second.url}/api/getPosts`, { method: "POST", headers: { "content-type": type }, body });
    expect((await form("application/x-www-form-urlencoded", "; charset=utf-8 filters=06-2022")).status).toBe(200);
    const other = await form("application/x-www-form-urlencoded ; charset=utf-8", "filters=06-2022");
    expect(other.headers.get("x-page-cache")).toBe("miss");
    // Refused by the CSRF check, or by the method override, though an answer to the same body is stored.
    expect((await post({ origin: "https://elsewhere.example" })).status).toBe(403);
    expect((await post({ "x-http-method-override": "DELETE" })).status).toBe(405);

    const client = await apiToken(second, ADMIN.email, ADMIN.password);
    expect((await post({ authorization: `Bearer ${client}` })).headers.get("x-page-cache")).toBe("miss");
    const byToken = await post({ authorization: `Bearer ${client}`, "x-request-id": "req-api-bearer-hit-1" });
    expect(byToken.headers.get("x-page-cache")).toBe("hit");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const lines = second.logs();
    expect(
      lines.some((line) => line.req_id === "req-api-post-hit-1" && line.cache === "hit" && line.method === "POST"),
    ).toBe(true);
    expect(lines.some((line) => line.req_id === "req-api-bearer-hit-1" && line.cache === "hit" && line.user)).toBe(
      true,
    );

    // A client that goes away halfway through its body leaves the server as it was.
    const { port } = new URL(second.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write(
          'POST /api/getPosts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 21\r\n\r\n{"filt',
        );
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
    expect((await post()).headers.get("x-page-cache")).toBe("hit");

    // A header sent twice, which node:http and the app read differently, sends the request to the app.
    const twice = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        const body = '{"filters":"06-2022"}';
        socket.write(
          `POST /api/getPosts HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n` +
            `Authorization: Bearer ${client}\r\nAuthorization: Bearer ${client}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        );
      });
      let answer = "";
      socket.on("data", (chunk) => {
        answer += chunk.toString("latin1");
      });
      socket.on("close", () => resolve(answer));
      socket.on("error", reject);
    });
    expect(twice).toMatch(/^HTTP\/1\.1 200/);
    expect(twice.toLowerCase()).not.toContain("x-page-cache: hit");

    // Once the token is ended, its stored answer is not given to it again.
    const logout = await fetch(`${second.url}/api/dashboard/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${client}` },
    });
    expect(logout.status).toBeLessThan(300);
    expect((await post({ authorization: `Bearer ${client}` })).headers.get("x-page-cache")).not.toBe("hit");
  });

  it("gives signed-in users of one role one render of a shared page, with nothing of any person in it", async () => {
    const members = [
      { email: "ada.member@masthead.test", first: "Ada", last: "Lovelace-Cachetest" },
      { email: "grace.member@masthead.test", first: "Grace", last: "Hopper-Cachetest" },
    ];
    const cookies: string[] = [];
    for (const member of members) {
      await addUser(first.dataDir, [
        "--email",
        member.email,
        "--role",
        "member",
        "--password",
        "member long password",
        "--first-name",
        member.first,
        "--last-name",
        member.last,
      ]);
      cookies.push(await signIn(second, member.email, "member long password"));
    }
    const memberToken = await apiToken(second, members[0].email, "member long password");
    const adminCookie = await signIn(second, ADMIN.email, ADMIN.password);
    const personal = [ADMIN.email, ...members.flatMap((m) => [m.email, m.first, m.last])];

    const seen: { text: string; state: string | null }[] = [];
    for (const path of ["/events", "/news", "/dashboard/events", "/dashboard"]) {
      const one = await page(second, path, { cookie: cookies[0] });
      const other = await page(second, path, { cookie: cookies[1] });
      const bearer = await page(second, path, { authorization: `Bearer ${memberToken}` });
      expect(one.status).toBe(200);
      // The first member's render is the role's: the second and an API client get the same bytes.
      expect(other.headers.get("x-page-cache")).toBe("hit");
      expect(bearer.headers.get("x-page-cache")).toBe("hit");
      expect(other.text).toBe(one.text);
      for (const answer of [one, other]) {
        expect(answer.headers.get("cache-control")).toBe("private, no-store");
        // The page says who is signed in only as the role: the browser fetches the rest.
        expect(saysRoleOnly(answer.text)).toBe(true);
        seen.push({ text: answer.text, state: answer.headers.get("x-page-cache") });
      }
      const admin = await page(second, path, { cookie: adminCookie });
      expect(admin.headers.get("x-page-cache")).toBe("miss");
      seen.push({ text: admin.text, state: "admin" });
    }
    const visitor = await page(second, "/events");
    expect(saysRoleOnly(visitor.text)).toBe(false);
    seen.push({ text: visitor.text, state: visitor.headers.get("x-page-cache") });
    for (const { text } of seen) for (const value of personal) expect(text).not.toContain(value);

    // What names the person comes to the browser on its own, to that person alone.
    const own = await fetch(`${second.url}/api/dashboard/user`, { headers: { cookie: cookies[1] } });
    expect(((await own.json()) as { user: { email: string } }).user.email).toBe(members[1].email);

    // A page that is the person's own (their profile) is rendered for them each time, never stored.
    for (let i = 0; i < 2; i++) {
      const settings = await page(second, "/dashboard/user-settings", { cookie: cookies[0] });
      expect(settings.headers.get("x-page-cache")).toBeNull();
      expect(settings.text).toContain(members[0].first);
      expect(settings.text).not.toContain(members[1].first);
    }

    // A client navigation's data (a post's `.data`, whose path its route would match) is read for the
    // person, never shared: after a sign-in, the root's data there is the person's own.
    const slug = /href="\/post\/([\w-]+)"/.exec((await page(second, "/news")).text)?.[1];
    expect(slug).toBeTruthy();
    for (const [index, member] of members.entries()) {
      const data = await page(second, `/post/${slug}.data`, { cookie: cookies[index] });
      expect(data.status).toBe(200);
      expect(data.headers.get("x-page-cache")).toBeNull();
      expect(data.text).toContain(member.email);
    }
  });

  it("gives bots and browsers the whole page, each from their own entry", async () => {
    const bot = { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" };
    const chrome = {
      "user-agent":
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
    };
    await page(second, "/", chrome);
    const browser = await page(second, "/", chrome);
    const crawler = await page(second, "/", bot);
    const crawlerAgain = await page(second, "/", bot);
    expect(browser.headers.get("x-page-cache")).toBe("hit");
    expect(crawler.headers.get("x-page-cache")).toBe("miss");
    expect(crawlerAgain.headers.get("x-page-cache")).toBe("hit");
    for (const answer of [browser, crawlerAgain]) expect(answer.text.trimEnd()).toMatch(/<\/html>$/);
  });
});
