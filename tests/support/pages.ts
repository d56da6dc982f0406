import type { ServerBuild } from "react-router";
import { createServer as createViteServer } from "vite";
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
  const vite = await createViteServer({
    server: { middlewareMode: true, hmr: false, watch: null },
    appType: "custom",
    logLevel: "silent",
  });
  const serverBuild = "virtual:react-router/server-build";
  await vite.ssrLoadModule(serverBuild);
  const build = () => vite.ssrLoadModule(serverBuild) as Promise<ServerBuild>;
  const pages = createApp(t.runtime, { build });
  return { pages, build, close: () => vite.close() };
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
