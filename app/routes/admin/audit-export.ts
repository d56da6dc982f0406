import { contentDisposition } from "../../../lib/content-disposition";
import { getRequestContext } from "../../context";
import { auditFiltersOf } from "../../lib/audit";
import type { Route } from "./+types/audit-export";

/** The audit log as CSV, with the list's filters (decision 0074). Under the admin layout: admins only. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const csv = await services.audit.csv(auditFiltersOf(url).query);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": contentDisposition("attachment", `audit-log-${new Date().toISOString().slice(0, 10)}.csv`),
      "Cache-Control": "private, no-store",
    },
  });
}
