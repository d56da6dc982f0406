import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../../db/connect";
import { migrateToLatest } from "../../db/migrate";
import { loadConfig } from "../../lib/env";
import { seedDemoContent } from "../seed/index";

/**
 * The production build (build/server.js) on a data directory of its own with
 * the demo content, on a free port, for the page-weight and Lighthouse runs.
 */
export type DemoServer = { url: string; stop: () => Promise<void> };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function startDemoServer(
  log: (message: string) => void = console.log,
  /** Where visitors reach it when that is a proxy in front (BASE_URL, with TRUST_PROXY). */
  proxied?: { baseUrl: string },
): Promise<DemoServer> {
  const bundle = path.resolve("build/server.js");
  if (!fs.existsSync(bundle)) throw new Error("build/server.js is missing: run `npm run build` first.");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-weight-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? os.tmpdir(),
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: proxied?.baseUrl ?? url,
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    ...(proxied ? { TRUST_PROXY: "true" } : {}),
  };
  log(`Loading the demo content into ${dataDir}…`);
  const config = loadConfig(env);
  fs.mkdirSync(config.uploadsDir, { recursive: true });
  const database = openDatabase(config);
  await migrateToLatest(database.db);
  await seedDemoContent(database.db, { uploadsDir: config.uploadsDir, privateDir: config.privateDir });
  await database.destroy();

  const child: ChildProcess = spawn(process.execPath, [bundle], { env, stdio: ["ignore", "ignore", "inherit"] });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + 30_000;
  let ready = false;
  while (!ready && !gone && Date.now() < deadline) {
    ready = await fetch(`${url}/readyz`).then(
      async (response) => {
        await response.arrayBuffer();
        return response.ok;
      },
      () => false,
    );
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stop = async () => {
    if (!gone) {
      child.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  if (!ready) {
    child.kill("SIGKILL");
    await stop();
    throw new Error("The built server did not become ready.");
  }
  return { url, stop };
}

/** The public pages the budget and the Lighthouse run cover; content pages are found by following links. */
export async function publicPages(base: string): Promise<string[]> {
  const firstLink = async (page: string, pattern: RegExp) => {
    const html = await (await fetch(new URL(page, base))).text();
    for (const [, href] of html.matchAll(/<a\b[^>]*\bhref="([^"]+)"/g)) if (pattern.test(href)) return href;
    throw new Error(`no link matching ${pattern} on ${page}`);
  };
  const post = await firstLink("/news", /^\/post\/[^/?#]+$/);
  const meeting = await firstLink("/events", /^\/events\/[^/?#.]+$/);
  const category = await firstLink("/library", /^\/library\/[^/?#]+$/);
  return ["/", "/news", post, "/events", meeting, "/conference", category, "/join", "/search", "/login"];
}
