import { z } from "@hono/zod-openapi";
import {
  joinHandledSchema,
  joinListSchema,
  joinRequestListSchema,
  joinSubmissionSchema,
} from "../../core/join/join.schema";
import { toCsv } from "../../lib/csv";
import type { Runtime } from "../env";
import { idParams } from "./admin-news";
import { apiRouter, declare, success } from "./contract";
import { access, idParam, ok } from "./http";

const done = success({});

/** SPEC §7 '/api/join' and the admin's inbox of join and registration requests. */
export function joinRoutes({ services, logger }: Runtime) {
  const api = apiRouter();
  const tag = "Join requests";

  declare(
    api,
    {
      method: "post",
      path: "/join",
      access: access.public,
      tag,
      summary: "Ask to join (or register for a meeting)",
      description: "A signed-in API client (Bearer) is not asked for the captcha.",
      body: { schema: joinSubmissionSchema },
      response: { schema: done },
      errors: [429],
    },
    async (c, { body }) => {
      const outcome = await services.join.submit(body, {
        ip: c.get("clientIp"),
        trusted: c.get("authVia") === "bearer",
        signedIn: c.get("auth") !== null,
      });
      // A bot is answered like a person, so that it learns nothing from the answer.
      if (!outcome.stored)
        logger.info({ ip: c.get("clientIp"), reason: outcome.reason }, "join request dropped as spam");
      return ok(c);
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/join-requests",
      access: access.admin,
      tag,
      summary: "List join and registration requests",
      query: joinListSchema,
      response: { schema: success(joinRequestListSchema.shape) },
    },
    async (c, { query }) => ok(c, await services.join.list(query)),
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/join-requests/export",
      access: access.admin,
      tag,
      summary: "Export the requests as CSV",
      query: joinListSchema,
      response: { schema: z.string(), mediaType: "text/csv", description: "The requests, one a line." },
    },
    async (c, { query }) => {
      const rows = await services.join.exportRows(query);
      const csv = toCsv(
        ["Received", "Kind", "Meeting", "Company", "Representative", "E-mail", "Phone", "Page", "Handled"],
        rows.map((r) => [
          r.created_at,
          r.kind,
          r.meeting_title,
          r.company_name,
          r.representative_name,
          r.email,
          r.phone_number,
          r.page_path,
          r.handled_at ?? "",
        ]),
      );
      return c.body(csv, 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": 'attachment; filename="join-requests.csv"',
        "Cache-Control": "no-store",
      });
    },
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/join-requests/:id",
      access: access.admin,
      tag,
      summary: "Mark a request handled or open",
      params: idParams,
      body: { schema: joinHandledSchema },
      response: { schema: done },
      errors: [404],
    },
    async (c, { body }) => {
      await services.join.setHandled(idParam(c, "Request not found."), body.handled);
      return ok(c);
    },
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/join-requests/:id",
      access: access.admin,
      tag,
      summary: "Delete a request",
      params: idParams,
      response: { schema: done },
      errors: [404],
    },
    async (c) => {
      await services.join.remove(idParam(c, "Request not found."));
      return ok(c);
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/mail/:id/resend",
      access: access.admin,
      tag: "Mail (admin)",
      summary: "Send a failed mail again",
      params: idParams,
      response: { schema: done },
      errors: [404],
    },
    async (c) => {
      await services.mail.resend(idParam(c, "There is no failed mail with this id."));
      return ok(c);
    },
  );

  return api;
}
