import fs from "node:fs";
import path from "node:path";
import { defineConfig, type Plugin } from "vite";
import { ISLAND_NAMES } from "./app/islands/names";
import { ISLANDS_MANIFEST_FILE, type IslandsManifest } from "./lib/islands-manifest";
import { pureDefinitions } from "./scripts/vite/pure-definitions";

/**
 * The browser code of public pages served as islands (decision 0033), built after React Router's
 * client into the same build/client/assets: the same components, run by Preact's compatibility
 * layer (about 10 kB gzip) instead of React DOM and React Router (about 110 kB), with React Router
 * and the root module replaced by what an islands page has (app/islands/react-router.tsx and
 * root.ts). Writes build/islands.json for the server.
 */
const root = import.meta.dirname;
const app = (file: string) => path.join(root, "app", file);

/** The root module is the router's; an island reads the root's data from the page instead. */
function islandsRoot(): Plugin {
  const rootModule = app("root.tsx");
  return {
    name: "masthead:islands-root",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (!importer || !/(^|\/)root(\.tsx)?$/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === rootModule ? app("islands/root.ts") : null;
    },
  };
}

/** build/islands.json: the loader, its static imports, and each island's files with theirs. */
function islandsManifest(): Plugin {
  return {
    name: "masthead:islands-manifest",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === "chunk");
      const url = (fileName: string) => `/${fileName}`;
      const withImports = (fileName: string, seen = new Set<string>()): string[] => {
        if (seen.has(fileName)) return [];
        seen.add(fileName);
        const chunk = chunks.find((c) => c.fileName === fileName);
        return [fileName, ...(chunk?.imports ?? []).flatMap((file) => withImports(file, seen))];
      };
      const entry = chunks.find((chunk) => chunk.isEntry);
      if (!entry) throw new Error("islands build: no entry chunk");
      const entryFiles = new Set(withImports(entry.fileName));
      const islands: Record<string, string[]> = {};
      for (const [name, moduleId] of islandModules()) {
        const chunk = chunks.find((c) => c.isDynamicEntry && c.moduleIds.includes(moduleId));
        if (!chunk) throw new Error(`islands build: no chunk holds the island ${name} (${moduleId})`);
        islands[name] = withImports(chunk.fileName)
          .filter((file) => !entryFiles.has(file))
          .map(url);
      }
      const missing = ISLAND_NAMES.filter((name) => !islands[name]);
      if (missing.length > 0)
        throw new Error(`islands build: no entry in app/islands/entry.ts for ${missing.join(", ")}`);
      const manifest: IslandsManifest = {
        entry: url(entry.fileName),
        entryImports: [...entryFiles].filter((file) => file !== entry.fileName).map(url),
        islands,
      };
      fs.mkdirSync(path.join(root, "build"), { recursive: true });
      fs.writeFileSync(path.join(root, "build", ISLANDS_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    },
  };
}

/** Each island of app/islands/entry.ts's table, with the module its component comes from. */
function islandModules(): [string, string][] {
  const source = fs.readFileSync(app("islands/entry.ts"), "utf8");
  return Array.from(source.matchAll(/"?([\w-]+)"?:\s*\(\)\s*=>\s*import\(\s*"([^"]+)"\s*\)/g), (match) => {
    const base = path.resolve(app("islands"), match[2]);
    const file = [".tsx", ".ts"].map((extension) => base + extension).find((candidate) => fs.existsSync(candidate));
    if (!file) throw new Error(`islands build: cannot find ${match[2]}`);
    return [match[1], file];
  });
}

export default defineConfig({
  plugins: [islandsRoot(), pureDefinitions(root), islandsManifest()],
  resolve: {
    alias: [
      { find: /^react$/, replacement: "preact/compat" },
      { find: /^react-dom$/, replacement: "preact/compat" },
      { find: /^react\/jsx-runtime$/, replacement: "preact/jsx-runtime" },
      { find: /^react\/jsx-dev-runtime$/, replacement: "preact/jsx-runtime" },
      { find: /^react-router$/, replacement: app("islands/react-router.tsx") },
    ],
  },
  // The stylesheet is React Router's build's: islands use the same classes.
  css: { postcss: { plugins: [] } },
  build: {
    outDir: "build/client",
    emptyOutDir: false,
    copyPublicDir: false,
    sourcemap: false,
    modulePreload: false,
    rollupOptions: {
      input: app("islands/entry.ts"),
      // React Router's build says the same about the same packages: "use client" lines and comments Rollup drops.
      onwarn(warning, warn) {
        if (warning.code === "MODULE_LEVEL_DIRECTIVE" || warning.code === "INVALID_ANNOTATION") return;
        warn(warning);
      },
      output: {
        entryFileNames: "assets/islands-[hash].js",
        chunkFileNames: "assets/islands-[name]-[hash].js",
        // Preact and its compatibility layer, named for what they are.
        manualChunks: (id) => (id.includes("/node_modules/preact/") ? "preact" : undefined),
      },
    },
  },
});
