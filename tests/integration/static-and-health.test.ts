import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app";
import { buildRuntime, call, createTestContext, type TestContext } from "../support/app";
import { createTestDatabase } from "../support/database";

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  fs.mkdirSync(path.join(t.runtime.config.uploadsDir, "news"), { recursive: true });
  fs.writeFileSync(
    path.join(t.runtime.config.uploadsDir, "news", "harbour.png"),
    Buffer.from("89504e470d0a1a0a", "hex"),
  );
  fs.writeFileSync(path.join(t.dataDir, "secret.txt"), "do not serve");
  fs.mkdirSync(path.join(t.runtime.config.privateDir, "papers"), { recursive: true });
  fs.writeFileSync(path.join(t.runtime.config.privateDir, "papers", "a1-report.pdf"), "do not serve");
});
afterAll(async () => t.close());

describe("uploaded files", () => {
  it("are served with long cache headers and a sandboxing CSP", async () => {
    const res = await t.app.request("/uploads/news/harbour.png");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("have one address: an encoded slash is not a folder, other escapes are decoded", async () => {
    expect((await t.app.request("/uploads/news%2Fharbour.png")).status).toBe(404);
    expect((await t.app.request("/uploads/news%2fharbour.png")).status).toBe(404);
    expect((await t.app.request("/uploads/news/harb%6Fur.png")).status).toBe(200);
  });

  it.each([
    "/uploads/../secret.txt",
    "/uploads/..%2fsecret.txt",
    "/uploads/%2e%2e/secret.txt",
    "/uploads/news/..%2f..%2fsecret.txt",
    "/uploads/%2e%2e%2fsecret.txt",
    "/uploads/news/missing.png",
    "/uploads/..%2fprivate%2fpapers%2fa1-report.pdf",
    "/uploads/%2e%2e/private/papers/a1-report.pdf",
    "/private/papers/a1-report.pdf",
    "/uploads/papers/a1-report.pdf",
  ])("never escape the uploads folder: %s", async (url) => {
    const res = await t.app.request(url);
    expect(res.status).not.toBe(200);
    expect(res.status).toBeLessThan(500);
    expect(await res.text()).not.toContain("do not serve");
  });
});

describe("/readyz", () => {
  it("answers 503 when the database does not answer", async () => {
    const database = await createTestDatabase();
    const app = createApp(buildRuntime(t.runtime.config, database));
    expect((await call(app, "GET", "/readyz")).status).toBe(200);
    await database.destroy();
    const res = await call(app, "GET", "/readyz");
    expect(res.status).toBe(503);
    expect(res.json).toEqual({ status: "error", message: "The database does not answer.", errors: {} });
    expect((await call(app, "GET", "/healthz")).status).toBe(200);
    await database.cleanup().catch(() => {});
  });
});

describe("built client files", () => {
  it("serves assets precompressed and immutable, root files briefly cached, and 404s the rest", async () => {
    const clientDir = fs.mkdtempSync(path.join(t.dataDir, "client-"));
    fs.mkdirSync(path.join(clientDir, "assets"));
    const script = `console.log(${JSON.stringify("x".repeat(2000))});`;
    fs.writeFileSync(path.join(clientDir, "assets", "entry-abc123.js"), script);
    fs.writeFileSync(path.join(clientDir, "assets", "entry-abc123.js.br"), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(clientDir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    fs.writeFileSync(path.join(clientDir, "robots.txt"), "User-agent: *\n");
    const app = createApp(t.runtime, { clientDir });

    const br = await app.request("/assets/entry-abc123.js", { headers: { "accept-encoding": "br, gzip" } });
    expect(br.status).toBe(200);
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(zlib.brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(script);
    const plain = await app.request("/assets/entry-abc123.js");
    expect(await plain.text()).toBe(script);

    for (const file of ["/favicon.svg", "/robots.txt"]) {
      const res = await app.request(file);
      expect(res.status, file).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    }
    expect((await app.request("/assets/missing.js")).status).toBe(404);
    expect((await app.request("/assets/../favicon.svg")).status).not.toBe(500);
  });
});
