import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ANSWER_CACHE_HEADER } from "../../server/cache/answer-cache";
import { compressBody } from "../../server/middleware/compress";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { BACKGROUND_BROTLI } from "../support/waits";

/**
 * Issue 15: the API's list answers kept per content version and role. A stored answer is only
 * ever served to a caller of the same role, and an admin's change is seen on the next request.
 */
let t: TestContext;
let admin: string;
let member: string;

beforeAll(async () => {
  t = await createTestContext();
  admin = (await signIn(t.runtime.services, "admin")).token;
  member = (await signIn(t.runtime.services, "member")).token;
});
afterAll(async () => t.close());

const state = (res: { headers: Headers }) => res.headers.get(ANSWER_CACHE_HEADER);

describe("API answer cache", () => {
  it("answers the same list from memory until an admin publishes, then reads it again", async () => {
    const first = await call(t.app, "POST", "/api/getPosts", { json: {} });
    const second = await call(t.app, "POST", "/api/getPosts", { json: {} });
    expect(first.status).toBe(200);
    expect(state(first)).toBe("miss");
    expect(state(second)).toBe("hit");
    expect(second.text).toBe(first.text);
    // Another body is another answer.
    const searched = await call(t.app, "POST", "/api/getPosts", { json: { search: "radar" } });
    expect(state(searched)).toBe("miss");

    const form = { title: "A post published while the list was cached", content: "<p>News.</p>" };
    const created = await call(t.app, "POST", "/api/dashboard/news", { token: admin, form });
    expect(created.status, created.text).toBe(201);
    const after = await call(t.app, "POST", "/api/getPosts", { json: {} });
    expect(state(after)).toBe("miss");
    expect(after.text).toContain("A post published while the list was cached");
  });

  it("sends a stored answer in the encoding asked for, compressed once at the highest effort", async () => {
    for (let n = 0; n < 6; n++) {
      const form = {
        title: `Encoded answer post ${n}`,
        content: `<p>${"Radar and ECDIS service news. ".repeat(12)}</p>`,
      };
      expect((await call(t.app, "POST", "/api/dashboard/news", { token: admin, form })).status).toBe(201);
    }
    const identity = await call(t.app, "POST", "/api/getPosts", { json: { search: "" } });
    expect(identity.headers.get("Content-Encoding")).toBeNull();
    expect(identity.text.length).toBeGreaterThan(1024);
    const ask = (acceptEncoding: string) =>
      t.app.request("/api/getPosts", {
        method: "POST",
        headers: { "content-type": "application/json", "accept-encoding": acceptEncoding },
        body: JSON.stringify({ search: "" }),
      });
    for (const [accept, encoding, decode] of [
      ["br, gzip", "br", zlib.brotliDecompressSync],
      ["gzip", "gzip", zlib.gunzipSync],
    ] as const) {
      // The stored effort (brotli 11 with the window sized to the body, gzip 9), not the per-request one:
      // gzip at once; brotli once the background has made it (encodeForStore), the quick one until then.
      const stored = await compressBody(Buffer.from(identity.text), encoding, "stored");
      await vi.waitFor(async () => {
        const body = Buffer.from(await (await ask(accept)).arrayBuffer());
        expect(decode(body).toString("utf8")).toBe(identity.text);
        expect(body.equals(stored)).toBe(true);
      }, BACKGROUND_BROTLI);
      for (let i = 0; i < 2; i++) {
        const response = await ask(accept);
        expect(state(response)).toBe("hit");
        expect(response.headers.get("Content-Encoding")).toBe(encoding);
        expect(response.headers.get("Vary")).toContain("Accept-Encoding");
        const body = Buffer.from(await response.arrayBuffer());
        expect(decode(body).toString("utf8")).toBe(identity.text);
        expect(body.equals(stored)).toBe(true);
      }
    }
  });

  it("keeps answers apart by role: a member's answer never reaches a visitor", async () => {
    const category = await call(t.app, "POST", "/api/dashboard/papers-categories", {
      token: admin,
      json: { name: "Answer cache members-only category", is_public: "false" },
    });
    expect(category.status, category.text).toBe(201);
    const id = (category.json as { category: { id: number } }).category.id;
    const path = `/api/dashboard/getPapersByCategory/${id}`;
    const asMember = await call(t.app, "POST", path, { token: member, json: {} });
    const again = await call(t.app, "POST", path, { token: member, json: {} });
    expect(asMember.status).toBe(200);
    expect(state(again)).toBe("hit");
    const asVisitor = await call(t.app, "POST", path, { json: {} });
    expect(asVisitor.status).toBe(404);
    expect(state(asVisitor)).toBeNull();
  });

  it("lets an admin read lists with POST without moving the content version", async () => {
    const before = await t.runtime.services.contentVersion.current();
    const res = await call(t.app, "POST", "/api/getPosts", { token: admin, json: { page: 1 } });
    expect(res.status).toBe(200);
    expect(await t.runtime.services.contentVersion.current()).toBe(before);
  });

  it("keeps members-only search results away from visitors", async () => {
    const query = "/api/search?search_query=answer%20cache";
    const asMember = await call(t.app, "GET", query, { token: member });
    const asVisitor = await call(t.app, "GET", query);
    expect(asMember.status).toBe(200);
    expect(asVisitor.status).toBe(200);
    expect(state(asVisitor)).toBe("miss");
    // The members-only category created above is found by a member only.
    const titles = (res: { json: unknown }) =>
      (res.json as { results: { title: string }[] }).results.map((r) => r.title).join(" | ");
    expect(titles(asMember)).toContain("Answer cache members-only category");
    expect(titles(asVisitor)).not.toContain("members-only category");
  });
});
