import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** ARCHITECTURE.md rule 3: imports flow one way, app/server → core → db/lib. */
const ROOT = path.resolve(import.meta.dirname, "../..");
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;

function sourceFiles(dir: string): string[] {
  const full = path.join(ROOT, dir);
  if (!fs.existsSync(full)) return [];
  return fs
    .readdirSync(full, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|tsx)$/.test(f))
    .map((f) => path.join(dir, f));
}

function localImports(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2];
    if (spec?.startsWith(".")) found.push(path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), spec)));
  }
  return found;
}

function violations(dirs: string[], forbidden: (target: string, file: string) => boolean) {
  return dirs.flatMap(sourceFiles).flatMap((file) =>
    localImports(file)
      .filter((t) => forbidden(t, file))
      .map((t) => `${file} → ${t}`),
  );
}

const top = (p: string) => p.split(path.sep)[0];

describe("import direction", () => {
  it("core never imports app or server", () => {
    expect(violations(["core"], (t) => ["app", "server", "scripts"].includes(top(t)))).toEqual([]);
  });

  it("db and lib import neither core, app nor server", () => {
    expect(violations(["db", "lib"], (t) => ["core", "app", "server", "scripts"].includes(top(t)))).toEqual([]);
  });

  it("migrations import nothing from the application", () => {
    expect(violations(["db/migrations"], (t) => !t.startsWith(path.join("db", "migrations")))).toEqual([]);
  });

  it("app never imports server, and reaches repositories only through services", () => {
    expect(violations(["app"], (t) => top(t) === "server" || t.endsWith(".repository"))).toEqual([]);
  });

  it("a service uses other areas' services, never their repositories", () => {
    const crossRepository = (target: string, file: string) => {
      if (!target.endsWith(".repository")) return false;
      return path.dirname(target) !== path.dirname(file) && !file.endsWith(path.join("core", "services.ts"));
    };
    expect(violations(["core"], crossRepository)).toEqual([]);
  });

  it("the areas of core depend on each other without a cycle", () => {
    const areaOf = (p: string) => (p.split(path.sep)[0] === "core" ? p.split(path.sep)[1] : null);
    const edges = new Map<string, Set<string>>();
    for (const file of sourceFiles("core")) {
      const from = areaOf(file);
      if (!from || !file.includes(path.sep, "core/".length)) continue;
      for (const target of localImports(file)) {
        const to = areaOf(target);
        if (to && to !== from && target.split(path.sep).length > 2) {
          edges.set(from, (edges.get(from) ?? new Set()).add(to));
        }
      }
    }
    const cycles: string[] = [];
    const visit = (area: string, trail: string[]) => {
      for (const next of edges.get(area) ?? []) {
        if (trail.includes(next)) cycles.push([...trail.slice(trail.indexOf(next)), next].join(" → "));
        else visit(next, [...trail, next]);
      }
    };
    for (const area of edges.keys()) visit(area, [area]);
    expect([...new Set(cycles)]).toEqual([]);
  });

  it("app imports services' types only, never their values (schemas are the browser-safe contract)", () => {
    const valueImports = sourceFiles("app").flatMap((file) => {
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      return [...text.matchAll(/^import (?!type )[^;]*?from ["']([^"']+\.service)["']/gm)].map(
        (match) => `${file} → ${match[1]}`,
      );
    });
    expect(valueImports).toEqual([]);
  });

  it("only lib/env.ts reads process.env in application code", () => {
    const readers = ["core", "db", "lib", "server", "app"]
      .flatMap(sourceFiles)
      .filter((file) => /process\.env/.test(fs.readFileSync(path.join(ROOT, file), "utf8")))
      .filter((file) => file !== path.join("lib", "env.ts") && file !== path.join("server", "dev.ts"));
    expect(readers).toEqual([]);
  });
});
