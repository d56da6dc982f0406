import { z } from "@hono/zod-openapi";
import { pageSchema, pageSummarySchema, pageUpdateSchema } from "../../core/pages/pages.schema";
import { settingsUpdateSchema, siteSettingsSchema } from "../../core/settings/settings.schema";
import type { Runtime } from "../env";
import { apiRouter, declare, success } from "./contract";
import { access, ok } from "./http";

/** A page's address after a prefix: `about/history` (it may contain slashes). */
export const pageUrlParams = z.object({
  url: z.string().openapi({ description: "The page's address, e.g. privacy-policy or about/history." }),
});

/** Admin editing of CMS pages and site settings. */
export function adminSiteRoutes(runtime: Runtime) {
  const { services } = runtime;
  const api = apiRouter();
  const tag = "Pages and settings (admin)";

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/pages",
      access: access.admin,
      tag,
      summary: "List the CMS pages",
      response: { schema: success({ data: z.array(pageSummarySchema) }) },
    },
    async (c) => ok(c, { data: await services.pages.listPages() }),
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/pages/:url{.+}",
      access: access.admin,
      tag,
      summary: "Update a CMS page",
      params: pageUrlParams,
      body: { schema: pageUpdateSchema },
      response: { schema: success({ page: pageSchema }) },
      errors: [404],
    },
    async (c, { body }) => {
      // The raw path, not the decoded parameter: the service checks the address as it came.
      const page = await services.pages.updatePage(c.req.path.replace(/^\/api\/dashboard\/pages/, ""), body);
      return ok(c, { page });
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/settings",
      access: access.admin,
      tag,
      summary: "Read the site settings",
      response: { schema: success({ data: siteSettingsSchema }) },
    },
    async (c) => ok(c, { data: await services.settings.getAll() }),
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/settings",
      access: access.admin,
      tag,
      summary: "Update the site settings",
      body: { schema: settingsUpdateSchema },
      response: { schema: success({ data: siteSettingsSchema }) },
    },
    async (c, { body }) => ok(c, { data: await services.settings.update(body) }),
  );

  return api;
}
