import { CalendarDays } from "lucide-react";
import { Link } from "react-router";
import { FEATURED_PAGES, type FeaturedType } from "../../../core/meetings/meetings.values";
import { htmlToText } from "../../../lib/html";
import { meetingDescription } from "../../components/events/format";
import { MeetingPage } from "../../components/events/meeting-page";
import { PageHero } from "../../components/layout/page-hero";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import type { Route } from "./+types/featured";
import { meetingView } from "./meeting-view.server";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = { ...SHARED_WHEN_SIGNED_IN, ...SERVED_AS_ISLANDS };

/** /conference and /workshop: the next edition of that type, else the most recent one (decision 0007). */
export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = getRequestContext(context);
  const type: FeaturedType = url.pathname.startsWith("/workshop") ? "workshop" : "conference";
  const meeting = await ctx.services.meetings.featured(type);
  const page = FEATURED_PAGES[type];
  const description = meeting
    ? meetingDescription(meeting, htmlToText(meeting.content ?? ""))
    : `The ${page.title} of the association: dates, programme and registration.`;
  return {
    page,
    meeting,
    upcoming: meeting ? ctx.services.meetings.isUpcoming(meeting) : false,
    description,
    view: meeting ? await meetingView(ctx, meeting, { path: page.path, area: "public", description }) : null,
  };
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  if (!loaderData) return [];
  const { page, meeting, description } = loaderData;
  return [
    ...seoMeta({
      matches,
      title: meeting?.title ?? page.title,
      description,
      path: page.path,
      image: meeting?.images[0]?.url,
      imageAlt: meeting?.images[0]?.alt,
    }),
  ];
};

export default function FeaturedMeeting({ loaderData }: Route.ComponentProps) {
  const { page, meeting, upcoming, view } = loaderData;
  if (!meeting || !view) {
    return (
      <div>
        <PageHero eyebrow="Meetings" title={page.title} />
        <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
          <div className="flex max-w-2xl items-start gap-4 rounded-xl border border-dashed border-slate-300 p-8">
            <CalendarDays className="mt-1 h-7 w-7 shrink-0 text-sea-600" aria-hidden="true" />
            <div>
              <h2 className="font-display text-2xl font-bold text-navy-900">Dates to be announced</h2>
              <p className="mt-2 text-slate-700">
                The next {page.title} has not been announced yet. Its dates, programme and registration will appear on
                this page as soon as they are set.
              </p>
              <div className="mt-6 flex flex-wrap gap-3">
                <Link to="/events" className="btn-primary">
                  See the Events Calendar
                </Link>
                <a href="#contact-us" className="btn-outline">
                  Contact the secretariat
                </a>
              </div>
            </div>
          </div>
        </div>
      </div>
    );
  }
  return <MeetingPage meeting={meeting} view={view} eyebrow={page.title} upcoming={upcoming} crumb={page.title} />;
}
