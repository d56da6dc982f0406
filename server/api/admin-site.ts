import { Hono } from "hono";
import { pageUpdateSchema } from "../../core/pages/pages.schema";
import { settingsUpdateSchema } from "../../core/settings/settings.schema";
import { validate } from "../../lib/validation";
import type { AppEnv, Runtime } from "../env";
import { access, ok, readBody, unprocessable } from "./http";

/** Admin editing of CMS pages and site settings. */
export function adminSiteRoutes(runtime: Runtime) {
  const { services } = runtime;
  const api = new Hono<AppEnv>();

  api.get("/dashboard/pages", access.admin, async (c) => ok(c, { data: await services.pages.listPages() }));

  api.patch("/dashboard/pages/*", access.admin, async (c) => {
    const input = validate(pageUpdateSchema, await readBody(c));
    if (!input.success) return unprocessable(c, input.errors);
    const page = await services.pages.updatePage(c.req.path.replace(/^\/api\/dashboard\/pages/, ""), input.data);
    return ok(c, { page });
  });

  api.get("/dashboard/settings", access.admin, async (c) => ok(c, { data: await services.settings.getAll() }));

  api.patch("/dashboard/settings", access.admin, async (c) => {
    const input = validate(settingsUpdateSchema, await readBody(c));
    if (!input.success) return unprocessable(c, input.errors);
    return ok(c, { data: await services.settings.update(input.data) });
  });

  return api;
}
