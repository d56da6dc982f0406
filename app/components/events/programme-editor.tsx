import { Moon } from "lucide-react";
import { type Ref, useRef } from "react";
import { type Schedule, scheduleInputSchema } from "../../../core/meetings/meetings.schema";
import { lengthLimit } from "../../lib/forms";
import { ConfirmDelete } from "../ui/confirm-delete";
import { TextField } from "../ui/text-field";
import { formatTimes, formatWeekday } from "./format";
import {
  AddActions,
  EditActions,
  EditLink,
  errorOf,
  type InlineResult,
  RowError,
  useInlineEdit,
  useInlineForm,
} from "./inline-form";

type Dates = { first: string; last: string };

const FIELD_LIMITS = scheduleInputSchema.shape;

function values(session: Schedule | null, result: InlineResult | undefined, fallbackDate: string) {
  if (result?.errors && result.values) return result.values;
  return {
    meeting_date: session?.meeting_date ?? fallbackDate,
    is_evening: session?.is_evening ? "1" : "",
    start: session?.start ?? "",
    finish: session?.finish ?? "",
    meeting_date_info: session?.meeting_date_info ?? "",
    description: session?.description ?? "",
  };
}

/** The fields of one session, for the add form and for editing a row in place. */
function SessionFields({
  prefix,
  dates,
  shown,
  result,
  dateRef,
}: {
  prefix: string;
  dates: Dates;
  shown: Record<string, string>;
  result: InlineResult | undefined;
  dateRef?: Ref<HTMLInputElement>;
}) {
  const id = (field: string) => `${prefix}-${field}`;
  const descriptionError = errorOf(result, "description");
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <TextField
        inputRef={dateRef}
        id={id("meeting_date")}
        name="meeting_date"
        type="date"
        label="Date"
        min={dates.first}
        max={dates.last}
        required
        defaultValue={shown.meeting_date}
        error={errorOf(result, "meeting_date")}
      />
      <TextField
        id={id("start")}
        name="start"
        type="time"
        label="Start"
        defaultValue={shown.start}
        error={errorOf(result, "start")}
      />
      <TextField
        id={id("finish")}
        name="finish"
        type="time"
        label="Finish"
        defaultValue={shown.finish}
        error={errorOf(result, "finish")}
      />
      <div className="flex items-end pb-3">
        <label htmlFor={id("is_evening")} className="flex items-center gap-2 text-sm font-semibold text-slate-800">
          <input
            id={id("is_evening")}
            name="is_evening"
            type="checkbox"
            value="1"
            defaultChecked={shown.is_evening === "1" || shown.is_evening === "true"}
            className="h-5 w-5 rounded border-slate-300 text-navy-900"
          />
          Evening session
        </label>
      </div>
      <div className="sm:col-span-2 lg:col-span-4">
        <TextField
          id={id("meeting_date_info")}
          name="meeting_date_info"
          label="Day note"
          hint="Shown under the day’s heading, e.g. “Day 1 — Working group meetings”."
          defaultValue={shown.meeting_date_info}
          error={errorOf(result, "meeting_date_info")}
          {...lengthLimit(FIELD_LIMITS.meeting_date_info)}
        />
      </div>
      <div className="sm:col-span-2 lg:col-span-4">
        <label htmlFor={id("description")} className="field-label">
          Description
        </label>
        <textarea
          id={id("description")}
          name="description"
          rows={2}
          defaultValue={shown.description}
          aria-invalid={descriptionError ? true : undefined}
          aria-describedby={descriptionError ? `${id("description")}-error` : undefined}
          className="field-input"
          {...lengthLimit(FIELD_LIMITS.description)}
        />
        {descriptionError ? (
          <p id={`${id("description")}-error`} className="mt-1.5 text-sm text-red-700">
            {descriptionError}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** One session: shown as a row, or edited in place (a form of its own posting `update-session`). */
function SessionRow({
  session,
  dates,
  action,
  initiallyEditing,
}: {
  session: Schedule;
  dates: Dates;
  action: string;
  initiallyEditing: boolean;
}) {
  const row = `session-${session.id}`;
  const { fetcher, result, busy, form, editing, setEditing, editLink } = useInlineEdit(row, initiallyEditing);
  const times = formatTimes(session.start, session.finish);
  const name = `session ${times ? `${times} ` : ""}on ${formatWeekday(session.meeting_date)}`;
  if (editing) {
    return (
      <tr id={row} className="bg-navy-50/60">
        <td colSpan={4} className="px-4 py-4">
          <fetcher.Form ref={form} method="post" action={action} aria-label={`Edit the ${name}`}>
            <input type="hidden" name="intent" value="update-session" />
            <input type="hidden" name="id" value={session.id} />
            <RowError result={result} />
            <SessionFields prefix={row} dates={dates} shown={values(session, result, dates.first)} result={result} />
            <EditActions action={action} busy={busy} saveLabel="Save session" onCancel={() => setEditing(false)} />
          </fetcher.Form>
        </td>
      </tr>
    );
  }
  return (
    <tr id={row} className="align-top max-sm:grid max-sm:grid-cols-[auto_1fr] max-sm:gap-x-3 max-sm:px-4 max-sm:py-3">
      <td className="py-3 pr-3 pl-4 whitespace-nowrap tabular-nums max-sm:p-0">
        <span className="font-semibold text-navy-900">{times || "—"}</span>
        {session.is_evening ? (
          <span className="mt-1 flex items-center gap-1 text-xs font-medium text-slate-600">
            <Moon className="h-3.5 w-3.5" aria-hidden="true" />
            Evening
          </span>
        ) : null}
      </td>
      <td className="px-3 py-3 text-slate-700 max-sm:p-0">
        {session.description ?? <span className="text-slate-500">No description</span>}
      </td>
      <td className="px-3 py-3 text-slate-600 max-sm:col-start-2 max-sm:p-0 max-sm:text-xs">
        {session.meeting_date_info}
      </td>
      <td className="py-2 pr-4 pl-3 max-sm:col-span-2 max-sm:p-0 max-sm:pt-1">
        <div className="flex justify-end gap-1">
          <EditLink row={row} linkRef={editLink} onOpen={() => setEditing(true)}>
            Edit<span className="sr-only"> the {name}</span>
          </EditLink>
          <ConfirmDelete
            label={`Delete the ${name}`}
            title="Delete this session?"
            description={`The ${name} will be removed from the programme.`}
            fields={{ intent: "delete-session", id: session.id }}
            focusAfter="#programme-title"
          />
        </div>
      </td>
    </tr>
  );
}

/** The form under the table that adds a session; after adding, it is ready for the next one. */
function AddSession({ dates, action, lastDate }: { dates: Dates; action: string; lastDate: string }) {
  const date = useRef<HTMLInputElement>(null);
  const { fetcher, result, busy, form } = useInlineForm("new-session", () => {
    const day = date.current?.value ?? "";
    form.current?.reset();
    // The next session is most often on the same day.
    if (date.current) date.current.value = day;
    date.current?.focus();
  });
  return (
    <fetcher.Form
      ref={form}
      method="post"
      action={action}
      aria-labelledby="add-session-title"
      className="border-t border-slate-200 p-4 sm:p-6"
    >
      <h3 id="add-session-title" className="mb-4 text-lg font-semibold text-navy-900">
        Add a session
      </h3>
      <input type="hidden" name="intent" value="add-session" />
      <RowError result={result} />
      <SessionFields
        prefix="new-session"
        dates={dates}
        shown={values(null, result, lastDate)}
        result={result}
        dateRef={date}
      />
      <AddActions result={result} busy={busy} label="Add session" />
    </fetcher.Form>
  );
}

/**
 * The programme, edited inline (issue 13): the sessions grouped by day in a table, each row
 * editable in place and deletable after confirming, and a form to add one. Every form posts to
 * the page's action with an `intent`, so all of it works without JavaScript too.
 */
export function ProgrammeEditor({
  schedules,
  dates,
  action,
  editing,
}: {
  schedules: Schedule[];
  dates: Dates;
  action: string;
  /** The row opened for editing by the address (`?edit=session-12`), for browsers without JavaScript. */
  editing: string | null;
}) {
  const days = new Map<string, Schedule[]>();
  for (const session of schedules) days.set(session.meeting_date, [...(days.get(session.meeting_date) ?? []), session]);
  const lastDate = schedules.at(-1)?.meeting_date ?? dates.first;
  return (
    <section aria-labelledby="programme-title" className="rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      <div className="p-4 sm:p-6">
        <h2 id="programme-title" tabIndex={-1} className="font-display text-2xl font-bold text-navy-900">
          Programme
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Times are wall-clock times in the meeting's time zone. Sessions are shown by day, in order of start time.
        </p>
      </div>
      {schedules.length === 0 ? (
        <p className="border-t border-slate-200 px-4 py-6 text-center text-slate-600 sm:px-6">No sessions yet.</p>
      ) : (
        <table className="w-full border-t border-slate-200 text-sm max-sm:block">
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase max-sm:sr-only">
            <tr>
              <th scope="col" className="py-2 pr-3 pl-4">
                Time
              </th>
              <th scope="col" className="px-3 py-2">
                Description
              </th>
              <th scope="col" className="px-3 py-2">
                Day note
              </th>
              <th scope="col" className="py-2 pr-4 pl-3 text-right">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          {[...days].map(([day, sessions]) => (
            <tbody key={day} className="divide-y divide-slate-100 border-t border-slate-200 max-sm:block">
              <tr className="bg-navy-50 max-sm:block">
                <th
                  scope="rowgroup"
                  colSpan={4}
                  className="px-4 py-2 text-left font-semibold text-navy-900 max-sm:block"
                >
                  {formatWeekday(day)}
                </th>
              </tr>
              {sessions.map((session) => (
                <SessionRow
                  key={session.id}
                  session={session}
                  dates={dates}
                  action={action}
                  initiallyEditing={editing === `session-${session.id}`}
                />
              ))}
            </tbody>
          ))}
        </table>
      )}
      <AddSession dates={dates} action={action} lastDate={lastDate} />
    </section>
  );
}
