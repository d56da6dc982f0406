import { parseArgs } from "node:util";
import {
  ClientBuild,
  islandsRouteIds,
  JS_BUDGET_BYTES,
  kb,
  type PageWeight,
  publicRouteIds,
} from "./page-weight/measure";
import { publicPages, startDemoServer } from "./page-weight/server";

/**
 * `npm run weight`: the JavaScript each public page of the production build
 * makes a visitor download, gzip, against the budget of decision 0028.
 *
 *   npm run weight                      build, start it on the demo content, measure
 *   npm run weight -- --url http://127.0.0.1:3950   measure a running server of this build
 *   options: --no-build, --verbose (every file), --json
 *
 * Two tables: the pages as rendered (what the HTML loads plus its routes'
 * imports), and every public route from the manifests alone (a route served
 * as islands counts every island's files, an upper bound). Exits 1 when any
 * of them is over the budget.
 */
const { values } = parseArgs({
  options: {
    url: { type: "string" },
    "no-build": { type: "boolean", default: false },
    verbose: { type: "boolean", short: "v", default: false },
    json: { type: "boolean", default: false },
  },
});

const say = (message: string) => {
  if (!values.json) console.log(message);
};

if (!values.url && !values["no-build"]) {
  const { spawnSync } = await import("node:child_process");
  say("Building the production bundle…");
  const build = spawnSync("npm", ["run", "build", "--silent"], { stdio: values.json ? "ignore" : "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const client = new ClientBuild();
const server = values.url ? null : await startDemoServer(say);
const base = values.url ?? (server?.url as string);
let pages: PageWeight[] = [];
try {
  for (const page of await publicPages(base)) {
    const response = await fetch(new URL(page, base));
    if (!response.ok) throw new Error(`${page} answered ${response.status}`);
    pages.push(client.weighPage(page, await response.text()));
  }
} finally {
  await server?.stop();
}
const manifest = client.manifest();
// A route served as islands (decision 0033) loads the islands' files, not React Router's: weighed as such.
const islands = client.islands();
const asIslands = islands ? await islandsRouteIds() : new Set<string>();
const routes = publicRouteIds(manifest).map((id) =>
  islands && asIslands.has(id) ? client.weighIslandsRoute(islands, id) : client.weighRoute(manifest, id),
);
pages = pages.sort((a, b) => b.gzip - a.gzip);
const over = [...pages, ...routes].filter((weight) => weight.gzip > JS_BUDGET_BYTES);

if (values.json) {
  console.log(JSON.stringify({ budget: JS_BUDGET_BYTES, pages, routes }, null, 2));
} else {
  const table = (title: string, rows: PageWeight[]) => {
    const width = Math.max(...rows.map((row) => row.name.length), 10);
    say(`\n${title}\n${"".padEnd(width)}  ${"files".padStart(5)}  ${"raw".padStart(9)}  ${"gzip".padStart(9)}`);
    for (const row of rows) {
      const flag = row.gzip > JS_BUDGET_BYTES ? "  OVER BUDGET" : "";
      say(
        `${row.name.padEnd(width)}  ${String(row.assets.length).padStart(5)}  ${kb(row.bytes).padStart(9)}  ${kb(row.gzip).padStart(9)}${flag}`,
      );
      if (values.verbose) {
        for (const asset of row.assets) say(`    ${kb(asset.gzip).padStart(9)}  ${asset.file}`);
        const lazy = row.lazy.reduce((sum, asset) => sum + asset.gzip, 0);
        if (row.lazy.length > 0) say(`    lazy, on demand: ${row.lazy.length} files, ${kb(lazy)}`);
      }
    }
  };
  table("JavaScript per page (gzip), as rendered with the demo content:", pages);
  table("JavaScript per public route (gzip), from the route manifest:", routes);
  say(
    over.length === 0
      ? `\nEvery public page is within the budget of ${kb(JS_BUDGET_BYTES)}.`
      : `\n${over.length} over the budget of ${kb(JS_BUDGET_BYTES)}: ${over.map((row) => row.name).join(", ")}`,
  );
}
process.exit(over.length === 0 ? 0 : 1);
