import { serve } from "@hono/node-server";
import { loadConfig } from "../../lib/env";
import { createApp } from "../../server/app";
import { createRuntime } from "../../server/runtime";
import { HTTP_TIMEOUTS } from "../../server/shutdown";
import { spoolTestRoutes } from "../support/spool-routes";

/**
 * The production app (createRuntime + createApp, as server/index.ts builds it, without the pages)
 * plus the test-only spooling routes of tests/support/spool-routes.ts, bundled and started as a
 * process by tests/process/upload-memory.test.ts: no route of the site spools its uploads yet.
 */
const config = loadConfig();
const runtime = await createRuntime(config);
const app = createApp(runtime, { extraApi: spoolTestRoutes(runtime) });
const server = serve({
  fetch: app.fetch,
  port: config.port,
  hostname: config.host,
  serverOptions: { ...HTTP_TIMEOUTS },
});
process.on("SIGTERM", () => {
  server.close();
  void runtime.database.destroy().then(() => process.exit(0));
});
