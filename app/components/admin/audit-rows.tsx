import type { AuditRow } from "../../../core/audit/audit.schema";

/** An audit row as the screens show it: its time in the site's zone. */
export type ShownAuditRow = AuditRow & { when: string };

const text = (value: unknown) =>
  value === null || value === undefined || value === ""
    ? "—"
    : typeof value === "string"
      ? value
      : JSON.stringify(value);

/** The fields a row changed, before and after, opened on demand. */
export function AuditChanges({ row }: { row: ShownAuditRow }) {
  if (!row.changes) return null;
  const fields = Object.entries(row.changes);
  return (
    <details className="mt-1">
      <summary className="cursor-pointer text-xs font-semibold text-sea-600">
        {fields.length} changed field{fields.length === 1 ? "" : "s"}
        <span className="sr-only"> of: {row.summary}</span>
      </summary>
      <dl className="mt-2 space-y-2 rounded-md bg-slate-50 p-3 text-xs">
        {fields.map(([field, change]) => (
          <div key={field}>
            <dt className="font-semibold text-slate-700">{field}</dt>
            <dd className="mt-0.5 grid gap-1 sm:grid-cols-2">
              <span className="break-words text-red-900">
                <span className="font-semibold">Before: </span>
                {text(change.before)}
              </span>
              <span className="break-words text-emerald-900">
                <span className="font-semibold">After: </span>
                {text(change.after)}
              </span>
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/** One thing's history on its edit screen (decision 0074): the latest rows of the audit log about it. */
export function AuditHistory({ rows }: { rows: ShownAuditRow[] }) {
  return (
    <section aria-labelledby="history-title" className="mt-8 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 id="history-title" className="font-display text-2xl font-bold text-navy-900">
        History
      </h2>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">Nothing recorded yet.</p>
      ) : (
        <ol className="mt-3 divide-y divide-slate-100">
          {rows.map((row) => (
            <li key={row.id} className="py-2 text-sm">
              <p className="text-slate-800">
                <span className="font-medium text-navy-900">{row.when}</span> · {row.actor.name} · {row.summary}
              </p>
              <AuditChanges row={row} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
