import { z } from "@hono/zod-openapi";
import { dateFiltersSchema, postSchema, postSummarySchema, postsQuerySchema } from "../../core/news/news.schema";
import type { Runtime } from "../env";
import { apiRouter, declare, pageAnswer, success } from "./contract";
import { access, ok } from "./http";

const slugParams = z.object({ slug: z.string() });

/** SPEC §7 'News' (public reads). Load-more is a POST to next_page_url with the same body. */
export function newsRoutes(runtime: Runtime) {
  const { services } = runtime;
  const api = apiRouter();
  const tag = "News";

  declare(
    api,
    {
      method: "post",
      path: "/getPosts",
      access: access.public,
      tag,
      summary: "List posts (month filter, search, page)",
      description: "The page may come in the query (the next_page_url) or in the body; the query wins.",
      // Without its default: a page in the query (next_page_url) wins over the body's only when it is there.
      query: z.object({ page: postsQuerySchema.shape.page.unwrap().optional() }),
      body: { schema: postsQuerySchema },
      response: { schema: pageAnswer(postSummarySchema) },
      cache: "content",
    },
    async (c, { query, body }) => {
      const page = await services.news.list({ ...body, page: query.page ?? body.page });
      const next = page.current_page < page.last_page ? `/api/getPosts?page=${page.current_page + 1}` : null;
      return ok(c, { ...page, next_page_url: next });
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/getPostBySlug/:slug",
      access: access.public,
      tag,
      summary: "A post by its slug",
      params: slugParams,
      response: { schema: success({ data: postSchema }) },
      errors: [404],
    },
    async (c, { params }) => ok(c, { data: await services.news.getBySlug(params.slug) }),
  );

  declare(
    api,
    {
      method: "get",
      path: "/getLatestPosts/:slug",
      access: access.public,
      tag,
      summary: "The latest posts but the one with this slug",
      params: slugParams,
      response: { schema: success({ data: z.array(postSummarySchema) }) },
    },
    async (c, { params }) => ok(c, { data: await services.news.latestExcept(params.slug) }),
  );

  declare(
    api,
    {
      method: "get",
      path: "/getDateFilters",
      access: access.public,
      tag,
      summary: "The months that have posts",
      response: { schema: success({ data: dateFiltersSchema }) },
    },
    async (c) => ok(c, { data: await services.news.dateFilters() }),
  );

  return api;
}
