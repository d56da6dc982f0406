import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./server";

const MB = 1024 * 1024;

/** Resident memory of the server process, from /proc. */
function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]) * 1024;
}

/**
 * Downloads that clients abandon, against the built server: a personal data export (a ZIP written
 * while it is sent) cut off at every moment by clients that go away, as browsers closed mid-download
 * and load testers ending a run do. The process must go on serving. Node's `Readable.toWeb` handed a
 * chunk the archive emitted after the client had gone to the cancelled stream, which threw from the
 * archive's event: an uncaught exception, and the server process ended (found by the bench).
 */
const ADMIN = { email: "downloads-admin@masthead.test", password: "downloads admin long password" };

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
}, 60_000);

afterAll(async () => {
  await server?.stop();
  server?.cleanup();
});

/** `count` requests of `url`, ten at once, each client leaving after a different moment; answers how many left early. */
async function abandon(url: string, headers: Record<string, string>, count: number, stop: () => boolean) {
  // Before the answer, after its headers, during its body: the moments repeat across the rounds so
  // that each falls at every stage of the writing.
  let abandoned = 0;
  for (let round = 0; round < count / 10 && !stop(); round += 1) {
    await Promise.all(
      Array.from({ length: 10 }, async (_, n) => {
        const controller = new AbortController();
        const leave = setTimeout(() => controller.abort(), ((round * 10 + n) % 23) / 4);
        try {
          const response = await fetch(url, { headers, signal: controller.signal });
          await response.arrayBuffer();
        } catch {
          abandoned += 1;
        } finally {
          clearTimeout(leave);
        }
      }),
    );
  }
  return abandoned;
}

describe("downloads a client abandons", () => {
  it("keeps the server up when personal data exports are cut off at every moment", async () => {
    const url = `${server.url}/api/dashboard/privacy/export?email=${encodeURIComponent(ADMIN.email)}`;
    const headers = { authorization: `Bearer ${token}` };
    let exited: number | string | null = null;
    void server.exited.then((code) => {
      exited = code;
    });
    const abandoned = await abandon(url, headers, 400, () => exited !== null);
    expect(abandoned).toBeGreaterThan(0);
    expect(exited, server.stderr.join("").slice(-2_000)).toBeNull();
    // Still serving, and a download that is read to its end is a whole archive.
    const whole = await fetch(url, { headers });
    expect(whole.status).toBe(200);
    const files = unzipSync(new Uint8Array(await whole.arrayBuffer()));
    expect(Object.keys(files)).toContain("README.txt");
    expect(server.stderr.join("")).not.toMatch(/ERR_INVALID_STATE|Controller is already closed/);
  }, 120_000);

  it("streams a long history as it reads it: a 20 MB archive without the server holding it (issue 35)", async () => {
    const headers = { authorization: `Bearer ${token}` };
    const me = (
      (await (await fetch(`${server.url}/api/dashboard/user`, { headers })).json()) as { user: { id: number } }
    ).user;
    expect(me.id).toBeGreaterThan(0);
    // 100 000 audit rows made by the admin, written into the server's database beside it (WAL):
    // two years of a busy secretariat, 300 characters that do not compress each.
    const file = new Database(path.join(server.dataDir, "site.db"));
    file.pragma("busy_timeout = 5000");
    const insert = file.prepare(
      "insert into audit_log (created_at, actor_id, actor_name, action, entity, entity_id, summary) values (?, ?, 'Admin', 'update', 'page', ?, ?)",
    );
    file.transaction(() => {
      for (let n = 0; n < 100_000; n += 1) {
        insert.run("2026-11-01T09:00:00.000Z", me.id, String(n), randomBytes(225).toString("base64"));
      }
    })();
    file.close();

    const pid = server.child.pid ?? 0;
    const before = rssBytes(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssBytes(pid));
    }, 20);
    let bytes = 0;
    try {
      const response = await fetch(`${server.url}/api/dashboard/user/export`, { headers });
      expect(response.status).toBe(200);
      for await (const chunk of response.body as ReadableStream<Uint8Array>) bytes += chunk.byteLength;
    } finally {
      clearInterval(sampler);
    }
    const growth = peak - before;
    console.log(
      `export of ${(bytes / MB).toFixed(1)} MB: server RSS grew by ${(growth / MB).toFixed(1)} MB at its peak`,
    );
    expect(bytes).toBeGreaterThan(20 * MB);
    // Held whole, the archive alone would have grown it by its size.
    expect(growth).toBeLessThan(25 * MB);
  }, 180_000);
});
