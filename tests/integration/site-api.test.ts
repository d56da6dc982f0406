import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  const now = new Date().toISOString();
  await t.database.db
    .insertInto("pages")
    .values([
      {
        url: "/privacy-policy",
        title: "Privacy Policy",
        content:
          '<h2>Your data</h2><p onclick="x()">We keep <a href="javascript:alert(1)">little</a>.</p><script>alert(1)</script>',
        created_at: now,
        updated_at: now,
      },
      {
        url: "/s-421",
        title: "S-421 Route Exchange",
        content: "<p>Route plan exchange between ships and shore.</p>",
        created_at: now,
        updated_at: now,
      },
      {
        url: "/standards-guide",
        title: "Standards guide",
        content: "<p>An overview of the IEC standard for navigation equipment.</p>",
        created_at: now,
        updated_at: now,
      },
      {
        url: "/history",
        title: "History",
        content: "<p>Founded by radio companies; the standards work came later.</p>",
        created_at: now,
        updated_at: now,
      },
    ])
    .execute();
  // Feed the index the way the product does: through the pages service.
  for (const url of ["/privacy-policy", "/s-421", "/standards-guide", "/history"]) {
    const page = await t.runtime.services.pages.getPage(url);
    await t.runtime.services.pages.updatePage(url, { title: page.title, content: page.content });
  }
  await t.runtime.services.settings.set({
    "site.email": "office@example.org",
    "site.phone": "+44 20 0000 0000",
    "site.name": "Masthead",
  });
});
afterAll(async () => t.close());

describe("GET /api/page/{url}", () => {
  it("answers the page's sanitized HTML", async () => {
    const res = await call(t.app, "GET", "/api/page/privacy-policy");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "success", title: "Privacy Policy" });
    const content = res.json?.content as string;
    expect(content).toContain("<h2>Your data</h2>");
    expect(content).not.toMatch(/script|onclick|javascript:/);
  });

  it("sanitizes again on read, even if hostile HTML reached the table", async () => {
    await t.database.db
      .updateTable("pages")
      .set({ content: '<p>ok</p><img src=x onerror="alert(1)">' })
      .where("url", "=", "/history")
      .execute();
    const res = await call(t.app, "GET", "/api/page/history");
    expect(res.json?.content).not.toContain("onerror");
  });

  it.each([
    "/api/page/no-such-page",
    "/api/page/..%2f..%2fetc%2fpasswd",
    "/api/page/",
    "/api/page/%00",
    "/api/page/A_B",
  ])("answers 404 JSON for %s", async (url) => {
    const res = await call(t.app, "GET", url);
    expect(res.status).toBe(404);
    expect(res.json?.status).toBe("error");
  });
});

describe("GET /api/getContactData", () => {
  it("answers the contact settings and company name", async () => {
    const res = await call(t.app, "GET", "/api/getContactData");
    expect(res.json).toEqual({
      status: "success",
      data: {
        "site.email": "office@example.org",
        "site.phone": "+44 20 0000 0000",
        "site.twitter": "",
        "site.youtube": "",
        "site.linkedin": "",
        "site.name": "Masthead",
      },
    });
  });
});

describe("GET /api/search", () => {
  const search = async (q: string) => {
    const res = await call(t.app, "GET", `/api/search?search_query=${encodeURIComponent(q)}`);
    expect(res.status, q).toBe(200);
    expect(res.json?.status).toBe("success");
    return res.json?.results as { url: string; content: string; subtitle: string; title: string }[];
  };

  it("finds pages with a highlighted snippet and a subtitle", async () => {
    const results = await search("route exchange");
    expect(results[0]).toMatchObject({ url: "/s-421", title: "S-421 Route Exchange", subtitle: "Page" });
    expect(results[0].content).toMatch(/<mark>Route<\/mark>/i);
  });

  it("stems ('standards' finds 'standard') and matches prefixes", async () => {
    expect((await search("standards")).map((r) => r.url)).toContain("/standards-guide");
    expect((await search("navig")).map((r) => r.url)).toEqual(["/standards-guide"]);
  });

  it("ranks a title match above a passing mention", async () => {
    const results = await search("standard");
    expect(results[0].url).toBe("/standards-guide");
  });

  it.each([
    "'; drop table pages; --",
    '"unbalanced',
    "route* OR NEAR(x y)",
    "a & b | !c:*",
    "<script>alert(1)</script>",
    "%_\\",
    "",
    "   ",
    "x".repeat(5000),
    "日本語 テスト",
  ])("treats %s as plain text, never an error", async (q) => {
    const results = await search(q);
    expect(Array.isArray(results)).toBe(true);
    for (const r of results) expect(r.content).not.toContain("<script>");
  });

  it("escapes the text around the marks", async () => {
    const now = new Date().toISOString();
    await t.database.db
      .insertInto("pages")
      .values({
        url: "/tributes",
        title: "Tributes",
        content: "<p>Engineers &lt;img src=x onerror=alert(1)&gt; remembered.</p>",
        created_at: now,
        updated_at: now,
      })
      .execute();
    await t.runtime.services.pages.updatePage("/tributes", {
      title: "Tributes",
      content: "<p>Engineers &lt;img src=x onerror=alert(1)&gt; remembered.</p>",
    });
    const [hit] = await search("remembered");
    expect(hit.content).toContain("&lt;img");
    expect(hit.content).not.toContain("<img");
  });
});

describe("admin editing through the API", () => {
  it("PATCH /api/dashboard/settings validates and saves; the next read shows it", async () => {
    const { token } = await signIn(t.runtime.services, "admin");
    const bad = await call(t.app, "PATCH", "/api/dashboard/settings", {
      token,
      json: { "site.email": "nope", "site.linkedin": "http://insecure.example", "site.name": "" },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json?.errors as object).sort()).toEqual(["site.email", "site.linkedin", "site.name"]);
    const good = await call(t.app, "PATCH", "/api/dashboard/settings", {
      token,
      json: { "site.email": "chair@example.org" },
    });
    expect(good.status).toBe(200);
    const read = await call(t.app, "GET", "/api/getContactData");
    expect((read.json as { data: Record<string, string> }).data["site.email"]).toBe("chair@example.org");
  });

  it("PATCH /api/dashboard/pages/{url} sanitizes, re-indexes, and 404s unknown pages", async () => {
    const { token } = await signIn(t.runtime.services, "admin");
    const res = await call(t.app, "POST", "/api/dashboard/pages/s-421", {
      token,
      form: {
        _method: "PATCH",
        title: "S-421",
        content: '<p>Voyage plans <a href="javascript:x()">here</a></p><script>x()</script>',
      },
    });
    expect(res.status).toBe(200);
    expect((res.json as { page: { content: string } }).page.content).toBe("<p>Voyage plans <a>here</a></p>");
    const results = await call(t.app, "GET", "/api/search?search_query=voyage");
    expect((results.json as { results: { url: string }[] }).results.map((r) => r.url)).toEqual(["/s-421"]);
    const missing = await call(t.app, "PATCH", "/api/dashboard/pages/nowhere", {
      token,
      json: { title: "x", content: "<p>x</p>" },
    });
    expect(missing.status).toBe(404);
    const invalid = await call(t.app, "PATCH", "/api/dashboard/pages/s-421", {
      token,
      json: { title: "", content: 5 },
    });
    expect(invalid.status).toBe(422);
  });
});
