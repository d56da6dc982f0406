import { data } from "react-router";
import { type AuditRow, auditQuerySchema } from "../../core/audit/audit.schema";
import { minuteInZone } from "../../lib/time-zones";
import type { ShownAuditRow } from "../components/admin/audit-rows";

/**
 * Audit rows as the screens show them: each with its time in the site's zone. The address each
 * change came from only on the audit log's own screen (`addresses`, admins): an item's history on
 * its edit screen is read by editors and chairs too, and sent to their browser (issue 36).
 */
export function shownAuditRows(rows: AuditRow[], zone: string, { addresses = false } = {}): ShownAuditRow[] {
  return rows.map((row) => ({ ...row, ip: addresses ? row.ip : null, when: minuteInZone(row.created_at, zone) }));
}

/**
 * The audit log's filters from a screen's address: the list's search field is "which one" (the
 * entity's id or a page's address). A bad date is a 400 that says how to write one.
 */
export function auditFiltersOf(url: URL) {
  const raw = Object.fromEntries(url.searchParams);
  const entityId = raw.search || raw.entity_id || "";
  const parsed = auditQuerySchema.safeParse({ ...raw, entity_id: entityId });
  if (!parsed.success) throw data("These filters are not valid: a date is written 2026-11-28.", { status: 400 });
  const shown = {
    search: entityId,
    actor: raw.actor ?? "",
    entity: raw.entity ?? "",
    action: raw.action ?? "",
    from: raw.from ?? "",
    to: raw.to ?? "",
  };
  return { query: parsed.data, shown };
}
