import { Hono } from "hono";
import { CONTACT_KEYS } from "../../core/settings/settings.schema";
import type { AppEnv, Runtime } from "../env";
import { access, ok } from "./http";

/** SPEC §7 'Session, search, pages, contact': the public site's read calls. */
export function siteRoutes(runtime: Runtime) {
  const { services } = runtime;
  const api = new Hono<AppEnv>();

  // /page/{url} and /page{path} name the same thing: /api/page/privacy-policy, /api/page/about/history.
  api.get("/page/*", access.public, async (c) => {
    const url = c.req.path.replace(/^\/api\/page/, "");
    const page = await services.pages.getPage(url);
    return ok(c, { content: page.content, title: page.title, url: page.url });
  });

  api.get("/getContactData", access.public, async (c) => {
    const settings = await services.settings.getAll();
    const data = Object.fromEntries(CONTACT_KEYS.map((key) => [key, settings[key]]));
    return ok(c, { data });
  });

  api.get("/search", access.public, async (c) => {
    const query = c.req.query("search_query") ?? "";
    return ok(c, { results: await services.search.search(query) });
  });

  return api;
}
