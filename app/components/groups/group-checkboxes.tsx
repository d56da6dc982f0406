/** A working group as the audience forms offer it. */
export type GroupChoice = { id: number; name: string };

/**
 * The working groups a library category or a meeting may be for (issue 36): one checkbox each,
 * named `group_ids`, with what ticking them means and the refusal, if any.
 */
export function GroupCheckboxes({
  id,
  groups,
  chosen,
  hint,
  error,
}: {
  id: string;
  groups: GroupChoice[];
  chosen: Set<number>;
  hint: string;
  error?: string;
}) {
  return (
    <fieldset
      className="rounded-lg border border-slate-200 p-4"
      aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
    >
      <legend className="px-1 text-sm font-semibold text-slate-800">Working groups</legend>
      <p id={`${id}-hint`} className="text-sm text-slate-600">
        {hint}
      </p>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {groups.map((group) => (
          <label key={group.id} className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              name="group_ids"
              value={group.id}
              defaultChecked={chosen.has(group.id)}
              className="h-4 w-4"
            />
            {group.name}
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
