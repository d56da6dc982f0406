import { CalendarDays, Filter } from "lucide-react";
import { data, Form, Link, useNavigate } from "react-router";
import { MEETING_TYPES, meetingsQuerySchema, meetingTypeLabel } from "../../../core/meetings/meetings.schema";
import type { Viewer } from "../../../core/meetings/meetings.service";
import { validate } from "../../../lib/validation";
import { MeetingCard } from "../../components/events/meeting-card";
import { PageHero } from "../../components/layout/page-hero";
import { LoadMoreLink } from "../../components/ui/load-more-link";
import { getRequestContext } from "../../context";
import { seoMeta } from "../../lib/seo";
import { useLoadMore } from "../../lib/use-load-more";
import type { Route } from "./+types/index";

/** Type and page live in the URL: shareable, and working without JavaScript. */
/** /events is the public calendar (cached for visitors); members see theirs at /dashboard/events. */
const VISITOR: Viewer = { signedIn: false };

export async function loader({ context, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const input = validate(meetingsQuerySchema, {
    type: url.searchParams.get("type"),
    page: url.searchParams.get("page") ?? undefined,
  });
  if (!input.success) throw data("That filter is not valid: choose a type from the list.", { status: 400 });
  const calendar = await services.meetings.calendar({ type: input.data.type, page: input.data.page }, VISITOR);
  return {
    upcoming: calendar.upcoming,
    moreUpcoming: calendar.more_upcoming,
    page: calendar.past,
    type: input.data.type,
  };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seoMeta({
    matches,
    title: "Events Calendar",
    description:
      "Conferences, technical workshops, working group meetings and webinars of the association: what is coming up and what has taken place.",
    path: "/events",
  });

function query(params: { type: string | null; page?: number }) {
  const search = new URLSearchParams();
  if (params.type) search.set("type", params.type);
  if (params.page && params.page > 1) search.set("page", String(params.page));
  const text = search.toString();
  return text ? `?${text}` : "";
}

function plural(n: number, one: string, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

export default function EventsCalendar({ loaderData }: Route.ComponentProps) {
  const { upcoming, moreUpcoming, page, type } = loaderData;
  const more = useLoadMore(page);
  const navigate = useNavigate();
  const firstPage = page.current_page === 1;
  const kind = type ? meetingTypeLabel(type).toLowerCase() : "event";
  const nextHref = `/events${query({ type, page: more.nextPage })}`;

  return (
    <div>
      <PageHero eyebrow="Meetings" title="Events Calendar">
        <p className="mt-4 max-w-2xl text-lg text-navy-100">
          The Annual Conference, the Annual Technical Workshop, working group meetings and webinars of the association.
        </p>
      </PageHero>
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
        {/* One GET form: without JavaScript the button applies the type; with it, choosing one applies at once. */}
        <Form
          key={type ?? ""}
          method="get"
          role="search"
          aria-label="Filter the events"
          className="flex flex-col gap-3 rounded-xl bg-navy-50 p-4 sm:flex-row sm:items-end"
        >
          <div className="sm:w-72">
            <label htmlFor="events-type" className="field-label">
              Type of event
            </label>
            <select
              id="events-type"
              name="type"
              defaultValue={type ?? ""}
              onChange={(event) => navigate(`/events${query({ type: event.currentTarget.value || null })}`)}
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
          <div className="flex gap-2">
            <button type="submit" className="btn-primary">
              <Filter className="h-4 w-4" aria-hidden="true" />
              Filter
            </button>
            {type ? (
              <Link to="/events" className="btn-outline">
                Clear
              </Link>
            ) : null}
          </div>
          <p className="text-sm text-slate-600 sm:ml-auto sm:self-center" aria-live="polite">
            {firstPage ? `${plural(upcoming.length, `upcoming ${kind}`)} · ` : ""}
            {plural(page.total, `past ${kind}`)}
          </p>
        </Form>

        {firstPage ? (
          <section aria-labelledby="upcoming-title" className="mt-10">
            <h2 id="upcoming-title" className="font-display text-3xl font-bold text-navy-900">
              Upcoming events
            </h2>
            {upcoming.length === 0 ? (
              <div className="mt-6 flex items-start gap-4 rounded-xl border border-dashed border-slate-300 p-6 text-slate-700">
                <CalendarDays className="mt-0.5 h-6 w-6 shrink-0 text-sea-600" aria-hidden="true" />
                <p>
                  No {kind}s are scheduled at the moment. New dates are published here as soon as they are set
                  {page.total > 0 ? "; past ones are listed below." : "."}
                </p>
              </div>
            ) : (
              <ul className="mt-6 space-y-4">
                {upcoming.map((meeting) => (
                  <li key={meeting.id}>
                    <MeetingCard meeting={meeting} />
                  </li>
                ))}
              </ul>
            )}
            {moreUpcoming ? (
              <p className="mt-4 text-sm text-slate-600">
                Only the next {upcoming.length} are shown; choose a type of event to see the others.
              </p>
            ) : null}
          </section>
        ) : (
          <p className="mt-8">
            <Link to={`/events${query({ type })}`} className="text-sm font-semibold text-sea-600 hover:underline">
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
            <ul className="mt-6 space-y-4">
              {more.items.map((meeting) => (
                <li key={meeting.id}>
                  <MeetingCard meeting={meeting} past />
                </li>
              ))}
            </ul>
          )}
          {more.hasMore ? (
            <div className="mt-10 text-center">
              <LoadMoreLink href={nextHref} loading={more.loading} onLoad={more.load} />
            </div>
          ) : null}
        </section>
      </div>
    </div>
  );
}
