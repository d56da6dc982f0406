import { CalendarDays, CalendarPlus, ChevronLeft, ChevronRight, Download, LayoutGrid, List } from "lucide-react";
import { Link } from "react-router";
import type { MeetingSummary } from "../../../core/meetings/meetings.schema";
import { meetingTypeLabel } from "../../../core/meetings/meetings.values";
import type { Page } from "../../../lib/pagination";
import { Island, useIslands } from "../../islands/island";
import { useLoadMore } from "../../lib/use-load-more";
import { LoadMoreIsland } from "../ui/load-more-island";
import { LoadMoreLink } from "../ui/load-more-link";
import { calendarHref, EventFilters, type FiltersProps } from "./event-filters";
import { formatDateRange } from "./format";
import { MeetingCard } from "./meeting-card";
import { byStartMonth, type MonthGrid, monthTitle, shiftMonth } from "./month-grid";

export type CalendarFilters = { type: string | null; startDate: string | null };

type Feed = { webcal: string; https: string; personal: string | null };
type Common = { filters: CalendarFilters; feed: Feed; today: string };

/** What the calendar's loader answers (app/routes/events/calendar.server.ts). */
export type CalendarData =
  | (Common & {
      view: "list";
      /** calendar: upcoming, then a page of past ones; from: meetings starting on or after the start date. */
      mode: "calendar" | "from";
      upcoming: MeetingSummary[];
      moreUpcoming: boolean;
      page: Page<MeetingSummary>;
    })
  | (Common & { view: "month"; grid: MonthGrid<MeetingSummary> });

type Place = { base: string; href: (slug: string) => string };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const LONG_DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
const longDate = (iso: string) => LONG_DATE.format(new Date(`${iso}T00:00:00Z`));

/**
 * The events calendar, for visitors (/events) and members (/dashboard/events): filters by type and
 * start date in one GET form, a list and a month view to switch between, and the calendar feed.
 * Every control is a link or a form, so all of it works before (and without) JavaScript.
 */
export function CalendarView({
  data,
  base,
  meetingHref,
  className = "mx-auto max-w-7xl px-4 py-10 sm:px-6",
}: {
  data: CalendarData;
  /** The calendar's own path: /events or /dashboard/events. */
  base: string;
  meetingHref: (slug: string) => string;
  className?: string;
}) {
  const place: Place = { base, href: meetingHref };
  const month = data.view === "month" ? data.grid.month : null;
  return (
    <div className={className}>
      <Island name="calendar-filters" component={EventFilters} props={filtersProps(data, base)} />
      <div className="mt-6 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <nav
          aria-label="Calendar view"
          className="inline-flex self-start rounded-lg border border-slate-300 bg-white p-1"
        >
          {(
            [
              ["list", "List", List],
              ["month", "Month", LayoutGrid],
            ] as const
          ).map(([view, label, Icon]) => {
            const current = data.view === view;
            return (
              <Link
                key={view}
                to={calendarHref(base, { view, month, type: data.filters.type, start_date: data.filters.startDate })}
                aria-current={current ? "page" : undefined}
                className={`inline-flex items-center gap-2 rounded-md px-4 py-2 text-sm font-semibold ${current ? "bg-navy-900 text-white" : "text-navy-900 hover:bg-navy-50"}`}
              >
                <Icon className="h-4 w-4" aria-hidden="true" />
                {label}
              </Link>
            );
          })}
        </nav>
        <FeedLinks feed={data.feed} />
      </div>
      {data.view === "month" ? <MonthView data={data} place={place} /> : <ListView data={data} place={place} />}
    </div>
  );
}

function filtersProps(data: CalendarData, base: string): FiltersProps {
  const { type, startDate } = data.filters;
  const kind = type ? meetingTypeLabel(type).toLowerCase() : "event";
  return {
    base,
    view: data.view,
    month: data.view === "month" ? data.grid.month : null,
    type,
    startDate,
    summary:
      data.view === "month"
        ? `${plural(monthCount(data.grid), kind)} in ${monthTitle(data.grid.month)}`
        : data.mode === "from"
          ? `${plural(data.page.total, kind)} from ${longDate(startDate ?? "")}`
          : `${data.page.current_page === 1 ? `${plural(data.upcoming.length, `upcoming ${kind}`)} · ` : ""}${plural(data.page.total, `past ${kind}`)}`,
  };
}

function monthCount(grid: MonthGrid<MeetingSummary>): number {
  const ids = new Set<number>();
  for (const week of grid.weeks) for (const day of week) if (day.inMonth) for (const m of day.meetings) ids.add(m.id);
  return ids.size;
}

/**
 * The public feed: webcal:// opens the calendar app's subscribe dialog; the https address suits the rest.
 * Signed-in users are pointed to their private feed instead, which has the members-only meetings too.
 */
function FeedLinks({ feed }: { feed: Feed }) {
  if (feed.personal) {
    return (
      <div className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm">
        <Link
          to={feed.personal}
          className="inline-flex items-center gap-1.5 font-semibold text-sea-700 hover:underline"
        >
          <CalendarPlus className="h-4 w-4" aria-hidden="true" />
          Subscribe to your calendar (members-only meetings included)
        </Link>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm">
      <a href={feed.webcal} className="inline-flex items-center gap-1.5 font-semibold text-sea-700 hover:underline">
        <CalendarPlus className="h-4 w-4" aria-hidden="true" />
        Subscribe<span className="sr-only"> to the events calendar</span>
      </a>
      <a
        href={feed.https}
        className="inline-flex items-center gap-1.5 font-semibold text-sea-700 hover:underline"
        title="The calendar feed's address, for calendar apps that ask for one"
      >
        <Download className="h-4 w-4" aria-hidden="true" />
        Calendar feed (.ics)
      </a>
    </div>
  );
}

function MonthGroups({
  meetings,
  place,
  idPrefix,
  past = false,
}: {
  meetings: MeetingSummary[];
  place: Place;
  idPrefix: string;
  past?: boolean;
}) {
  return (
    <div id={`${idPrefix}-list`} className="mt-6 space-y-8">
      {byStartMonth(meetings).map(([month, items]) => (
        <section key={month} data-key={month} data-group="" aria-labelledby={`${idPrefix}-${month}`}>
          <h3
            id={`${idPrefix}-${month}`}
            className="border-b border-slate-200 pb-2 text-sm font-semibold tracking-wider text-slate-600 uppercase"
          >
            {monthTitle(month)}
          </h3>
          <ul data-group-items="" className="mt-4 space-y-4">
            {items.map((meeting) => (
              <li key={meeting.id} data-key={meeting.id}>
                <MeetingCard meeting={meeting} href={place.href(meeting.slug)} past={past} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function ListView({ data, place }: { data: Extract<CalendarData, { view: "list" }>; place: Place }) {
  const { upcoming, moreUpcoming, page, filters, mode } = data;
  const more = useLoadMore(page);
  const firstPage = page.current_page === 1;
  const kind = filters.type ? meetingTypeLabel(filters.type).toLowerCase() : "event";
  const nextHref = calendarHref(place.base, { type: filters.type, start_date: filters.startDate, page: more.nextPage });
  const islands = useIslands();
  const loadMore = more.hasMore ? (
    <div className="mt-10 text-center">
      {islands ? (
        <Island
          name="load-more"
          component={LoadMoreIsland}
          props={{ href: nextHref, list: mode === "from" ? "from-list" : "past-list" }}
        />
      ) : (
        <LoadMoreLink href={nextHref} loading={more.loading} onLoad={more.load} />
      )}
    </div>
  ) : null;

  if (mode === "from") {
    const title = `Events from ${longDate(filters.startDate ?? data.today)}`;
    return (
      <section aria-labelledby="from-title" className="mt-10">
        <h2 id="from-title" className="font-display text-3xl font-bold text-navy-900">
          {firstPage ? title : `${title} · page ${page.current_page}`}
        </h2>
        {more.items.length === 0 ? (
          <Empty>
            No {kind}s start on or after {longDate(filters.startDate ?? data.today)}. Choose an earlier date, or{" "}
            <Link
              to={calendarHref(place.base, { type: filters.type })}
              className="font-semibold text-sea-700 underline"
            >
              see all {kind}s
            </Link>
            .
          </Empty>
        ) : (
          <MonthGroups meetings={more.items} place={place} idPrefix="from" />
        )}
        {loadMore}
      </section>
    );
  }

  return (
    <>
      {firstPage ? (
        <section aria-labelledby="upcoming-title" className="mt-10">
          <h2 id="upcoming-title" className="font-display text-3xl font-bold text-navy-900">
            Upcoming events
          </h2>
          {upcoming.length === 0 ? (
            <Empty>
              No {kind}s are scheduled at the moment. New dates are published here as soon as they are set
              {page.total > 0 ? "; past ones are listed below." : "."}
            </Empty>
          ) : (
            <MonthGroups meetings={upcoming} place={place} idPrefix="upcoming" />
          )}
          {moreUpcoming ? (
            <p className="mt-4 text-sm text-slate-600">
              Only the next {upcoming.length} are shown; choose a type of event or a start date to see the others.
            </p>
          ) : null}
        </section>
      ) : (
        <p className="mt-8">
          <Link
            to={calendarHref(place.base, { type: filters.type })}
            className="text-sm font-semibold text-sea-700 hover:underline"
          >
            Back to the upcoming events
          </Link>
        </p>
      )}

      <section aria-labelledby="past-title" className="mt-14">
        <h2 id="past-title" className="font-display text-3xl font-bold text-navy-900">
          {firstPage ? "Past events" : `Past events · page ${page.current_page}`}
        </h2>
        {more.items.length === 0 ? (
          <p className="mt-6 text-slate-700">
            {page.total === 0 ? `No past ${kind}s yet.` : "There are no more past events to show."}
          </p>
        ) : (
          <ul id="past-list" className="mt-6 space-y-4">
            {more.items.map((meeting) => (
              <li key={meeting.id} data-key={meeting.id}>
                <MeetingCard meeting={meeting} href={place.href(meeting.slug)} past />
              </li>
            ))}
          </ul>
        )}
        {loadMore}
      </section>
    </>
  );
}

function Empty({ children }: { children: React.ReactNode }) {
  return (
    <div className="mt-6 flex items-start gap-4 rounded-xl border border-dashed border-slate-300 p-6 text-slate-700">
      <CalendarDays className="mt-0.5 h-6 w-6 shrink-0 text-sea-600" aria-hidden="true" />
      <p>{children}</p>
    </div>
  );
}

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

const CHIP: Record<string, string> = {
  conference: "border-navy-900 bg-navy-100 text-navy-900",
  workshop: "border-sea-700 bg-sea-100 text-sea-700",
  meeting: "border-slate-500 bg-slate-100 text-slate-800",
  webinar: "border-amber-600 bg-amber-100 text-amber-900",
};

/** The month as a table: a row a week, a cell a day with links to the meetings running on it. */
function MonthView({ data, place }: { data: Extract<CalendarData, { view: "month" }>; place: Place }) {
  const { grid, filters, today } = data;
  const title = monthTitle(grid.month);
  const previous = shiftMonth(grid.month, -1);
  const next = shiftMonth(grid.month, 1);
  const link = (month: string) =>
    calendarHref(place.base, { view: "month", month, type: filters.type, start_date: filters.startDate });
  const inMonth = new Map<number, MeetingSummary>();
  for (const week of grid.weeks)
    for (const day of week) if (day.inMonth) for (const m of day.meetings) inMonth.set(m.id, m);
  const agenda = [...inMonth.values()];

  return (
    <section aria-labelledby="month-title" className="mt-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="month-title" className="font-display text-3xl font-bold text-navy-900">
          {title}
        </h2>
        <nav aria-label="Months" className="flex items-center gap-2">
          <Link to={link(previous)} className="btn-outline px-3" aria-label={`Previous month, ${monthTitle(previous)}`}>
            <ChevronLeft className="h-4 w-4" aria-hidden="true" />
            <span className="hidden sm:inline">{monthTitle(previous).split(" ")[0]}</span>
          </Link>
          {grid.month !== today.slice(0, 7) ? (
            <Link to={link(today.slice(0, 7))} className="btn-outline px-3">
              This month
            </Link>
          ) : null}
          <Link to={link(next)} className="btn-outline px-3" aria-label={`Next month, ${monthTitle(next)}`}>
            <span className="hidden sm:inline">{monthTitle(next).split(" ")[0]}</span>
            <ChevronRight className="h-4 w-4" aria-hidden="true" />
          </Link>
        </nav>
      </div>

      <div className="mt-6 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
        <table aria-labelledby="month-title" className="w-full table-fixed border-collapse">
          <thead className="bg-navy-900 text-white">
            <tr>
              {WEEKDAYS.map((day) => (
                <th
                  key={day}
                  scope="col"
                  className="px-1 py-2 text-center text-xs font-semibold tracking-wider uppercase sm:px-2"
                >
                  <abbr title={day} className="no-underline">
                    <span className="sm:hidden">{day.slice(0, 1)}</span>
                    <span className="hidden sm:inline">{day.slice(0, 3)}</span>
                  </abbr>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.weeks.map((week) => (
              <tr key={week[0].date} className="border-t border-slate-200">
                {week.map((day) => (
                  <td
                    key={day.date}
                    aria-current={day.today ? "date" : undefined}
                    className={`h-16 border-l border-slate-200 p-1 align-top first:border-l-0 sm:h-28 sm:p-1.5 ${day.inMonth ? "bg-white" : "bg-slate-50"} ${day.today ? "bg-signal-500/10 ring-2 ring-signal-500 ring-inset" : ""}`}
                  >
                    {/* Narrow cells (about 50 px on a phone) stack the badge under the date, in a size that fits. */}
                    <div className="flex flex-col items-start gap-0.5 sm:flex-row sm:items-center sm:justify-between sm:gap-1">
                      <time
                        dateTime={day.date}
                        className={`text-xs font-semibold sm:text-sm ${day.inMonth ? "text-navy-900" : "text-slate-500"}`}
                      >
                        {day.day}
                        {day.inMonth ? null : <span className="sr-only"> {monthTitle(day.date.slice(0, 7))}</span>}
                      </time>
                      {day.today ? (
                        <span className="max-w-full rounded-full bg-signal-500 px-1 text-[0.55rem] leading-4 font-bold text-navy-950 uppercase sm:px-1.5 sm:text-[0.65rem] sm:tracking-wide">
                          Today
                        </span>
                      ) : null}
                    </div>
                    {day.meetings.length > 0 ? (
                      <ul className="mt-1 space-y-1">
                        {day.meetings.map((meeting) => (
                          <li key={meeting.id}>
                            <Link
                              to={place.href(meeting.slug)}
                              title={meeting.title}
                              className={`block rounded border-l-4 px-1 text-xs leading-snug font-medium hover:underline sm:px-1.5 sm:py-0.5 ${CHIP[meeting.type] ?? CHIP.meeting}`}
                            >
                              {/* Narrow screens: a coloured bar here, the titles in the list below. */}
                              <span className="block h-2 sm:hidden" aria-hidden="true" />
                              <span className="sr-only sm:not-sr-only sm:line-clamp-2">{meeting.title}</span>
                            </Link>
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {agenda.length === 0 ? (
        <Empty>
          No {filters.type ? `${meetingTypeLabel(filters.type).toLowerCase()}s` : "events"} in {title}.{" "}
          <Link to={link(next)} className="font-semibold text-sea-700 underline">
            See {monthTitle(next)}
          </Link>
          .
        </Empty>
      ) : (
        // The month's events in words: on narrow screens the grid only has room for coloured bars.
        <div className="mt-8 sm:hidden">
          <h3 className="text-sm font-semibold tracking-wider text-slate-600 uppercase">Events in {title}</h3>
          <ul className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
            {agenda.map((meeting) => (
              <li key={meeting.id} className="p-3">
                <Link to={place.href(meeting.slug)} className="font-semibold text-navy-900 hover:underline">
                  {meeting.title}
                </Link>
                <p className="text-sm text-slate-600">
                  <time dateTime={meeting.start_date}>{formatDateRange(meeting.start_date, meeting.end_date)}</time>
                  {meeting.location ? ` · ${meeting.location}` : ""}
                </p>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
