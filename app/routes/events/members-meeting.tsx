import { data } from "react-router";
import { viewerOf } from "../../../core/access/access";
import { meetingTypeLabel, meetingUrl } from "../../../core/meetings/meetings.values";
import { isAppError } from "../../../lib/errors";
import { htmlToText } from "../../../lib/html";
import { meetingDescription } from "../../components/events/format";
import { MeetingPage } from "../../components/events/meeting-page";
import { getRequestContext } from "../../context";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import type { Route } from "./+types/members-meeting";
import { meetingView } from "./meeting-view.server";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = SHARED_WHEN_SIGNED_IN;

/** /dashboard/events/{slug}: any meeting a signed-in user may see, members-only ones included. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const ctx = getRequestContext(context);
  try {
    const meeting = await ctx.services.meetings.getBySlug(params.slug, viewerOf(ctx.auth));
    const description = meetingDescription(meeting, htmlToText(meeting.content ?? ""));
    return {
      meeting,
      upcoming: ctx.services.meetings.isUpcoming(meeting),
      view: await meetingView(ctx, meeting, {
        path: meetingUrl(meeting.slug, "members"),
        area: "members",
        description,
      }),
    };
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw data("This page could not be found", { status: 404 });
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `${loaderData?.meeting.title ?? "Meeting"} · Members' events · Masthead` },
  { name: "robots", content: "noindex" },
];

export default function MembersMeeting({ loaderData }: Route.ComponentProps) {
  const { meeting, upcoming, view } = loaderData;
  return (
    <div className="-mx-4 -my-10 sm:-mx-6">
      <MeetingPage
        meeting={meeting}
        view={view}
        eyebrow={meetingTypeLabel(meeting.type)}
        upcoming={upcoming}
        crumb={meeting.title}
        trail={[
          { label: "Members area", to: "/dashboard" },
          { label: "Members' events", to: "/dashboard/events" },
        ]}
        calendarPath="/dashboard/events"
        inlineForm
      />
    </div>
  );
}
