import http from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { createServer as createViteServer } from "vite";
import { loadConfig } from "../lib/env";
import { createApp } from "./app";
import { createRuntime, createSiteJobRunner } from "./runtime";

/** `npm run dev`: Vite in middleware mode (hot reload) in front of the same Hono app. */
const config = loadConfig({ NODE_ENV: "development", LOG_LEVEL: "debug", ...process.env });
const runtime = await createRuntime(config);
if (config.jobs.enabled) createSiteJobRunner(runtime).start();
const vite = await createViteServer({ server: { middlewareMode: true }, appType: "custom" });
const app = createApp(runtime, {
  build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
});
const listener = getRequestListener(app.fetch);
http
  .createServer((req, res) => vite.middlewares(req, res, () => listener(req, res)))
  .listen(config.port, config.host, () => {
    runtime.logger.info({ url: config.baseUrl.href }, "dev server listening");
  });
