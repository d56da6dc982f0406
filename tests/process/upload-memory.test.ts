import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileSha256, multipart } from "../support/multipart";
import { MEMORY_TEST_PATH, SPOOL_TEST_PATH } from "../support/spool-routes";
import { type ServerProcess, startServer } from "./server";
import { bundleSpoolServer, uploadMeasuringRss } from "./upload-memory";

/**
 * A 50 MB upload (PAPER_MAX_BYTES) streams through a spooling route to disk: the server process
 * grows by less than 20 MB while it does. No route of the site spools yet, so the process is the
 * site's own app (createRuntime + createApp) with the test-only spooling route declared beside it
 * (tests/process/spool-server.ts); once POST /api/dashboard/papers exists, the same measurement
 * (uploadMeasuringRss) can be pointed at it on build/server.js.
 */
const MB = 1024 * 1024;
const ADMIN = { email: "admin@example.org", password: "a long admin password" };
let server: ServerProcess;
let token = "";

beforeAll(async () => {
  const entry = await bundleSpoolServer();
  server = await startServer({
    entry,
    // Uploads held in memory may be as large too here, for the measurement's own check below.
    env: {
      LOG_LEVEL: "warn",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      UPLOAD_MAX_BYTES: String(100 * MB),
    },
  });
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

const paper = (size: number) =>
  multipart([
    { name: "title", value: "Annual report" },
    { name: "file", filename: "report.pdf", type: "application/pdf", size },
  ]);

describe("memory under a large upload", () => {
  it("grows by less than 20 MB while a 50 MB file streams to disk", async () => {
    const pid = server.child.pid ?? 0;
    const url = `${server.url}/api${SPOOL_TEST_PATH}`;
    const headers = { authorization: `Bearer ${token}` };
    // Warm up: the first uploads load and compile the code on the path.
    for (let i = 0; i < 2; i++) {
      expect((await uploadMeasuringRss({ url, pid, body: paper(4 * MB), headers })).status).toBe(200);
    }
    const size = 50 * MB;
    const measure = await uploadMeasuringRss({ url, pid, body: paper(size), headers });
    console.log(
      `RSS under a 50 MB spooled upload: ${(measure.baselineBytes / MB).toFixed(1)} MB before, growth ${(measure.growthBytes / MB).toFixed(1)} MB`,
    );
    expect(measure.status).toBe(200);
    expect((measure.json as { file: { size: number; sha256: string } }).file).toMatchObject({
      size,
      sha256: fileSha256(size),
    });
    expect(measure.growthBytes).toBeLessThan(20 * MB);
    expect(fs.readdirSync(path.join(server.dataDir, "tmp"))).toEqual([]);
  });

  it("sees the file when a route gathers it in memory instead (the measurement's own check)", async () => {
    const pid = server.child.pid ?? 0;
    const url = `${server.url}/api${MEMORY_TEST_PATH}`;
    const headers = { authorization: `Bearer ${token}` };
    expect((await uploadMeasuringRss({ url, pid, body: paper(4 * MB), headers })).status).toBe(200);
    const measure = await uploadMeasuringRss({ url, pid, body: paper(50 * MB), headers });
    console.log(`RSS under a 50 MB upload held in memory: growth ${(measure.growthBytes / MB).toFixed(1)} MB`);
    expect(measure.status).toBe(200);
    expect(measure.growthBytes).toBeGreaterThan(40 * MB);
  });
});
