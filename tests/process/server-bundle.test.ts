import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * What a server process loads at start: the React Router server build (build/server/index.js) and
 * every module it imports statically. The admin's rich-text editor (TipTap and ProseMirror) renders
 * only in the browser, so the server reaches it through `import()` alone and never loads it
 * (decision 0029: its source and objects stayed in every process's heap).
 */
const SERVER_DIR = path.resolve("build/server");
// `import … from "x"`, `import "x"` and the re-exports `export … from "x"`, all loaded with the module.
const STATIC_IMPORT =
  /(?:^|[;\n}])\s*(?:import\s*(?:[\w*{}\s,$]+from\s*)?|export\s*[\w*{}\s,$]+from\s*)["']([^"']+)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

function specifiers(file: string, pattern: RegExp): string[] {
  return [...fs.readFileSync(file, "utf8").matchAll(pattern)].map((match) => match[1]);
}

/** The files of the build a module reaches through static imports, itself included, and the packages they import. */
function staticClosure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const specifier of specifiers(file, STATIC_IMPORT)) {
      if (specifier.startsWith(".")) visit(path.resolve(path.dirname(file), specifier));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return { files, packages };
}

describe("the server build", () => {
  it("loads no part of the admin editor at start; the editor's chunk is reached through import() alone", () => {
    const entry = path.join(SERVER_DIR, "index.js");
    expect(fs.existsSync(entry), "run `npm run build` first").toBe(true);
    const { files, packages } = staticClosure(entry);
    // The closure is real: React Router and React's server renderer are in it.
    expect([...packages]).toEqual(expect.arrayContaining(["react-router"]));
    const editorPackages = [...packages].filter((name) => /^@tiptap\/|^prosemirror-/.test(name));
    expect(editorPackages).toEqual([]);

    const lazy = [...files].flatMap((file) =>
      specifiers(file, DYNAMIC_IMPORT)
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => path.resolve(path.dirname(file), specifier)),
    );
    const editorChunks = lazy.filter((file) =>
      specifiers(file, STATIC_IMPORT).some((specifier) => specifier.startsWith("@tiptap/")),
    );
    expect(editorChunks).toHaveLength(1);
    expect(files.has(editorChunks[0])).toBe(false);
  });
});
