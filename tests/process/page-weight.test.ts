import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientBuild, JS_CEILING_BYTES, kb, publicRouteIds } from "../../scripts/page-weight/measure";
import { type ServerProcess, startServer } from "./server";

/**
 * The JavaScript of every public page of the production build stays under the
 * ceiling of decision 0028 (`npm run weight` reports it page by page).
 */
const client = new ClientBuild();
const manifest = client.manifest();
let server: ServerProcess;

beforeAll(async () => {
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

  it("stays under the ceiling on every public route", () => {
    const over = publicRouteIds(manifest)
      .map((id) => client.weighRoute(manifest, id))
      .filter((weight) => weight.gzip > JS_CEILING_BYTES)
      .map(
        (weight) =>
          `${weight.name}: ${kb(weight.gzip)} (${weight.assets
            .slice(0, 5)
            .map((a) => `${a.file} ${kb(a.gzip)}`)
            .join(", ")}…)`,
      );
    expect(over).toEqual([]);
  });

  it("counts what a rendered page loads: its HTML asks for nothing the route's manifest entry leaves out", async () => {
    for (const [path, id] of [
      ["/", "routes/site/home"],
      ["/login", "routes/account/login"],
    ]) {
      const html = await (await fetch(`${server.url}${path}`)).text();
      const page = client.weighPage(path, html);
      const route = client.weighRoute(manifest, id);
      expect(page.routes).toEqual(route.routes);
      expect(page.assets.map((asset) => asset.file).sort()).toEqual(route.assets.map((asset) => asset.file).sort());
    }
  });
});
