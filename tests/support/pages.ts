import type { ServerBuild } from "react-router";
import { createServer as createViteServer, type ViteDevServer } from "vite";
import { createApp } from "../../server/app";
import type { TestContext } from "./app";

/**
 * The app with its pages: the route modules rendered by Vite's SSR loader, as `npm run dev`
 * serves them, with the real page cache in front. Compiled here, under the caller's hook
 * timeout: on a busy machine the first page's compile outlasts a test's.
 */
export async function pagesApp(
  t: TestContext,
): Promise<{ pages: TestContext["app"]; build: () => Promise<ServerBuild>; close: () => Promise<void> }> {
  const vite = await sharedVite();
  const build = () => vite.ssrLoadModule(SERVER_BUILD) as Promise<ServerBuild>;
  const pages = createApp(t.runtime, { build });
  // The compiler stays for the worker's next file (vitest.config.ts `isolate: false`): it holds no
  // state of this file's app, and compiling the pages again took about ten seconds a file.
  return { pages, build, close: async () => {} };
}

const SERVER_BUILD = "virtual:react-router/server-build";

/** The pages' server build, compiled by the worker's one Vite SSR compiler (for a test's own createApp). */
export async function pagesBuild(): Promise<() => Promise<ServerBuild>> {
  const compiler = await sharedVite();
  return () => compiler.ssrLoadModule(SERVER_BUILD) as Promise<ServerBuild>;
}
let vite: Promise<ViteDevServer> | undefined;

/** One Vite SSR compiler per test worker, with the pages compiled once. */
function sharedVite(): Promise<ViteDevServer> {
  vite ??= (async () => {
    const server = await createViteServer({
      server: { middlewareMode: true, hmr: false, watch: null },
      appType: "custom",
      logLevel: "silent",
    });
    await server.ssrLoadModule(SERVER_BUILD);
    return server;
  })();
  // A failed start is not kept: the next file tries again.
  vite.catch(() => {
    vite = undefined;
  });
  return vite;
}

/** A rendered page's text: tags and React's text separators out, the entities React writes read back, spaces collapsed. */
export const pageText = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
