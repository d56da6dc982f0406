import type { Viewer } from "../../../core/meetings/meetings.service";
import { CalendarView } from "../../components/events/calendar-view";
import { PageHero } from "../../components/layout/page-hero";
import { FollowButton } from "../../components/notifications/follow-button";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import type { Route } from "./+types/index";
import { loadCalendar } from "./calendar.server";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = { ...SHARED_WHEN_SIGNED_IN, ...SERVED_AS_ISLANDS };

/** /events is the public calendar (cached for visitors); members see theirs at /dashboard/events. */
const VISITOR: Viewer = { signedIn: false };

export async function loader({ context, url }: Route.LoaderArgs) {
  return loadCalendar(getRequestContext(context), url, VISITOR);
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seoMeta({
    matches,
    title: "Events Calendar",
    description:
      "Conferences, technical workshops, working group meetings and webinars of the association: what is coming up and what has taken place.",
    path: "/events",
  });

const meetingHref = (slug: string) => `/events/${slug}`;

export default function EventsCalendar({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <PageHero eyebrow="Meetings" title="Events Calendar">
        <p className="mt-4 max-w-2xl text-lg text-navy-100">
          The Annual Conference, the Annual Technical Workshop, working group meetings and webinars of the association.
        </p>
      </PageHero>
      <div className="mx-auto flex max-w-7xl justify-end px-4 pt-6 sm:px-6">
        <FollowButton kind="meetings" name="the meetings" delivery="digest" label="Follow the meetings" />
      </div>
      <CalendarView data={loaderData} base="/events" meetingHref={meetingHref} />
    </div>
  );
}
