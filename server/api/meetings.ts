import { z } from "@hono/zod-openapi";
import { meetingSchema, meetingSummarySchema, meetingsQuerySchema } from "../../core/meetings/meetings.schema";
import type { Runtime } from "../env";
import { apiRouter, declare, pageAnswer, success } from "./contract";
import { access, ok, viewerOf } from "./http";

/** SPEC §7 'Meetings' (public reads). Load-more is a GET of next_page_url. */
export function meetingsRoutes(runtime: Runtime) {
  const { services } = runtime;
  const api = apiRouter();
  const tag = "Meetings";

  declare(
    api,
    {
      method: "get",
      path: "/meetings",
      access: access.public,
      tag,
      summary: "List meetings (type, start date, page)",
      query: meetingsQuerySchema,
      response: { schema: pageAnswer(meetingSummarySchema) },
      cache: "content",
    },
    async (c, { query }) => {
      const page = await services.meetings.list(query, viewerOf(c));
      let next: string | null = null;
      if (page.current_page < page.last_page) {
        const params = new URLSearchParams({ page: String(page.current_page + 1) });
        if (query.type) params.set("type", query.type);
        if (query.start_date) params.set("start_date", query.start_date);
        next = `/api/meetings?${params}`;
      }
      return ok(c, { ...page, next_page_url: next });
    },
  );

  // SPEC §7 'GET /dashboard/getMeetingBySlug/{slug}', and the shorter /meetings/{slug}: one handler.
  for (const path of ["/dashboard/getMeetingBySlug/:slug", "/meetings/:slug"]) {
    declare(
      api,
      {
        method: "get",
        path,
        access: access.public,
        tag,
        summary: "A meeting by its slug, with its programme, sponsors and images",
        description:
          "Public meetings for anyone; members-only ones for signed-in users (404 for everyone else, as for an unknown slug).",
        params: z.object({ slug: z.string() }),
        response: { schema: success({ event: meetingSchema }) },
        errors: [404],
      },
      async (c, { params }) => ok(c, { event: await services.meetings.getBySlug(params.slug, viewerOf(c)) }),
    );
  }

  return api;
}
