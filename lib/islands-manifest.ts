import fs from "node:fs";
import path from "node:path";

/**
 * What the islands build (vite.islands.config.ts) writes beside the client build: the address of
 * the browser's loader for a page served as islands (decision 0033), the files it imports, and
 * for each island the files its code needs, so that a page preloads exactly what it runs.
 */
export type IslandsManifest = {
  entry: string;
  entryImports: string[];
  islands: Record<string, string[]>;
};

export const ISLANDS_MANIFEST_FILE = "islands.json";

/**
 * The manifest of the build whose client files are in `clientDir`, or null when that build has
 * none (the development server, which hydrates every page).
 */
export function readIslandsManifest(clientDir: string): IslandsManifest | null {
  const file = path.join(clientDir, "..", ISLANDS_MANIFEST_FILE);
  if (!fs.existsSync(file)) return null;
  return JSON.parse(fs.readFileSync(file, "utf8")) as IslandsManifest;
}
