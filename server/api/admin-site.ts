import { z } from "@hono/zod-openapi";
import { adminPageSchema, pageCreateSchema, pageSummarySchema, pageUpdateSchema } from "../../core/pages/pages.schema";
import { revisionSchema } from "../../core/revisions/revisions.schema";
import { settingsUpdateSchema, siteSettingsSchema } from "../../core/settings/settings.schema";
import { AppError } from "../../lib/errors";
import { parseId } from "../../lib/ids";
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
      access: access.editor,
      tag,
      summary: "List the CMS pages",
      response: { schema: success({ data: z.array(pageSummarySchema) }) },
    },
    async (c) => ok(c, { data: await services.pages.listPages() }),
  );

  // The raw path, not the decoded parameter: the service checks the address as it came.
  const pageAddress = (path: string) => path.replace(/^\/api\/dashboard\/pages/, "");

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/pages",
      access: access.editor,
      tag,
      summary: "Add a page of the association's own",
      description:
        "Read at /{slug}; `section` (about, services or none) says which group it belongs to, `in_menu` lists it in " +
        "that section's submenu and `in_footer` in the footer, after SPEC's fixed pages, by `position`. Published " +
        "now unless `status` says `draft` or `scheduled` (with `publish_at`, in the future; decision 0072).",
      body: { schema: pageCreateSchema },
      response: { status: 201, schema: success({ page: adminPageSchema }) },
    },
    async (c, { body }) => ok(c, { page: await services.pages.createPage(body) }, 201),
  );

  // Declared before the page's own address, which would otherwise take "history/revisions" as one.
  declare(
    api,
    {
      method: "get",
      path: "/dashboard/pages/:url{.+}/revisions",
      access: access.editor,
      tag,
      summary: "A page's revisions",
      description:
        "Every save keeps the page's title and text (decision 0073): newest first (the latest 50), each with who " +
        "saved it, when, the fields as saved, and what changed from the revision before it, word by word.",
      params: pageUrlParams,
      response: { schema: success({ data: z.array(revisionSchema) }) },
      errors: [404],
    },
    async (c) => ok(c, { data: await services.pages.revisions(pageAddress(c.req.path).replace(/\/revisions$/, "")) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/pages/:url{.+}/revisions/:revisionId{[0-9]+}/restore",
      access: access.editor,
      tag,
      summary: "Restore a page's revision",
      description:
        "Puts the revision's title and text back as a new save, which keeps a new revision. The page keeps its state " +
        "and place: restoring never publishes a draft.",
      params: pageUrlParams.extend({ revisionId: z.string() }),
      response: { schema: success({ page: adminPageSchema }) },
      errors: [404],
    },
    async (c) => {
      const [, url, revisionId] = pageAddress(c.req.path).match(/^(.+)\/revisions\/(\d+)\/restore$/) ?? [];
      const id = parseId(revisionId);
      if (!url || id === null) throw new AppError("not_found", "Revision not found.");
      return ok(c, { page: await services.pages.restoreRevision(url, id) });
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/pages/:url{.+}",
      access: access.editor,
      tag,
      summary: "Read a CMS page as the admins edit it (in any state)",
      params: pageUrlParams,
      response: { schema: success({ page: adminPageSchema }) },
      errors: [404],
    },
    async (c) => ok(c, { page: await services.pages.getAdminPage(pageAddress(c.req.path)) }),
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/pages/:url{.+}",
      access: access.editor,
      tag,
      summary: "Update a CMS page",
      description:
        "Title and content; the other fields are optional and, absent, stay as they were. SPEC's fixed pages are " +
        "always published and keep their place (a 422 says so).",
      params: pageUrlParams,
      body: { schema: pageUpdateSchema },
      response: { schema: success({ page: adminPageSchema }) },
      errors: [404],
    },
    async (c, { body }) => ok(c, { page: await services.pages.updatePage(pageAddress(c.req.path), body) }),
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/pages/:url{.+}",
      access: access.editor,
      tag,
      summary: "Delete a page of the association's own",
      description: "SPEC's fixed pages cannot be deleted (409).",
      params: pageUrlParams,
      response: { schema: success({}) },
      errors: [404, 409],
    },
    async (c) => {
      await services.pages.deletePage(pageAddress(c.req.path));
      return ok(c);
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
