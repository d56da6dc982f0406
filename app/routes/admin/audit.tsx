import { Download } from "lucide-react";
import { AUDIT_ENTITIES } from "../../../core/audit/audit.schema";
import { AdminList, type FilterSelects, filterParams } from "../../components/admin/admin-list";
import { AuditChanges } from "../../components/admin/audit-rows";
import { TextField } from "../../components/ui/text-field";
import { getRequestContext } from "../../context";
import { auditFiltersOf, shownAuditRows } from "../../lib/audit";
import type { Route } from "./+types/audit";

export const meta: Route.MetaFunction = () => [{ title: "Audit log · Manager" }];

/** The actions the filter offers, with what they are called. */
const ACTIONS: [string, string][] = [
  ["create", "Created"],
  ["update", "Changed"],
  ["restore", "Restored a revision"],
  ["delete", "Deleted"],
  ["sign_in", "Signed in"],
  ["sign_in_failed", "Failed sign-in"],
  ["sign_in_locked", "Locked out"],
  ["access_refused", "Refused access"],
  ["password_changed", "Password changed"],
  ["email_changed", "E-mail address changed"],
];

export async function loader({ context, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const { query, shown } = auditFiltersOf(url);
  const [page, actors, settings] = await Promise.all([
    services.audit.list(query),
    services.audit.actors(),
    services.settings.getAll(),
  ]);
  return {
    page: { ...page, data: shownAuditRows(page.data, settings["site.timezone"], { addresses: true }) },
    actors,
    zone: settings["site.timezone"],
    filters: shown,
  };
}

/** Who did what, when and from where (decision 0074): the whole audit log, newest first, filtered and exported. */
export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { page, actors, filters, zone } = loaderData;
  const params = filterParams(filters);
  const selects: FilterSelects = {
    actor: { label: "Who", options: actors.map((a): [string, string] => [String(a.id), a.name]) },
    entity: { label: "What", options: Object.entries(AUDIT_ENTITIES) },
    action: { label: "Action", options: ACTIONS },
  };
  return (
    <AdminList
      title="Audit log"
      description={`Every change by an admin or a primary contact, and every sign-in and refusal. Times in ${zone} time. Rows are kept for the retention set in the settings; nothing else removes one.`}
      headerAction={
        <a href={`/manager/audit/export.csv${params.size > 0 ? `?${params}` : ""}`} className="btn-outline" download>
          <Download className="h-4 w-4" aria-hidden="true" />
          Export CSV
        </a>
      }
      search={{ id: "audit", label: "Which one (its id, or a page's address)" }}
      filters={{
        label: "Filter the audit log",
        selects,
        grid: "sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_1fr_9rem_9rem_auto]",
        extra: (
          <>
            <TextField id="audit-from" name="from" type="date" label="From" defaultValue={filters.from} />
            <TextField id="audit-to" name="to" type="date" label="To" defaultValue={filters.to} />
          </>
        ),
      }}
      params={params}
      page={page}
      noun={["row", "rows"]}
      showAll
      empty={{ filtered: "Nothing recorded matches these filters.", unfiltered: "Nothing recorded yet." }}
      layout="rows"
      path="/manager/audit"
      paging="pages"
      renderRow={(row) => (
        <li className="px-4 py-3">
          <p className="text-sm text-slate-800">
            <span className="font-semibold text-navy-900">{row.summary}</span>
          </p>
          <p className="text-xs text-slate-600">
            {row.when} · {row.actor.name}
            {row.ip ? ` · ${row.ip}` : ""} · {AUDIT_ENTITIES[row.entity as keyof typeof AUDIT_ENTITIES] ?? row.entity}
            {row.entity_id ? ` #${row.entity_id}` : ""} · {row.action}
          </p>
          <AuditChanges row={row} />
        </li>
      )}
    />
  );
}
