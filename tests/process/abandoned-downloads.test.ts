import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./server";

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
});
