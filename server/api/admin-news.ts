import { Hono } from "hono";
import type { Post } from "../../core/news/news.schema";
import type { AppEnv, Runtime } from "../env";
import { access, idParam, ok, readBody, uploadedImage } from "./http";

/** The admin's post, with the address its image is deleted at (SPEC §7). */
const withLinks = (post: Post) => ({
  ...post,
  image_delete_url: post.image ? `/api/dashboard/news/${post.id}/image` : null,
});

/** SPEC §7 'News' (admin): list, create, update, delete, delete the image. */
export function adminNewsRoutes(runtime: Runtime) {
  const { services } = runtime;
  const api = new Hono<AppEnv>();

  api.get("/dashboard/news", access.admin, async (c) => {
    const page = await services.news.adminList({ search: c.req.query("search"), page: c.req.query("page") });
    const next = page.current_page < page.last_page ? `/api/dashboard/news?page=${page.current_page + 1}` : null;
    return ok(c, { ...page, next_page_url: next });
  });

  api.post("/dashboard/news", access.admin, async (c) => {
    const body = await readBody(c);
    const post = await services.news.create(body, await uploadedImage(body));
    return ok(c, { post: withLinks(post) }, 201);
  });

  api.patch("/dashboard/news/:id", access.admin, async (c) => {
    const id = idParam(c, "Post not found.");
    const body = await readBody(c);
    const post = await services.news.update(id, body, await uploadedImage(body));
    return ok(c, { post: withLinks(post) });
  });

  api.delete("/dashboard/news/:id", access.admin, async (c) =>
    ok(c, await services.news.remove(idParam(c, "Post not found."))),
  );

  api.delete("/dashboard/news/:id/image", access.admin, async (c) => {
    const post = await services.news.removeImage(idParam(c, "Post not found."));
    return ok(c, { post: withLinks(post) });
  });

  return api;
}
