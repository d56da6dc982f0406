import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ClientBuild,
  islandsRouteIds,
  JS_BUDGET_BYTES,
  JS_CEILING_BYTES,
  kb,
  type PageWeight,
  publicRouteIds,
} from "../../scripts/page-weight/measure";
import { type ServerProcess, startServer } from "./server";

/**
 * The JavaScript of every public page of the production build stays under the
 * ceiling of decision 0028 (`npm run weight` reports it page by page).
 */
const client = new ClientBuild();
const manifest = client.manifest();
const islands = client.islands();
let asIslands: Set<string>;
let server: ServerProcess;

const describeWeight = (weight: PageWeight) =>
  `${weight.name}: ${kb(weight.gzip)} (${weight.assets
    .slice(0, 5)
    .map((a) => `${a.file} ${kb(a.gzip)}`)
    .join(", ")}…)`;

beforeAll(async () => {
  asIslands = await islandsRouteIds();
  server = await startServer({ env: { LOG_LEVEL: "warn" } });
});
afterAll(async () => {
  await server?.stop();
  server?.cleanup();
});

describe("JavaScript on public pages", () => {
  it("covers the public routes", () => {
    const ids = publicRouteIds(manifest);
    expect(ids).toEqual(expect.arrayContaining(["routes/site/home", "routes/news/post", "routes/account/login"]));
    expect(ids.some((id) => id.startsWith("routes/layouts/") || /manage|admin|dashboard/.test(id))).toBe(false);
  });

  it("stays under the ceiling on every public route, and under the budget on those served as islands", () => {
    expect(islands).not.toBeNull();
    const weights = publicRouteIds(manifest).map((id) =>
      islands && asIslands.has(id) ? client.weighIslandsRoute(islands, id) : client.weighRoute(manifest, id),
    );
    expect(weights.filter((weight) => weight.gzip > JS_CEILING_BYTES).map(describeWeight)).toEqual([]);
    // Decision 0033: the public layout's pages are served as islands, each under issue 15's 100 kB.
    const islandsWeights = weights.filter((weight) => asIslands.has(weight.name));
    expect(islandsWeights.map((weight) => weight.name)).toEqual(
      expect.arrayContaining([
        "routes/site/home",
        "routes/news/index",
        "routes/events/index",
        "routes/library/category",
      ]),
    );
    expect(islandsWeights.filter((weight) => weight.gzip > JS_BUDGET_BYTES).map(describeWeight)).toEqual([]);
  });

  it("serves public pages as islands: Preact and the islands' files, nothing of React Router's client", async () => {
    for (const [path, id] of [
      ["/", "routes/site/home"],
      ["/login", "routes/account/login"],
    ]) {
      const html = await (await fetch(`${server.url}${path}`)).text();
      expect(html).not.toContain("__reactRouterContext");
      expect(html).not.toContain(manifest.entry.module);
      const page = client.weighPage(path, html);
      const bound = client.weighIslandsRoute(islands as NonNullable<typeof islands>, id);
      const files = page.assets.map((asset) => asset.file);
      expect(files).toContain(islands?.entry);
      // The page loads nothing the islands' manifest leaves out, and so stays under its route's bound.
      expect(files.filter((file) => !bound.assets.some((asset) => asset.file === file))).toEqual([]);
      expect(page.gzip).toBeLessThanOrEqual(JS_BUDGET_BYTES);
    }
  });
});
