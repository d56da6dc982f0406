import { Hono } from "hono";
import { meetingsQuerySchema } from "../../core/meetings/meetings.schema";
import { validate } from "../../lib/validation";
import type { AppEnv, Runtime } from "../env";
import { access, ok, unprocessable } from "./http";

/** SPEC §7 'Meetings' (public reads). Load-more is a GET of next_page_url. */
export function meetingsRoutes(runtime: Runtime) {
  const { services } = runtime;
  const api = new Hono<AppEnv>();

  api.get("/meetings", access.public, async (c) => {
    const input = validate(meetingsQuerySchema, {
      page: c.req.query("page"),
      type: c.req.query("type"),
      start_date: c.req.query("start_date"),
    });
    if (!input.success) return unprocessable(c, input.errors);
    const page = await services.meetings.list(input.data);
    let next: string | null = null;
    if (page.current_page < page.last_page) {
      const params = new URLSearchParams({ page: String(page.current_page + 1) });
      if (input.data.type) params.set("type", input.data.type);
      if (input.data.start_date) params.set("start_date", input.data.start_date);
      next = `/api/meetings?${params}`;
    }
    return ok(c, { ...page, next_page_url: next });
  });

  api.get("/meetings/:slug", access.public, async (c) =>
    ok(c, { event: await services.meetings.getBySlug(c.req.param("slug")) }),
  );

  return api;
}
