import { data, redirect } from "react-router";
import { viewerOf } from "../../../core/access/access";
import { meetingTypeLabel, meetingUrl } from "../../../core/meetings/meetings.values";
import { isAppError } from "../../../lib/errors";
import { htmlToText } from "../../../lib/html";
import { meetingDescription } from "../../components/events/format";
import { MeetingPage } from "../../components/events/meeting-page";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import type { Route } from "./+types/meeting";
import { meetingView } from "./meeting-view.server";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = { ...SHARED_WHEN_SIGNED_IN, ...SERVED_AS_ISLANDS };

export async function loader({ context, params }: Route.LoaderArgs) {
  const ctx = getRequestContext(context);
  try {
    // Visitors (and lapsed members) never learn a members-only meeting exists (404); a member is sent to its members' page.
    const meeting = await ctx.services.meetings.getBySlug(params.slug, viewerOf(ctx.auth));
    if (meeting.visibility === "members") return redirect(meetingUrl(meeting.slug, "members"));
    const description = meetingDescription(meeting, htmlToText(meeting.content ?? ""));
    return {
      meeting,
      upcoming: ctx.services.meetings.isUpcoming(meeting),
      description,
      view: await meetingView(ctx, meeting, { path: meetingUrl(meeting.slug), area: "public", description }),
    };
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw data("This page could not be found", { status: 404 });
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  if (!loaderData) return [];
  const { meeting, description } = loaderData;
  return [
    ...seoMeta({
      matches,
      title: meeting.title,
      description,
      path: `/events/${meeting.slug}`,
      image: meeting.images[0]?.url,
      imageAlt: meeting.images[0]?.alt,
    }),
  ];
};

/** Any meeting of the calendar, on the same page as the conference and the workshop. */
export default function MeetingDetail({ loaderData }: Route.ComponentProps) {
  const { meeting, upcoming, view } = loaderData;
  return (
    <MeetingPage
      meeting={meeting}
      view={view}
      eyebrow={meetingTypeLabel(meeting.type)}
      upcoming={upcoming}
      crumb={meeting.title}
    />
  );
}
