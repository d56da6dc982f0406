import { Hono } from "hono";
import { postsQuerySchema } from "../../core/news/news.schema";
import { validate } from "../../lib/validation";
import type { AppEnv, Runtime } from "../env";
import { access, ok, readBody, unprocessable } from "./http";

/** SPEC §7 'News' (public reads). Load-more is a POST to next_page_url with the same body. */
export function newsRoutes(runtime: Runtime) {
  const { services } = runtime;
  const api = new Hono<AppEnv>();

  api.post("/getPosts", access.public, async (c) => {
    const body = await readBody(c);
    const input = validate(postsQuerySchema, { ...body, page: c.req.query("page") ?? body.page });
    if (!input.success) return unprocessable(c, input.errors);
    const page = await services.news.list(input.data);
    const next = page.current_page < page.last_page ? `/api/getPosts?page=${page.current_page + 1}` : null;
    return ok(c, { ...page, next_page_url: next });
  });

  api.get("/getPostBySlug/:slug", access.public, async (c) =>
    ok(c, { data: await services.news.getBySlug(c.req.param("slug")) }),
  );

  api.get("/getLatestPosts/:slug", access.public, async (c) =>
    ok(c, { data: await services.news.latestExcept(c.req.param("slug")) }),
  );

  api.get("/getDateFilters", access.public, async (c) => ok(c, { data: await services.news.dateFilters() }));

  return api;
}
