import { ArrowRight, CalendarDays } from "lucide-react";
import { Link } from "react-router";
import type { MeetingSummary } from "../../../core/meetings/meetings.schema";
import { FEATURED_PAGES } from "../../../core/meetings/meetings.values";
import { formatDateRange } from "./format";
import { FormatLabel, LocationLabel, TypeBadge } from "./meeting-badges";
import { DateTile } from "./meeting-card";
import { MeetingPicture } from "./meeting-picture";

/**
 * Where a listed meeting leads: the soonest conference and workshop are the ones
 * /conference and /workshop feature (same rule, same order), so they go there.
 */
function hrefs(meetings: MeetingSummary[]): string[] {
  const featured = new Set<string>();
  return meetings.map((m) => {
    const page = FEATURED_PAGES[m.type as keyof typeof FEATURED_PAGES];
    if (page && !featured.has(m.type)) {
      featured.add(m.type);
      return page.path;
    }
    return `/events/${m.slug}`;
  });
}

/** The home page's next meetings; a pointer to the calendar when none are scheduled. */
export function UpcomingMeetings({ meetings }: { meetings: MeetingSummary[] }) {
  const links = hrefs(meetings);
  return (
    <section aria-labelledby="upcoming-meetings" className="bg-white">
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <h2 id="upcoming-meetings" className="font-display text-3xl font-bold text-navy-900">
            Upcoming meetings
          </h2>
          <Link to="/events" className="text-sm font-semibold text-sea-600 hover:underline">
            Events Calendar
          </Link>
        </div>
        {meetings.length === 0 ? (
          <p className="mt-8 flex items-start gap-3 rounded-xl border border-dashed border-slate-300 p-6 text-slate-700">
            <CalendarDays className="mt-0.5 h-5 w-5 shrink-0 text-sea-600" aria-hidden="true" />
            <span>
              No meetings are scheduled at the moment. Past conferences, workshops and webinars are in the{" "}
              <Link to="/events" className="font-semibold text-sea-600 underline underline-offset-2">
                Events Calendar
              </Link>
              .
            </span>
          </p>
        ) : (
          <ul className="mt-8 grid gap-6 md:grid-cols-3">
            {meetings.map((meeting, i) => (
              <li key={meeting.id}>
                <article className="group relative flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white transition hover:shadow-lg">
                  <div className="relative aspect-[16/10] overflow-hidden bg-gradient-to-br from-navy-900 to-navy-700">
                    {meeting.image ? (
                      <MeetingPicture
                        image={meeting.image}
                        sizes="(min-width: 1040px) 400px, 100vw"
                        className="h-full w-full object-cover transition duration-300 group-hover:scale-[1.02]"
                      />
                    ) : null}
                    <div className="absolute top-3 left-3">
                      <DateTile date={meeting.start_date} />
                    </div>
                  </div>
                  <div className="flex flex-1 flex-col p-5">
                    <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
                      <TypeBadge type={meeting.type} />
                      <FormatLabel format={meeting.meeting_type} className="text-sm text-slate-600" />
                    </div>
                    <h3 className="mt-3 text-lg leading-snug font-semibold text-navy-900">
                      <Link to={links[i]} className="after:absolute after:inset-0 group-hover:underline">
                        {meeting.title}
                      </Link>
                    </h3>
                    <p className="mt-2 text-sm font-semibold text-navy-900">
                      <time dateTime={meeting.start_date}>{formatDateRange(meeting.start_date, meeting.end_date)}</time>
                    </p>
                    <LocationLabel location={meeting.location} className="mt-1 text-sm text-slate-600" />
                    <span className="mt-auto inline-flex items-center gap-1 pt-4 text-sm font-semibold text-sea-600">
                      Details
                      <ArrowRight className="h-4 w-4" aria-hidden="true" />
                    </span>
                  </div>
                </article>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
