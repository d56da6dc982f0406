import path from "node:path";
import type { Plugin } from "vite";

type Node = { type: string; start: number; end: number; [key: string]: unknown };

/**
 * Lets the browser bundle drop the Zod schemas a page never uses.
 *
 * The modules under core/ and lib/ mix plain helpers and constants (a URL
 * builder, a label table, the default settings) with Zod schemas declared at
 * their top level. A bundler must keep every top-level call it cannot prove
 * harmless, so a page that imports one helper from `news.schema.ts` got every
 * schema of the module and all of Zod (25 kB gzip, and a CSP report for Zod's
 * `new Function` probe). Building a schema has no effect outside the value it
 * returns, so in the client build each top-level `const` of these modules
 * initialised by a call is marked pure (`/* @__PURE__ *\/ (() => …)()`):
 * Rollup keeps it when something uses it, and drops it otherwise.
 *
 * The rule this relies on: a top-level `const` in core/ or lib/ is a value,
 * never a call made for its effect (register a global, configure a library);
 * such a call belongs in a statement of its own, which this plugin leaves alone.
 */
export function pureDefinitions(root: string): Plugin {
  const folders = ["core", "lib"].map((folder) => path.join(root, folder) + path.sep);
  return {
    name: "masthead:pure-definitions",
    enforce: "post",
    applyToEnvironment: (environment) => environment.name === "client",
    transform(code, id) {
      const file = id.split("?")[0];
      if (!/\.tsx?$/.test(file) || !folders.some((folder) => file.startsWith(folder))) return null;
      const program = this.parse(code) as unknown as { body: Node[] };
      const inits: Node[] = [];
      for (const statement of program.body) {
        const declaration =
          statement.type === "ExportNamedDeclaration" ? (statement.declaration as Node | null) : statement;
        if (declaration?.type !== "VariableDeclaration" || declaration.kind !== "const") continue;
        for (const declarator of declaration.declarations as { init: Node | null }[]) {
          const init = declarator.init;
          if (init && ["CallExpression", "NewExpression", "MemberExpression"].includes(init.type)) inits.push(init);
        }
      }
      if (inits.length === 0) return null;
      let out = code;
      for (const init of inits.sort((a, b) => b.start - a.start))
        out = `${out.slice(0, init.start)}/* @__PURE__ */ (() => (${out.slice(init.start, init.end)}))()${out.slice(init.end)}`;
      return { code: out, map: null };
    },
  };
}
