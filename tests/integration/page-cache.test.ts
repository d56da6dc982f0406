import { Hono } from "hono";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../lib/logger";
import { createApi } from "../../server/api";
import { ANSWER_CACHE_HEADER } from "../../server/cache/answer-cache";
import { EXPIRY_SPREAD } from "../../server/cache/versioned-store";
import type { AppEnv } from "../../server/env";
import { handleError } from "../../server/errors";
import { compressBody } from "../../server/middleware/compress";
import { csrf } from "../../server/middleware/csrf";
import { createPageCache, PAGE_CACHE_HEADER } from "../../server/middleware/page-cache";
import { securityHeaders } from "../../server/middleware/security";
import { session } from "../../server/middleware/session";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { pageSite } from "../support/page-site";
import { BACKGROUND_BROTLI } from "../support/waits";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ NODE_ENV: "production" });
});
afterAll(async () => t.close());

/**
 * The real middleware chain of a page request (CSP nonce, session, page cache)
 * in front of a page that counts its renders and prints its nonce, as React
 * Router's inline scripts do.
 */
function pageApp(options: { ttlMs?: number; maxBytes?: number; now?: () => number } = {}) {
  const { services, config } = t.runtime;
  const logger = createLogger("silent");
  const app = new Hono<AppEnv>();
  let renders = 0;
  const cache = createPageCache(
    services.contentVersion,
    { maxBytes: options.maxBytes ?? 1024 * 1024, ttlMs: options.ttlMs ?? 60_000, now: options.now, trustProxy: false },
    logger,
  );
  app.use("*", cache.middleware);
  app.use("*", securityHeaders(config));
  app.use("*", session(services, config));
  app.get("/slow", async (c) => {
    renders += 1;
    await new Promise((resolve) => setTimeout(resolve, 50));
    return c.html(`<p>slow ${renders}</p>`);
  });
  app.get("/private", (c) => {
    renders += 1;
    return c.html("<p>mine</p>", 200, { "Cache-Control": "private" });
  });
  app.get("/no-store", (c) => {
    renders += 1;
    // As the reset and welcome pages answer: their address carries a token.
    return c.html("<p>token page</p>", 200, { "Cache-Control": "no-store" });
  });
  app.get("/cookie", (c) => {
    renders += 1;
    return c.html("<p>cookie</p>", 200, { "Set-Cookie": "x=1" });
  });
  app.get("/missing", (c) => {
    renders += 1;
    return c.html("<p>not here</p>", 404);
  });
  app.get("/article", (c) => {
    renders += 1;
    const items = Array.from(
      { length: 300 },
      (_, i) => `<li><a href="/post/${i}">Radar note ${(i * 7919) % 1000}</a></li>`,
    );
    return c.html(`<article><h1>Render ${renders}</h1><ul>${items.join("")}</ul></article>`);
  });
  app.get("/big", (c) => {
    renders += 1;
    return c.html(`<p>${"x".repeat(600)}</p>`);
  });
  app.get("*", (c) => {
    renders += 1;
    const nonce = c.var.secureHeadersNonce;
    return c.html(`<p>render ${renders} of ${c.req.path}</p><script nonce="${nonce}">1</script>`);
  });
  return { app, renders: () => renders };
}

const nonceOf = (text: string) => /nonce="([^"]+)"/.exec(text)?.[1];
const cspNonceOf = (headers: Headers) => /'nonce-([^']+)'/.exec(headers.get("content-security-policy") ?? "")?.[1];

describe("page cache for anonymous visitors", () => {
  beforeEach(async () => {
    await t.runtime.services.contentVersion.changed();
  });

  it("renders a page once and serves it again from memory, its nonce in the body and the CSP alike", async () => {
    const { app, renders } = pageApp();
    const first = await call(app, "GET", "/about");
    const second = await call(app, "GET", "/about");
    const other = await call(app, "GET", "/contact");
    expect(renders()).toBe(2);
    expect(first.headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    expect(second.headers.get(PAGE_CACHE_HEADER)).toBe("hit");
    expect(second.text).toContain("render 1 of /about");
    // One nonce per stored page (decision 0026): the body's matches its CSP header; another page has its own.
    expect(nonceOf(first.text)).toBe(cspNonceOf(first.headers));
    expect(nonceOf(second.text)).toBe(cspNonceOf(second.headers));
    expect(nonceOf(other.text)).toBe(cspNonceOf(other.headers));
    expect(nonceOf(other.text)).not.toBe(nonceOf(first.text));
    // Security headers and the request's own id come with a hit as with the render.
    expect(second.headers.get("x-frame-options")).toBe("DENY");
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
  });

  it("stores each encoding once and answers the one the client accepts, with an ETag per encoding and 304s", async () => {
    const { app, renders } = pageApp();
    const page = `/long-${"x".repeat(10)}`;
    const plain = await call(app, "GET", page);
    const br = await app.request(page, { headers: { "accept-encoding": "br, gzip" } });
    const gz = await app.request(page, { headers: { "accept-encoding": "gzip" } });
    expect(renders()).toBe(1);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    for (const res of [plain.headers, br.headers, gz.headers]) expect(res.get("vary")).toContain("Accept-Encoding");
    const brBody = Buffer.from(await br.arrayBuffer());
    expect((await import("node:zlib")).brotliDecompressSync(brBody).toString()).toBe(plain.text);
    const etags = new Set([plain.headers.get("etag"), br.headers.get("etag"), gz.headers.get("etag")]);
    expect(etags.size).toBe(3);
    const again = await app.request(page, {
      headers: { "accept-encoding": "br", "if-none-match": br.headers.get("etag") ?? "" },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(br.headers.get("etag"));
    // A 304 leaves the browser the CSP it stored with its copy, whose nonce matches that copy.
    expect(again.headers.get("content-security-policy")).toBeNull();
    const stale = await app.request(page, { headers: { "if-none-match": '"something-else"' } });
    expect(stale.status).toBe(200);
  });

  it("sends a quick brotli at first, then the highest quality's smaller bytes made in the background, under the same ETag", async () => {
    const { app, renders } = pageApp();
    const { brotliDecompressSync } = await import("node:zlib");
    const ask = async () => {
      const res = await app.request("/article", { headers: { "accept-encoding": "br" } });
      return {
        etag: res.headers.get("etag"),
        length: res.headers.get("content-length"),
        body: Buffer.from(await res.arrayBuffer()),
      };
    };
    const first = await ask();
    const plain = brotliDecompressSync(first.body);
    expect(plain.toString()).toContain("<h1>Render 1</h1>");
    expect(first.body.equals(await compressBody(plain, "br", "request"))).toBe(true);
    const best = await compressBody(plain, "br", "stored");
    expect(best.length).toBeLessThan(first.body.length);
    await vi.waitFor(async () => expect((await ask()).body.equals(best)).toBe(true), BACKGROUND_BROTLI);
    const later = await ask();
    expect(later.etag).toBe(first.etag);
    expect(later.length).toBe(String(best.length));
    expect(renders()).toBe(1);
  });

  it("keys on the path and query string, and on bots apart from browsers", async () => {
    const { app, renders } = pageApp();
    await call(app, "GET", "/news?month=01-2025");
    await call(app, "GET", "/news?month=02-2025");
    await call(app, "GET", "/news?month=01-2025");
    expect(renders()).toBe(2);
    await call(app, "GET", "/news?month=01-2025", { headers: { "user-agent": "Googlebot/2.1" } });
    expect(renders()).toBe(3);
  });

  it("never serves or stores pages for signed-in users or requests carrying a session cookie", async () => {
    const { app, renders } = pageApp();
    const member = await signIn(t.runtime.services);
    await call(app, "GET", "/members-list", { cookie: member.cookie });
    await call(app, "GET", "/members-list", { cookie: member.cookie });
    await call(app, "GET", "/members-list", { token: member.token });
    await call(app, "GET", "/members-list", { cookie: "auth.session=stale" });
    // The https name of the cookie (decision 0035), the session's own and a stale one.
    await call(app, "GET", "/members-list", { cookie: `__Host-auth.session=${member.token}` });
    await call(app, "GET", "/members-list", { cookie: "theme=dark; __Host-auth.session=stale" });
    expect(renders()).toBe(6);
    const anonymous = await call(app, "GET", "/members-list");
    expect(anonymous.headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    expect(renders()).toBe(7);
  });

  it("renders again once the content version moves", async () => {
    const { app, renders } = pageApp();
    await call(app, "GET", "/");
    await call(app, "GET", "/");
    expect(renders()).toBe(1);
    await t.runtime.services.contentVersion.changed();
    const after = await call(app, "GET", "/");
    expect(after.headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    expect(after.text).toContain("render 2 of /");
  });

  it("renders again once an entry is older than the time to live", async () => {
    let clock = 1_000_000;
    const { app, renders } = pageApp({ ttlMs: 60_000, now: () => clock });
    await call(app, "GET", "/events");
    // Every entry lives at least (1 - EXPIRY_SPREAD) of the time to live…
    clock += 60_000 * (1 - EXPIRY_SPREAD) - 1_000;
    await call(app, "GET", "/events");
    expect(renders()).toBe(1);
    // …and none longer than all of it.
    clock = 1_000_000 + 61_000;
    await call(app, "GET", "/events");
    expect(renders()).toBe(2);
  });

  it("lets pages stored together expire at different times, so that they are not all rendered again at once", async () => {
    let clock = 1_000_000;
    const { app, renders } = pageApp({ ttlMs: 60_000, now: () => clock });
    const paths = Array.from({ length: 20 }, (_, i) => `/events?page=${i}`);
    for (const path of paths) await call(app, "GET", path);
    expect(renders()).toBe(20);
    // Halfway through the spread: some have expired, not all (each lifetime is drawn at random).
    clock += 60_000 * (1 - EXPIRY_SPREAD / 2);
    for (const path of paths) await call(app, "GET", path);
    expect(renders()).toBeGreaterThan(20);
    expect(renders()).toBeLessThan(40);
  });

  it("does not keep private pages, pages that set cookies, errors or pages too big for the budget", async () => {
    const { app, renders } = pageApp({ maxBytes: 2_000 });
    for (const path of ["/private", "/no-store", "/cookie", "/missing", "/big"]) {
      await call(app, "GET", path);
      const again = await call(app, "GET", path);
      expect(again.headers.get(PAGE_CACHE_HEADER), path).not.toBe("hit");
    }
    expect(renders()).toBe(10);
  });

  it("drops the least recently used pages when the memory budget is spent", async () => {
    // A page costs its bytes in each encoding it is stored in; the budget holds four and a half such pages.
    const probe = pageApp().app;
    let pageBytes = 0;
    for (const encoding of ["identity", "br", "gzip"]) {
      const res = await probe.request("/z", { headers: { "accept-encoding": encoding } });
      pageBytes += Number(res.headers.get("content-length"));
    }
    const { app, renders } = pageApp({ maxBytes: Math.floor(pageBytes * 4.5) });
    for (const path of ["/a", "/b", "/c", "/d"]) await call(app, "GET", path);
    await call(app, "GET", "/a"); // /a is now the most recently used
    await call(app, "GET", "/e"); // evicts /b
    expect(renders()).toBe(5);
    expect((await call(app, "GET", "/a")).headers.get(PAGE_CACHE_HEADER)).toBe("hit");
    expect((await call(app, "GET", "/b")).headers.get(PAGE_CACHE_HEADER)).toBe("miss");
  });

  it("shares one render between concurrent misses for the same page", async () => {
    const { app, renders } = pageApp();
    const answers = await Promise.all(Array.from({ length: 5 }, () => call(app, "GET", "/slow")));
    expect(renders()).toBe(1);
    expect(answers.every((answer) => answer.text === "<p>slow 1</p>")).toBe(true);
  });
});

describe("content version", () => {
  it("moves after a successful change by an admin, not after a refused one, a member's or an anonymous post", async () => {
    const { services } = t.runtime;
    const admin = await signIn(services, "admin");
    const member = await signIn(services, "member");
    const before = await services.contentVersion.current();

    const profile = await call(t.app, "PATCH", "/api/dashboard/user/settings", {
      token: member.token,
      json: { first_name: "Mina" },
    });
    expect(profile.status).toBe(200);

    const refused = await call(t.app, "PATCH", "/api/dashboard/settings", {
      token: admin.token,
      json: { "site.email": "not an address" },
    });
    expect(refused.status).toBe(422);
    await call(t.app, "POST", "/api/login", { json: { email: "nobody@example.org", password: "wrong password" } });
    expect(await services.contentVersion.current()).toBe(before);

    const saved = await call(t.app, "PATCH", "/api/dashboard/settings", {
      token: admin.token,
      json: { "site.email": "office@example.org" },
    });
    expect(saved.status).toBe(200);
    expect(await services.contentVersion.current()).toBeGreaterThan(before);
  });
});

/**
 * The chain of a signed-in page request as server/app.ts lays it out (decision 0032): the page
 * cache outermost, the session, the cache headers, then the signed-in door in front of a page
 * that prints who it was rendered for and its nonce. Paths under /shared are shared by the role.
 */
function sharedApp() {
  const app = pageSite(t.runtime.services, t.runtime.config, (pathname) => pathname.startsWith("/shared/"));
  let renders = 0;
  app.get("*", (c) => {
    renders += 1;
    const user = c.get("auth")?.user;
    const nonce = c.get("secureHeadersNonce");
    const who = user ? `${user.role.name} #${user.id} ${user.email} ${user.first_name} ${user.last_name}` : "nobody";
    return c.html(`<p>render ${renders} for ${who}</p><script nonce="${nonce}">1</script>`);
  });
  return { app, renders: () => renders };
}

describe("page cache for signed-in users: one render per role", () => {
  beforeEach(async () => {
    await t.runtime.services.contentVersion.changed();
  });

  it("renders a shared page once per role with the role alone, and gives every user of that role the same bytes", async () => {
    const { app, renders } = sharedApp();
    const [one, other] = [await signIn(t.runtime.services), await signIn(t.runtime.services)];
    const admin = await signIn(t.runtime.services, "admin");
    const first = await call(app, "GET", "/shared/news", { cookie: one.cookie });
    const firstText = first.text;
    expect(first.headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    expect(firstText).toContain("render 1 for member #0");
    for (const person of [one, other, admin]) {
      expect(firstText).not.toContain(person.user.email);
      expect(firstText).not.toContain(person.user.last_name);
    }

    for (const request of [{ cookie: other.cookie }, { token: one.token }]) {
      const hit = await call(app, "GET", "/shared/news", request);
      const text = hit.text;
      expect(hit.headers.get(PAGE_CACHE_HEADER)).toBe("hit");
      expect(text).toBe(firstText);
      expect(hit.headers.get("cache-control")).toBe("private, no-store");
      // The CSP is the stored page's own, so its scripts run.
      expect(cspNonceOf(hit.headers)).toBe(nonceOf(text));
    }
    expect(renders()).toBe(1);

    const forAdmin = await call(app, "GET", "/shared/news", { cookie: admin.cookie });
    expect(forAdmin.headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    expect(forAdmin.text).toContain("for admin #0");
    const visitor = await call(app, "GET", "/shared/news");
    expect(visitor.headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    expect(visitor.text).toContain("for nobody");
    expect(renders()).toBe(3);
  });

  it("renders a page its path does not share for the person, every time, and keeps none of it", async () => {
    const { app, renders } = sharedApp();
    const member = await signIn(t.runtime.services);
    for (let i = 0; i < 2; i++) {
      const mine = await call(app, "GET", "/dashboard", { cookie: member.cookie });
      expect(mine.headers.get(PAGE_CACHE_HEADER)).toBeNull();
      expect(mine.text).toContain(member.user.email);
    }
    expect(renders()).toBe(2);
    const shared = await call(app, "GET", "/shared/dashboard", { cookie: member.cookie });
    expect(shared.text).not.toContain(member.user.email);
  });

  it("renders a role's page again once the content version moves", async () => {
    const { app, renders } = sharedApp();
    const member = await signIn(t.runtime.services);
    await call(app, "GET", "/shared/events", { cookie: member.cookie });
    const hit = await call(app, "GET", "/shared/events", { cookie: member.cookie });
    expect(hit.headers.get(PAGE_CACHE_HEADER)).toBe("hit");
    await t.runtime.services.contentVersion.changed();
    const after = await call(app, "GET", "/shared/events", { cookie: member.cookie });
    expect(after.headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    expect(renders()).toBe(2);
  });
});

describe("page cache for the API's content answers", () => {
  beforeEach(async () => {
    await t.runtime.services.contentVersion.changed();
  });

  /** The page chain (server/app.ts's order, CSRF check included) in front of the real API. */
  function apiSite() {
    const app = pageSite(t.runtime.services, t.runtime.config);
    app.use("*", csrf([t.runtime.config.baseUrl.origin]));
    app.route("/api", createApi(t.runtime));
    app.onError(handleError(createLogger("silent")));
    return app;
  }

  it("keeps an anonymous GET of a content route, with its headers, in every encoding, until the content moves", async () => {
    const app = apiSite();
    const { token } = await signIn(t.runtime.services, "admin");
    const word = "Kattegatradar";
    const search = `/api/search?search_query=${word}`;
    const first = await app.request(search);
    expect(first.status).toBe(200);
    expect(first.headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    const firstBody = await first.text();
    expect(firstBody).not.toContain(word);

    const hit = await app.request(search, { headers: { "accept-encoding": "br, gzip" } });
    expect(hit.headers.get(PAGE_CACHE_HEADER)).toBe("hit");
    expect(hit.headers.get("content-encoding")).toBe("br");
    expect(hit.headers.get("content-type")).toMatch(/^application\/json/);
    // Browsers are still told not to keep it, as every API answer tells them.
    expect(hit.headers.get("cache-control")).toBe("no-store");
    expect(hit.headers.get(ANSWER_CACHE_HEADER)).toBeNull();
    const { brotliDecompressSync } = await import("node:zlib");
    expect(brotliDecompressSync(Buffer.from(await hit.arrayBuffer())).toString()).toBe(firstBody);
    const revalidated = await app.request(search, { headers: { "if-none-match": hit.headers.get("etag") ?? "" } });
    expect(revalidated.status).toBe(304);

    // An admin's change, through the site's own chain: the next anonymous GET is answered afresh.
    const form = { title: `${word} installed on the pilot boats`, content: "<p>Fitted this week.</p>" };
    const created = await call(t.app, "POST", "/api/dashboard/news", { token, form, multipart: true });
    expect(created.status, created.text).toBe(201);
    const after = await app.request(search);
    expect(after.headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    expect(await after.text()).toContain(word);
  });

  it("keeps an API client's read and an anonymous POST read under the caller's role, never a browser session's", async () => {
    const app = apiSite();
    const admin = await signIn(t.runtime.services, "admin");
    const member = await signIn(t.runtime.services, "member");
    const list = (headers: Record<string, string>, body = '{"filters":"06-2022"}') =>
      app.request("/api/getPosts", {
        method: "POST",
        // As a client sends it (a Request built in-process has no Content-Length until it is sent).
        headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), ...headers },
        body,
      });
    // Stored (the app's answer, marked as the entry's first): the front door answers the next one.
    const callers: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${member.token}` },
      { authorization: `Bearer ${admin.token}` },
    ];
    for (const headers of callers) {
      const answer = await list(headers);
      expect(answer.status).toBe(200);
      expect(answer.headers.get(PAGE_CACHE_HEADER)).toBe("miss");
    }
    // A browser's session: through the app, as before, and kept nowhere here.
    const browser = await list({ cookie: member.cookie, origin: "http://localhost:3000" });
    expect(browser.status).toBe(200);
    expect(browser.headers.get(PAGE_CACHE_HEADER)).toBeNull();
    // Refused by the CSRF check, or too big to key on: the app's answer, not kept.
    const crossSite = await list({ origin: "https://elsewhere.example" });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get(PAGE_CACHE_HEADER)).toBeNull();
    const big = await list({}, JSON.stringify({ filters: "06-2022", padding: "x".repeat(5000) }));
    expect(big.headers.get(PAGE_CACHE_HEADER)).toBeNull();
    // A POST whose route does not say its answer is content (here: whether a password is right) is never kept.
    const body = JSON.stringify({ password: "not the password" });
    const check = await app.request("/api/dashboard/user/checkValidPass", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": String(body.length),
        authorization: `Bearer ${member.token}`,
      },
      body,
    });
    expect(check.status).toBe(200);
    expect(check.headers.get(PAGE_CACHE_HEADER)).toBeNull();
  });

  it("never keeps a browser session's answer, an answer its route does not declare content, or an error", async () => {
    const app = apiSite();
    const member = await signIn(t.runtime.services, "member");
    const meetings = "/api/meetings?start_date=2025-06-01";
    // A browser's session: the API's own answer cache keeps it, the page cache never does.
    for (let i = 0; i < 2; i++) {
      const signedIn = await app.request(meetings, { headers: { cookie: member.cookie } });
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers.get(PAGE_CACHE_HEADER)).toBeNull();
      expect(signedIn.headers.get(ANSWER_CACHE_HEADER)).toBe(i === 0 ? "miss" : "hit");
    }
    for (const path of ["/api/getContactData", "/api/openapi.json", "/api/meetings?start_date=not-a-date"]) {
      const first = await app.request(path);
      const again = await app.request(path);
      expect(first.headers.get(PAGE_CACHE_HEADER), path).toBeNull();
      expect(again.headers.get(PAGE_CACHE_HEADER), path).toBeNull();
    }
  });
});
