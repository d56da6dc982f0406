import { Hono } from "hono";
import { joinHandledSchema } from "../../core/join/join.schema";
import { toCsv } from "../../lib/csv";
import { parseOrThrow } from "../../lib/validation";
import type { AppEnv, Runtime } from "../env";
import { access, idParam, ok, readBody } from "./http";

/** SPEC §7 '/api/join' and the admin's inbox of join and registration requests. */
export function joinRoutes({ services, logger }: Runtime) {
  const api = new Hono<AppEnv>();

  api.post("/join", access.public, async (c) => {
    const outcome = await services.join.submit(await readBody(c), {
      ip: c.var.clientIp,
      trusted: c.var.authVia === "bearer",
    });
    // A bot is answered like a person, so that it learns nothing from the answer.
    if (!outcome.stored) logger.info({ ip: c.var.clientIp, reason: outcome.reason }, "join request dropped as spam");
    return ok(c);
  });

  api.get("/dashboard/join-requests", access.admin, async (c) => ok(c, await services.join.list(c.req.query())));

  api.get("/dashboard/join-requests/export", access.admin, async (c) => {
    const rows = await services.join.exportRows(c.req.query());
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
  });

  api.patch("/dashboard/join-requests/:id", access.admin, async (c) => {
    const { handled } = parseOrThrow(joinHandledSchema, await readBody(c));
    await services.join.setHandled(idParam(c, "Request not found."), handled);
    return ok(c);
  });

  api.delete("/dashboard/join-requests/:id", access.admin, async (c) => {
    await services.join.remove(idParam(c, "Request not found."));
    return ok(c);
  });

  api.post("/dashboard/mail/:id/resend", access.admin, async (c) => {
    await services.mail.resend(idParam(c, "There is no failed mail with this id."));
    return ok(c);
  });

  return api;
}
