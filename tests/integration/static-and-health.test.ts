import fs from "node:fs";
import path from "node:path";
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

  it.each([
    "/uploads/../secret.txt",
    "/uploads/..%2fsecret.txt",
    "/uploads/%2e%2e/secret.txt",
    "/uploads/news/..%2f..%2fsecret.txt",
    "/uploads/%2e%2e%2fsecret.txt",
    "/uploads/news/missing.png",
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
