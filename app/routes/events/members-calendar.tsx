import { viewerOf } from "../../../core/access/access";
import { meetingUrl } from "../../../core/meetings/meetings.values";
import { CalendarView } from "../../components/events/calendar-view";
import { MyRegistrationsSection } from "../../components/events/my-registrations";
import { Breadcrumbs } from "../../components/ui/breadcrumbs";
import { getRequestContext } from "../../context";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import type { Route } from "./+types/members-calendar";
import { loadCalendar } from "./calendar.server";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = SHARED_WHEN_SIGNED_IN;

/**
 * /dashboard/events: the members' calendar, every meeting a signed-in user may see (members-only
 * ones too, marked so), with the public calendar's views and filters. The member layout guards it.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = getRequestContext(context);
  return loadCalendar(ctx, url, viewerOf(ctx.auth));
}

export const meta: Route.MetaFunction = () => [{ title: "Members' events · Masthead" }];

const meetingHref = (slug: string) => meetingUrl(slug, "members");

export default function MembersCalendar({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <Breadcrumbs trail={[{ label: "Members area", to: "/dashboard" }]} current="Members' events" />
      <p className="mt-6 text-sm font-semibold tracking-wide text-sea-600 uppercase">Members area</p>
      <h1 className="mt-2 font-display text-4xl font-bold text-navy-900">Members' events</h1>
      <p className="mt-3 max-w-2xl text-slate-600">
        Every meeting of the association, with the working group and board meetings open to members only.
      </p>
      <MyRegistrationsSection className="mt-8 max-w-3xl" />
      <CalendarView
        data={loaderData}
        base="/dashboard/events"
        meetingHref={meetingHref}
        // The members area is tinted already: the filter panel stands out in white.
        className="mt-8 [&_form[role=search]]:bg-white"
      />
    </div>
  );
}
