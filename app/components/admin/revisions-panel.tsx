import { History, RotateCcw } from "lucide-react";
import { Form, useNavigation } from "react-router";
import type { Revision } from "../../../core/revisions/revisions.schema";

/** When a revision was saved, in the site's zone: "2026-11-28 14:05". */
export type ShownRevision = Revision & { when: string };

/** Unchanged text between changes, shortened when long: the start and end of it around an ellipsis. */
const CONTEXT = 120;
function unchanged(value: string, first: boolean, last: boolean): string {
  if (value.length <= CONTEXT * 2 + 20) return value;
  const head = first ? "" : value.slice(0, CONTEXT);
  const tail = last ? "" : value.slice(-CONTEXT);
  return `${head} … ${tail}`;
}

/** One field's change: the words removed struck through, the words added marked, the rest as it was. */
function Change({ change }: { change: Revision["changes"][number] }) {
  return (
    <div>
      <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
        {change.label}
        {change.formatting_only ? <span className="ml-2 normal-case">(formatting only)</span> : null}
      </p>
      <p className="mt-1 text-sm whitespace-pre-wrap break-words text-slate-800">
        {change.formatting_only
          ? null
          : change.parts.map((part, index) =>
              part.added ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: the parts never move
                <ins key={index} className="bg-emerald-100 text-emerald-900 no-underline">
                  <span className="sr-only">[added: </span>
                  {part.value}
                  <span className="sr-only">]</span>
                </ins>
              ) : part.removed ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: the parts never move
                <del key={index} className="bg-red-100 text-red-900">
                  <span className="sr-only">[removed: </span>
                  {part.value}
                  <span className="sr-only">]</span>
                </del>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: the parts never move
                <span key={index} className="text-slate-500">
                  {unchanged(part.value, index === 0, index === change.parts.length - 1)}
                </span>
              ),
            )}
      </p>
    </div>
  );
}

/**
 * The edit screens' revisions (decision 0073): each save, newest first, with who and when, what it
 * changed from the one before (opened on demand), and a button that restores it as a new save.
 */
export function RevisionsPanel({ revisions, noun }: { revisions: ShownRevision[]; noun: string }) {
  const navigation = useNavigation();
  const restoring = navigation.state === "submitting" && navigation.formData?.get("intent") === "restore";
  const latest = revisions[0]?.id;
  return (
    <section aria-labelledby="revisions-title" className="mt-8 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 id="revisions-title" className="flex items-center gap-2 font-display text-2xl font-bold text-navy-900">
        <History className="h-5 w-5" aria-hidden="true" />
        Revisions
      </h2>
      {revisions.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No revision kept yet: each save from now on keeps one.</p>
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-600">
            Each save keeps one. Restoring puts its texts back as a new save; the {noun}'s state does not change.
          </p>
          <ol className="mt-4 divide-y divide-slate-100">
            {revisions.map((revision) => (
              <li key={revision.id} className="py-3">
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <p className="text-sm text-slate-800">
                    <span className="font-semibold text-navy-900">Revision {revision.number}</span> · {revision.when} ·{" "}
                    {revision.author.name}
                    {revision.id === latest ? (
                      <span className="ml-2 text-xs font-semibold text-sea-700">current</span>
                    ) : null}
                    {revision.restored_from ? <span className="ml-2 text-xs text-slate-600">(a restore)</span> : null}
                  </p>
                  {revision.id === latest ? null : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="restore" />
                      <input type="hidden" name="revision" value={revision.id} />
                      <button type="submit" className="btn-outline py-1.5" disabled={restoring}>
                        <RotateCcw className="h-4 w-4" aria-hidden="true" />
                        Restore<span className="sr-only"> revision {revision.number}</span>
                      </button>
                    </Form>
                  )}
                </div>
                {revision.changes.length > 0 ? (
                  <details className="mt-2">
                    <summary className="cursor-pointer text-sm font-semibold text-sea-600">
                      What revision {revision.number} changed ({revision.changes.map((c) => c.label).join(", ")})
                    </summary>
                    <div className="mt-2 space-y-3 rounded-md bg-slate-50 p-3">
                      {revision.changes.map((change) => (
                        <Change key={change.field} change={change} />
                      ))}
                    </div>
                  </details>
                ) : null}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
