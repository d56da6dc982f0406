import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/env";
import { PAGE_CACHE_HEADER } from "../../server/middleware/page-cache";
import { createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { pageSite } from "../support/page-site";

/**
 * What a CDN or nginx's proxy_cache may keep (decision 0031): the page
 * request's real middleware (page cache, security headers, session, cache
 * policy) in front of pages that answer as the site's routes do.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ NODE_ENV: "production" });
});
afterAll(async () => t.close());

const PUBLIC_PAGE = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";

function site(env: Record<string, string> = {}) {
  const { services } = t.runtime;
  const config = loadConfig({ ...env, DATA_DIR: t.dataDir });
  const app = pageSite(services, config);
  app.get("/news", (c) => c.html("<p>news</p>"));
  app.get("/news.data", (c) => c.body("[]", 200, { "Content-Type": "text/x-script" }));
  app.get("/flash", (c) => c.html("<p>Saved.</p>", 200, { "Set-Cookie": "flash=; Path=/; Max-Age=0" }));
  app.get("/feed.xml", (c) =>
    c.body("<rss/>", 200, { "Content-Type": "application/rss+xml", "Cache-Control": "public, max-age=600" }),
  );
  app.get("/gone", (c) => c.html("<p>Not found</p>", 404));
  app.get("/moved", (c) => c.redirect("/news"));
  app.post("/join", (c) => c.html("<p>Please correct the form.</p>", 422));
  app.get("/api/list", (c) => c.json({ items: [] }));
  return app;
}

describe("Cache-Control for shared caches", () => {
  it("lets a shared cache keep an anonymous page for s-maxage, browsers revalidate it, and says it varies by cookie", async () => {
    const app = site();
    for (const path of ["/news", "/news.data"]) {
      const miss = await app.request(path);
      const hit = await app.request(path);
      expect(hit.headers.get(PAGE_CACHE_HEADER)).toBe("hit");
      for (const answer of [miss, hit]) {
        expect(answer.headers.get("cache-control")).toBe(PUBLIC_PAGE);
        expect(answer.headers.get("vary")).toMatch(/\bCookie\b/);
        expect(answer.headers.get("vary")).toMatch(/\bAccept-Encoding\b/);
        expect(answer.headers.get("etag")).toMatch(/^"[\w-]+"$/);
      }
      const revalidated = await app.request(path, { headers: { "if-none-match": hit.headers.get("etag") ?? "" } });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.get("cache-control")).toBe(PUBLIC_PAGE);
    }
  });

  it("takes s-maxage and stale-while-revalidate from the configuration; 0 makes every cache ask again", async () => {
    const short = site({ PAGE_CACHE_S_MAXAGE: "2", PAGE_CACHE_STALE_WHILE_REVALIDATE: "5" });
    expect((await short.request("/news")).headers.get("cache-control")).toBe(
      "public, max-age=0, s-maxage=2, stale-while-revalidate=5",
    );
    const none = site({ PAGE_CACHE_S_MAXAGE: "0" });
    expect((await none.request("/news")).headers.get("cache-control")).toBe("no-cache");
  });

  it("never lets a shared cache keep a signed-in answer or one that sets a cookie", async () => {
    const app = site();
    const member = await signIn(t.runtime.services);
    const mine = await app.request("/news", { headers: { cookie: member.cookie } });
    expect(mine.headers.get("cache-control")).toBe("private, no-store");
    expect(mine.headers.get(PAGE_CACHE_HEADER)).toBeNull();
    const flash = await app.request("/flash");
    expect(flash.headers.get("cache-control")).toBe("private, no-store");
  });

  it("says no-store on anonymous answers that are not pages: errors, redirects, form answers, the API", async () => {
    const app = site();
    expect((await app.request("/gone")).headers.get("cache-control")).toBe("no-store");
    expect((await app.request("/moved")).headers.get("cache-control")).toBe("no-store");
    const form = await app.request("/join", { method: "POST" });
    expect(form.status).toBe(422);
    expect(form.headers.get("cache-control")).toBe("no-store");
    expect((await app.request("/api/list")).headers.get("cache-control")).toBe("no-store");
  });

  it("keeps a route's own policy", async () => {
    expect((await site().request("/feed.xml")).headers.get("cache-control")).toBe("public, max-age=600");
  });
});
