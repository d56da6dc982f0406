import { z } from "@hono/zod-openapi";
import {
  type AdminPost,
  adminListSchema,
  adminPostSchema,
  adminPostSummarySchema,
  postInputSchema,
} from "../../core/news/news.schema";
import { revisionSchema } from "../../core/revisions/revisions.schema";
import type { Runtime } from "../env";
import { fileField } from "./admin-media";
import { apiRouter, declare, pageAnswer, success } from "./contract";
import { access, idParam, ok, uploadedImage } from "./http";

/** The admin's post, with the address its image is deleted at (SPEC §7). */
const withLinks = (post: AdminPost) => ({
  ...post,
  image_delete_url: post.image ? `/api/dashboard/news/${post.id}/image` : null,
});

export const idParams = z.object({ id: z.string().openapi({ description: "A positive integer id.", example: "1" }) });
const postBody = postInputSchema.extend({
  image: fileField.optional(),
  image_width: z.unknown().optional().openapi({ description: "Ignored: the size is read from the file." }),
  image_height: z.unknown().optional().openapi({ description: "Ignored: the size is read from the file." }),
});
const postAnswer = success({ post: adminPostSchema.extend({ image_delete_url: z.string().nullable() }) });
const notFound = "Post not found.";

/** SPEC §7 'News' (admin): list, create, update, delete, delete the image. */
export function adminNewsRoutes(runtime: Runtime) {
  const { services } = runtime;
  const api = apiRouter();
  const tag = "News (admin)";

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/news",
      access: access.editor,
      tag,
      summary: "List posts (search, page)",
      description:
        "Load-more is a GET of `next_page_url` plus `&search=` (SPEC §7): a repeated `search` with the same value is taken once, with different values it is a 422.",
      query: adminListSchema,
      response: {
        schema: pageAnswer(adminPostSummarySchema),
      },
    },
    async (c, { query }) => {
      const page = await services.news.adminList(query);
      // The state filter stays with the next page; the search is the client's to append (SPEC §7).
      const state = query.status ? `&status=${query.status}` : "";
      const next =
        page.current_page < page.last_page ? `/api/dashboard/news?page=${page.current_page + 1}${state}` : null;
      return ok(c, { ...page, next_page_url: next });
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/news",
      access: access.editor,
      tag,
      summary: "Create a post",
      description:
        "Published now unless `status` says otherwise (decisions 0070, 0071): a `draft` is seen by the admins alone; " +
        "a `scheduled` post (with `publish_at`, in the future) too, until its time, when it appears everywhere by " +
        "itself. Those following the news hear of a post when it appears.",
      body: { schema: postBody },
      response: { status: 201, schema: postAnswer },
      errors: [507],
    },
    async (c, { body, raw }) => {
      const post = await services.news.create(body, await uploadedImage(raw));
      return ok(c, { post: withLinks(post) }, 201);
    },
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/news/:id",
      access: access.editor,
      tag,
      summary: "Update a post",
      description:
        "Without `status` the post keeps its state. A post published by this call that nobody could read before " +
        "(a draft, a scheduled post) is dated now and announced to those following the news; `scheduled` with " +
        "`publish_at` moves it to that time; a published post made a draft again is gone from the site until published.",
      params: idParams,
      body: { schema: postBody },
      response: { schema: postAnswer },
      errors: [404, 507],
    },
    async (c, { body, raw }) => {
      const post = await services.news.update(idParam(c, notFound), body, await uploadedImage(raw));
      return ok(c, { post: withLinks(post) });
    },
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/news/:id",
      access: access.editor,
      tag,
      summary: "Delete a post",
      params: idParams,
      response: { schema: success({ slug: z.string().openapi({ description: "The deleted post's slug." }) }) },
      errors: [404],
    },
    async (c) => ok(c, await services.news.remove(idParam(c, notFound))),
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/news/:id/image",
      access: access.editor,
      tag,
      summary: "Delete a post's image",
      params: idParams,
      response: { schema: postAnswer },
      errors: [404],
    },
    async (c) => ok(c, { post: withLinks(await services.news.removeImage(idParam(c, notFound))) }),
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/news/:id/revisions",
      access: access.editor,
      tag,
      summary: "A post's revisions",
      description:
        "Every save keeps the post's texts (decision 0073): newest first (the latest 50), each with who saved it, " +
        "when, the fields as saved, and what changed from the revision before it, word by word.",
      params: idParams,
      response: { schema: success({ data: z.array(revisionSchema) }) },
      errors: [404],
    },
    async (c) => ok(c, { data: await services.news.revisions(idParam(c, notFound)) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/news/:id/revisions/:revisionId/restore",
      access: access.editor,
      tag,
      summary: "Restore a post's revision",
      description:
        "Puts the revision's texts back as a new save, which keeps a new revision. The post keeps its state, image " +
        "and date: restoring never publishes a draft.",
      params: idParams.extend({ revisionId: idParams.shape.id }),
      response: { schema: postAnswer },
      errors: [404],
    },
    async (c) =>
      ok(c, {
        post: withLinks(
          await services.news.restoreRevision(idParam(c, notFound), idParam(c, "Revision not found.", "revisionId")),
        ),
      }),
  );

  return api;
}
