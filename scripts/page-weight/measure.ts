import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import { ISLANDS_MANIFEST_FILE, type IslandsManifest } from "../../lib/islands-manifest";

/**
 * What JavaScript a visitor's browser downloads for a page of the production
 * build: the scripts and module preloads in the rendered HTML, the React
 * Router entry and the imports of every route the page matched (from the
 * build's route manifest), and everything those modules import statically.
 * Sizes are gzip at level 9, as scripts/build-server.mjs precompresses them.
 * Chunks reached only through a dynamic `import()` are listed as lazy: they
 * load when a visitor does something that needs them, not with the page.
 */

/** The goal of issue 15 (decision 0028): JavaScript per public page, gzip. `npm run weight` fails above it. */
export const JS_BUDGET_BYTES = 100_000;

/**
 * What no public route may exceed today: every public route is served as islands (decision
 * 0033), and the heaviest, counting every island there is, is about 32 kB. The process test
 * holds this ceiling so that nothing large (Zod, a dialog library, an editor, React itself)
 * slips into an island's static imports; lower it as the pages get lighter.
 */
export const JS_CEILING_BYTES = 40_000;

export type RouteEntry = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
  clientActionModule?: string;
  clientLoaderModule?: string;
  clientMiddlewareModule?: string;
  hydrateFallbackModule?: string;
};

export type Manifest = {
  entry: { module: string; imports: string[] };
  routes: Record<string, RouteEntry>;
  url: string;
  version: string;
};

export type Asset = { file: string; bytes: number; gzip: number };

export type PageWeight = {
  /** What was measured: a page's address, or a route id when measured from the manifest alone. */
  name: string;
  routes: string[];
  /** Every JavaScript file loaded with the page, largest (gzip) first. */
  assets: Asset[];
  bytes: number;
  gzip: number;
  /** Chunks reachable only by dynamic import from the page's modules (not loaded with the page). */
  lazy: Asset[];
};

/** The client build: build/client, its asset sizes and its route manifest. */
export class ClientBuild {
  readonly dir: string;
  private readonly sizes = new Map<string, Asset>();
  private readonly staticImports = new Map<string, { imports: string[]; dynamic: string[] }>();

  constructor(dir = path.resolve("build/client")) {
    if (!fs.existsSync(path.join(dir, "assets")))
      throw new Error(`${dir}/assets is missing: run \`npm run build\` first.`);
    this.dir = dir;
  }

  /** The route manifest at `url` (from a page), or the only one in the build. */
  manifest(url?: string): Manifest {
    let file: string;
    if (url) file = this.fileOf(url);
    else {
      const found = fs.readdirSync(path.join(this.dir, "assets")).filter((name) => /^manifest-[\w-]+\.js$/.test(name));
      if (found.length !== 1)
        throw new Error(`expected one manifest-*.js in ${this.dir}/assets, found ${found.length}`);
      file = path.join(this.dir, "assets", found[0]);
    }
    const source = fs.readFileSync(file, "utf8").trim();
    const json = source.replace(/^window\.__reactRouterManifest\s*=\s*/, "").replace(/;$/, "");
    return JSON.parse(json) as Manifest;
  }

  /** The file under build/client that serves an absolute asset URL ("/assets/x.js"). */
  fileOf(url: string): string {
    const pathname = new URL(url, "http://localhost").pathname;
    const file = path.join(this.dir, decodeURIComponent(pathname));
    if (!file.startsWith(this.dir + path.sep) || !fs.existsSync(file))
      throw new Error(`${pathname} is not in ${this.dir}: is the server running another build?`);
    return file;
  }

  size(url: string): Asset {
    const known = this.sizes.get(url);
    if (known) return known;
    const file = this.fileOf(url);
    const data = fs.readFileSync(file);
    // The precompressed copy when there is one (level 9 too); small files are not precompressed.
    const gzip = fs.existsSync(`${file}.gz`)
      ? fs.statSync(`${file}.gz`).size
      : zlib.gzipSync(data, { level: 9 }).length;
    const asset = { file: url, bytes: data.length, gzip };
    this.sizes.set(url, asset);
    return asset;
  }

  /** Relative static and dynamic imports of a built chunk, as absolute URLs. */
  importsOf(url: string): { imports: string[]; dynamic: string[] } {
    const known = this.staticImports.get(url);
    if (known) return known;
    const source = fs.readFileSync(this.fileOf(url), "utf8");
    const resolve = (specifier: string) => new URL(specifier, new URL(url, "http://localhost")).pathname;
    const imports = new Set<string>();
    const dynamic = new Set<string>();
    // Minified ESM: `import{a as b}from"./x.js"`, `import"./x.js"`, `export{c}from"./x.js"`.
    for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.js)["']/g))
      imports.add(resolve(match[1]));
    for (const match of source.matchAll(/\bimport\(\s*["'](\.{1,2}\/[^"']+\.js)["']\s*\)/g))
      dynamic.add(resolve(match[1]));
    // Vite's preload helper names a lazy chunk's own imports in a dependency list of plain strings.
    for (const match of source.matchAll(/["'](assets\/[^"']+\.js)["']/g)) {
      const dep = `/${match[1]}`;
      if (!imports.has(dep)) dynamic.add(dep);
    }
    const result = { imports: [...imports], dynamic: [...dynamic] };
    this.staticImports.set(url, result);
    return result;
  }

  /** `roots` and everything they import statically; what they import dynamically, apart. */
  closure(roots: Iterable<string>): { loaded: Set<string>; lazy: Set<string> } {
    const loaded = new Set<string>();
    const lazy = new Set<string>();
    const queue = [...roots];
    while (queue.length > 0) {
      const url = queue.pop() as string;
      if (loaded.has(url)) continue;
      loaded.add(url);
      const { imports, dynamic } = this.importsOf(url);
      queue.push(...imports);
      for (const dep of dynamic) lazy.add(dep);
    }
    // A lazy chunk brings its own static imports; those already loaded cost nothing more.
    const lazyQueue = [...lazy];
    while (lazyQueue.length > 0) {
      const url = lazyQueue.pop() as string;
      for (const dep of [...this.importsOf(url).imports, ...this.importsOf(url).dynamic])
        if (!lazy.has(dep) && !loaded.has(dep)) {
          lazy.add(dep);
          lazyQueue.push(dep);
        }
    }
    for (const url of loaded) lazy.delete(url);
    return { loaded, lazy };
  }

  /** The JavaScript of the routes `ids` (a page's matches, root first) and of the entry. */
  routeModules(manifest: Manifest, ids: string[]): string[] {
    const urls = [manifest.entry.module, ...manifest.entry.imports];
    for (const id of ids) {
      const route = manifest.routes[id];
      if (!route) throw new Error(`route ${id} is not in the manifest`);
      urls.push(route.module, ...(route.imports ?? []));
      for (const extra of [
        route.clientActionModule,
        route.clientLoaderModule,
        route.clientMiddlewareModule,
        route.hydrateFallbackModule,
      ])
        if (extra) urls.push(extra);
    }
    return urls;
  }

  weigh(name: string, routes: string[], roots: Iterable<string>): PageWeight {
    const { loaded, lazy } = this.closure(roots);
    const assets = [...loaded].map((url) => this.size(url)).sort((a, b) => b.gzip - a.gzip);
    const lazyAssets = [...lazy].map((url) => this.size(url)).sort((a, b) => b.gzip - a.gzip);
    return {
      name,
      routes,
      assets,
      bytes: assets.reduce((sum, asset) => sum + asset.bytes, 0),
      gzip: assets.reduce((sum, asset) => sum + asset.gzip, 0),
      lazy: lazyAssets,
    };
  }

  /**
   * A rendered page: what its HTML loads, plus its routes' modules from the manifest when React
   * Router runs it (a page served as islands, decision 0033, names every file it loads itself).
   */
  weighPage(name: string, html: string): PageWeight {
    const found = scriptsOfHtml(html);
    const routed = found.manifestUrl !== null || found.routeIds.length > 0;
    const urls = routed
      ? [...found.scripts, ...this.routeModules(this.manifest(found.manifestUrl ?? undefined), found.routeIds)]
      : found.scripts;
    // Same-origin assets only: a third party (tag manager) is not part of the build.
    const local = urls.filter((url) => url.startsWith("/"));
    return this.weigh(name, found.routeIds, local);
  }

  /** A route from the manifest alone: the entry, the route and its ancestors. */
  weighRoute(manifest: Manifest, id: string): PageWeight {
    const ids = ancestry(manifest, id);
    return this.weigh(id, ids, this.routeModules(manifest, ids));
  }

  /** The islands build's manifest (build/islands.json), or null for a build without one. */
  islands(): IslandsManifest | null {
    const file = path.join(this.dir, "..", ISLANDS_MANIFEST_FILE);
    return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as IslandsManifest) : null;
  }

  /**
   * A route served as islands (decision 0033), from the manifests alone: the loader and every
   * island's files, as if its page held each island there is (no page does: an upper bound).
   */
  weighIslandsRoute(islands: IslandsManifest, id: string): PageWeight {
    const files = [islands.entry, ...islands.entryImports, ...Object.values(islands.islands).flat()];
    return this.weigh(id, [id], files);
  }
}

/** Ids of the routes whose module declares `handle.servedAsIslands` in the server build. */
export async function islandsRouteIds(serverBuild = path.resolve("build/server/index.js")): Promise<Set<string>> {
  const build = (await import(pathToFileURL(serverBuild).href)) as {
    routes: Record<string, { module: { handle?: { servedAsIslands?: boolean } } }>;
  };
  return new Set(
    Object.entries(build.routes)
      .filter(([, r]) => r.module.handle?.servedAsIslands === true)
      .map(([id]) => id),
  );
}

/** A route and its parents, root first. */
export function ancestry(manifest: Manifest, id: string): string[] {
  const ids: string[] = [];
  let current: RouteEntry | undefined = manifest.routes[id];
  while (current) {
    ids.unshift(current.id);
    current = current.parentId ? manifest.routes[current.parentId] : undefined;
  }
  return ids;
}

/** Routes whose pages any visitor may open: under the public and sign-in layouts, and the 404 page. */
export function publicRouteIds(manifest: Manifest): string[] {
  const PUBLIC_LAYOUTS = ["routes/layouts/public", "routes/layouts/login"];
  return Object.values(manifest.routes)
    .filter((route) => route.id !== "root" && !PUBLIC_LAYOUTS.includes(route.id))
    .filter((route) => {
      const ids = ancestry(manifest, route.id);
      return ids.some((id) => PUBLIC_LAYOUTS.includes(id)) || route.id === "routes/site/not-found";
    })
    .map((route) => route.id)
    .sort();
}

/** JavaScript a rendered page asks for: script sources, module preloads, inline module imports. */
export function scriptsOfHtml(html: string): { scripts: string[]; routeIds: string[]; manifestUrl: string | null } {
  const scripts = new Set<string>();
  const attr = (tag: string, name: string) =>
    new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag)?.slice(1).find(Boolean) ?? null;
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attr(tag, "src");
    if (src) scripts.add(decodeEntities(src));
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attr(tag, "rel")?.toLowerCase().split(/\s+/) ?? [];
    const href = attr(tag, "href");
    if (href && rel.includes("modulepreload")) scripts.add(decodeEntities(href));
  }
  let routeIds: string[] = [];
  let manifestUrl: string | null = null;
  for (const [, body] of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) {
    for (const match of body.matchAll(/\bimport\s*(?:[\w*${}\s,]+from\s*)?["']([^"']+\.js)["']/g))
      scripts.add(match[1]);
    for (const match of body.matchAll(/\bimport\(\s*["']([^"']+\.js)["']\s*\)/g)) scripts.add(match[1]);
    const modules = /window\.__reactRouterRouteModules\s*=\s*\{([^}]*)\}/.exec(body);
    if (modules) routeIds = [...modules[1].matchAll(/"([^"]+)"\s*:/g)].map((match) => match[1]);
    const manifest = /window\.__reactRouterManifest\s*=[\s\S]*"url"\s*:\s*"([^"]+)"/.exec(body);
    if (manifest) manifestUrl = manifest[1];
  }
  return { scripts: [...scripts], routeIds, manifestUrl };
}

function decodeEntities(value: string): string {
  return value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'");
}

export const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
