import { z } from "@hono/zod-openapi";
import { searchResultSchema } from "../../core/search/search.schema";
import { CONTACT_KEYS } from "../../core/settings/settings.schema";
import type { Runtime } from "../env";
import { pageUrlParams } from "./admin-site";
import { apiRouter, declare, success } from "./contract";
import { access, ok, viewerOf } from "./http";

/** SPEC §7 'Session, search, pages, contact': the public site's read calls. */
export function siteRoutes(runtime: Runtime) {
  const { services } = runtime;
  const api = apiRouter();
  const tag = "Site";

  // /page/{url} and /page{path} name the same thing: /api/page/privacy-policy, /api/page/about/history.
  declare(
    api,
    {
      method: "get",
      path: "/page/:url{.+}",
      access: access.public,
      tag,
      summary: "A CMS page",
      params: pageUrlParams,
      response: { schema: success({ content: z.string(), title: z.string(), url: z.string() }) },
      errors: [404],
    },
    async (c) => {
      const page = await services.pages.getPage(c.req.path.replace(/^\/api\/page/, ""));
      return ok(c, { content: page.content, title: page.title, url: page.url });
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/getContactData",
      access: access.public,
      tag,
      summary: "Contact data for the header and footer",
      response: { schema: success({ data: z.record(z.string(), z.string().nullable()) }) },
    },
    async (c) => {
      const settings = await services.settings.getAll();
      return ok(c, { data: Object.fromEntries(CONTACT_KEYS.map((key) => [key, settings[key]])) });
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/search",
      access: access.public,
      tag,
      summary: "Search the site",
      query: z.object({ search_query: z.string().optional() }),
      response: { schema: success({ results: z.array(searchResultSchema) }) },
      cache: "content",
    },
    async (c, { query }) => ok(c, { results: await services.search.search(query.search_query ?? "", viewerOf(c)) }),
  );

  return api;
}
