import { createServer, type Server } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { ConfigError, loadConfig } from "../lib/env";
import { createSite } from "./app";
import { continueWhenRead, lingerBeforeClose } from "./lingering-close";
import { createRuntime, createSiteJobRunner } from "./runtime";
import { gracefulShutdown, HTTP_TIMEOUTS } from "./shutdown";

/** Production entry: bundled to build/server.js beside build/server/ and build/client/. */
const SHUTDOWN_GRACE_MS = 10_000;
/** The longest a mail waits for a moment without requests (decision 0069): at least five a second leave under load. */
const MAIL_YIELDS_AT_MOST_MS = 200;

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const runtime = await createRuntime(config);
  // Made (and JOBS_SCHEDULES checked) in every process; started only where JOBS is on.
  let jobs: ReturnType<typeof createSiteJobRunner>;
  try {
    jobs = createSiteJobRunner(runtime);
  } catch (error) {
    await runtime.database.destroy();
    throw error;
  }
  const here = path.dirname(fileURLToPath(import.meta.url));
  const buildPath = path.join(here, "server", "index.js");
  const build = (await import(buildPath)) as ServerBuild;
  const { app, pageCache } = createSite(runtime, { build: async () => build, clientDir: path.join(here, "client") });

  const appListener = getRequestListener(app.fetch);
  // Cached pages are answered here, before a request is turned into a fetch Request for the app; so are
  // the API's stored reads, once the caller's token or the POST's small body has been read.
  const server: Server = createServer({ ...HTTP_TIMEOUTS }, (request, response) => {
    if (pageCache?.serveHit(request, response)) return;
    if (pageCache && request.url?.startsWith("/api/")) {
      pageCache.serveApiHit(request, response).then(
        (served) => {
          if (!served) void appListener(request, response);
        },
        (error: unknown) => {
          // The app answers it instead (with the body read so far, as rawBody), and says what went wrong.
          runtime.logger.error({ err: error }, "stored API answer not served");
          if (!response.headersSent) void appListener(request, response);
        },
      );
      return;
    }
    void appListener(request, response);
  });
  server.listen(config.port, config.host, () => {
    runtime.logger.info({ port: config.port, host: config.host, url: config.baseUrl.href }, "server listening");
  });
  server.keepAliveTimeout = HTTP_TIMEOUTS.keepAliveTimeout;
  // A refused upload's answer reaches the client before the connection closes; a client that asks
  // first (Expect: 100-continue) is refused before it sends the body (decision 0034).
  lingerBeforeClose(server);
  continueWhenRead(server);
  const shutdown = gracefulShutdown(server);
  runtime.services.mail.yieldTo(() => shutdown.whenQuiet(MAIL_YIELDS_AT_MOST_MS));
  if (config.jobs.enabled) jobs.start();
  else runtime.logger.info("scheduled jobs off in this process (JOBS=off)");

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    runtime.logger.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      runtime.logger.warn("in-flight requests or jobs did not finish in time; closing anyway");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    // Refuse new connections, finish the requests in flight (each answered with Connection: close)
    // and the job running now (decision 0045), then close the database and exit 0.
    void Promise.all([shutdown.drain(), jobs.stop()])
      .then(async () => {
        await runtime.database.destroy();
        runtime.logger.info("stopped");
        process.exit(0);
      })
      .catch((error) => {
        runtime.logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
