import { data } from "react-router";
import { meetingTypeLabel } from "../../../core/meetings/meetings.schema";
import { isAppError } from "../../../lib/errors";
import { htmlToText } from "../../../lib/html";
import { meetingDescription } from "../../components/events/format";
import { MeetingPage } from "../../components/events/meeting-page";
import { getRequestContext } from "../../context";
import { seoMeta } from "../../lib/seo";
import type { Route } from "./+types/meeting";

export async function loader({ context, params }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  try {
    const meeting = await services.meetings.getBySlug(params.slug);
    return {
      meeting,
      upcoming: services.meetings.isUpcoming(meeting),
      description: meetingDescription(meeting, htmlToText(meeting.content ?? "")),
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
    }),
  ];
};

/** Any meeting of the calendar, on the same page as the conference and the workshop. */
export default function MeetingDetail({ loaderData }: Route.ComponentProps) {
  const { meeting, upcoming } = loaderData;
  return (
    <MeetingPage meeting={meeting} eyebrow={meetingTypeLabel(meeting.type)} upcoming={upcoming} crumb={meeting.title} />
  );
}
