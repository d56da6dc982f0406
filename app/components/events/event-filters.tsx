import { Filter } from "lucide-react";
import { Form, Link, useNavigate } from "react-router";
import { MEETING_TYPES, meetingTypeLabel } from "../../../core/meetings/meetings.values";

/** The calendar's address with only the parameters that are set. */
export function calendarHref(
  base: string,
  params: {
    view?: "list" | "month";
    month?: string | null;
    type?: string | null;
    start_date?: string | null;
    page?: number;
  },
): string {
  const search = new URLSearchParams();
  if (params.view === "month") search.set("view", "month");
  if (params.view === "month" && params.month) search.set("month", params.month);
  if (params.type) search.set("type", params.type);
  if (params.start_date) search.set("start_date", params.start_date);
  if (params.page && params.page > 1) search.set("page", String(params.page));
  const text = search.toString();
  return text ? `${base}?${text}` : base;
}

/** What the filters need of the calendar's data: little, as an islands page writes it into the page (decision 0033). */
export type FiltersProps = {
  base: string;
  view: "list" | "month";
  month: string | null;
  type: string | null;
  startDate: string | null;
  /** How many events the page shows, said after the fields. */
  summary: string;
};

/** One GET form: without JavaScript the button applies both filters; with it, a type applies at once. */
export function EventFilters({ base, view, month, type, startDate, summary }: FiltersProps) {
  const navigate = useNavigate();
  const filtered = Boolean(type || startDate);
  return (
    // One GET form: without JavaScript the button applies both filters; with it, a type applies at once.
    <Form
      key={`${type ?? ""}|${startDate ?? ""}|${view}`}
      method="get"
      action={base}
      role="search"
      aria-label="Filter the events"
      // With JavaScript, the address carries only the filters that are set (no "type=").
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const value = (name: string) => (form.get(name) as string | null) || null;
        navigate(calendarHref(base, { view, type: value("type"), start_date: value("start_date") }));
      }}
      className="flex flex-col gap-4 rounded-xl bg-navy-50 p-4 ring-1 ring-navy-100 sm:flex-row sm:flex-wrap sm:items-end"
    >
      {view === "month" ? <input type="hidden" name="view" value="month" /> : null}
      <div className="sm:w-60">
        <label htmlFor="events-type" className="field-label">
          Type of event
        </label>
        <select
          id="events-type"
          name="type"
          defaultValue={type ?? ""}
          onChange={(event) =>
            navigate(
              calendarHref(base, {
                view,
                month,
                type: event.currentTarget.value || null,
                start_date: startDate,
              }),
            )
          }
          className="field-input"
        >
          <option value="">All events</option>
          {MEETING_TYPES.map((t) => (
            <option key={t} value={t}>
              {meetingTypeLabel(t)}s
            </option>
          ))}
        </select>
      </div>
      <div className="sm:w-52">
        <label htmlFor="events-start-date" className="field-label">
          Starting from
        </label>
        <input
          id="events-start-date"
          type="date"
          name="start_date"
          defaultValue={startDate ?? ""}
          aria-describedby="events-start-date-hint"
          className="field-input"
        />
        <span id="events-start-date-hint" className="sr-only">
          Shows the events starting on or after this date.
        </span>
      </div>
      <div className="flex gap-2">
        <button type="submit" className="btn-primary">
          <Filter className="h-4 w-4" aria-hidden="true" />
          Filter
        </button>
        {filtered ? (
          <Link to={calendarHref(base, { view })} className="btn-outline">
            Clear
          </Link>
        ) : null}
      </div>
      <p className="text-sm text-slate-600 sm:ml-auto sm:self-center" aria-live="polite">
        {summary}
      </p>
    </Form>
  );
}
