import { Link } from "react-router";
import type { MeetingSummary } from "../../../core/meetings/meetings.schema";
import { dateTile, formatDateRange } from "./format";
import { FormatLabel, LocationLabel, MembersOnlyBadge, TypeBadge } from "./meeting-badges";
import { MeetingPicture } from "./meeting-picture";

/** The start day as a calendar leaf; the full range is read from the text beside it. */
export function DateTile({ date, muted = false }: { date: string; muted?: boolean }) {
  const tile = dateTile(date);
  return (
    <div
      aria-hidden="true"
      className={`date-tile ${muted ? "border-slate-200 bg-white" : "border-navy-900/10 bg-white shadow-sm"}`}
    >
      <span className={`date-tile-month ${muted ? "bg-slate-200 text-slate-700" : "bg-navy-900 text-white"}`}>
        {tile.month}
      </span>
      <span className="date-tile-day">{tile.day}</span>
      <span className="date-tile-year">{tile.year}</span>
    </div>
  );
}

/**
 * A meeting in a list: calendar leaf, title linking to the meeting, type and
 * format, dates and place, and its picture from the wider screens up.
 */
export function MeetingCard({
  meeting,
  href = `/events/${meeting.slug}`,
  headingLevel = 3,
  past = false,
}: {
  meeting: MeetingSummary;
  href?: string;
  headingLevel?: 2 | 3;
  past?: boolean;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="group meeting-card">
      <DateTile date={meeting.start_date} muted={past} />
      <div className="min-w-0 flex-1">
        <div className="meeting-card-tags">
          <TypeBadge type={meeting.type} />
          {meeting.visibility === "members" ? <MembersOnlyBadge /> : null}
          <FormatLabel format={meeting.meeting_type} className="text-sm text-slate-600" />
        </div>
        <Heading className="meeting-card-title">
          <Link to={href} className="meeting-card-link">
            {meeting.title}
          </Link>
        </Heading>
        {meeting.content_title ? (
          <p className="mt-1 line-clamp-2 text-sm text-slate-600">{meeting.content_title}</p>
        ) : null}
        <p className="meeting-card-when">
          <time dateTime={meeting.start_date} className="font-semibold text-navy-900">
            {formatDateRange(meeting.start_date, meeting.end_date)}
          </time>
          <LocationLabel location={meeting.location} />
        </p>
      </div>
      {meeting.image ? (
        <div className="hidden w-44 shrink-0 overflow-hidden rounded-lg bg-navy-100 md:block">
          <MeetingPicture
            image={meeting.image}
            sizes="176px"
            className="h-full w-full object-cover transition duration-300 group-hover:scale-[1.03]"
          />
        </div>
      ) : null}
    </article>
  );
}
