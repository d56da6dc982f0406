import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { startServer } from "./server";

/**
 * The built server on the Node.js of the test run (decision 0038): `npm test`
 * runs the process tests on Node 24 (decision 0080), which sets TEST_NODE_VERSION;
 * run by hand they run on whatever Node runs them. The server must run on that very Node, serve pages and
 * the API, and stop cleanly without a warning or an abort on stderr.
 */
const wanted = process.env.TEST_NODE_VERSION;

describe("the built server on the Node.js of the test run", () => {
  it("runs on it, answers, and stops with exit code 0 and nothing on stderr", async () => {
    const server = await startServer();
    try {
      const executable = fs.realpathSync(`/proc/${server.child.pid}/exe`);
      expect(executable).toBe(fs.realpathSync(process.execPath));
      const serverVersion = execFileSync(executable, ["--version"], { encoding: "utf8" }).trim();
      console.log(`the server runs on Node ${serverVersion} (${executable})`);
      if (wanted) expect(serverVersion).toBe(wanted);
      // Enough requests that the database has prepared and dropped statements before the stop.
      for (let round = 0; round < 5; round += 1) {
        for (const path of ["/", "/news", "/events", "/library", "/api/meetings", "/api/getDateFilters"]) {
          const response = await fetch(`${server.url}${path}`);
          await response.arrayBuffer();
          expect(response.status, path).toBe(200);
        }
      }
      expect(await server.stop()).toBe(0);
      expect(server.stderr).toEqual([]);
    } finally {
      await server.stop();
      server.cleanup();
    }
  });
});
