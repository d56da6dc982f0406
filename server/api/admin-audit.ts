import { auditQuerySchema, auditRowSchema } from "../../core/audit/audit.schema";
import type { Runtime } from "../env";
import { apiRouter, declare, pageAnswer } from "./contract";
import { access, ok } from "./http";

/** The audit log (decision 0074): read-only here, as everywhere; nothing in the API edits or deletes a row. */
export function adminAuditRoutes(runtime: Runtime) {
  const { services } = runtime;
  const api = apiRouter();

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/audit",
      access: access.admin,
      tag: "Audit log (admin)",
      summary: "The audit log, newest first (filters, page)",
      description:
        "Every write by an admin or a primary contact and every security event (sign-ins, failed sign-ins, lockouts, " +
        "refused access, password and e-mail changes): who, when, from which address, what, and the changed fields " +
        "before and after (never a secret). 50 rows a page; the filters stay in `next_page_url`.",
      query: auditQuerySchema,
      response: { schema: pageAnswer(auditRowSchema) },
    },
    async (c, { query }) => {
      const page = await services.audit.list(query);
      const params = new URLSearchParams();
      for (const key of ["actor", "entity", "entity_id", "action", "from", "to"] as const) {
        const value = query[key];
        if (value !== undefined) params.set(key, String(value));
      }
      params.set("page", String(page.current_page + 1));
      const next = page.current_page < page.last_page ? `/api/dashboard/audit?${params}` : null;
      return ok(c, { ...page, next_page_url: next });
    },
  );

  return api;
}
