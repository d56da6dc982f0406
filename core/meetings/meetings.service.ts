import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { htmlToText, sanitizeRichText } from "../../lib/html";
import { imageSrcSet } from "../../lib/image-variants";
import { type Page, pageOf } from "../../lib/pagination";
import { uploadUrl } from "../../lib/uploads";
import { type GroupsSeen, seesGroups } from "../access/access";
import { invitationWhen } from "./invitation";
import { type CalendarMeeting, placeOf } from "./meetings.calendar";
import {
  ALL_MEETINGS,
  type Horizon,
  type MeetingsAudience,
  type MeetingsRepository,
  PUBLIC_MEETINGS,
} from "./meetings.repository";
import {
  type FeaturedType,
  MEETINGS_PER_PAGE,
  type Meeting,
  type MeetingImage,
  type MeetingSummary,
  type MeetingsQuery,
  meetingUrl,
  type RegistrationSettings,
  type RegistrationState,
  registrationState,
  type Schedule,
  type Sponsor,
} from "./meetings.schema";

/**
 * A meeting counts as upcoming until its last day is over (UTC). To find the ones
 * under way on the start-date index, only those that began at most this many
 * days ago are considered; a longer event counts as past once that time is up.
 */
export const ONGOING_WINDOW_DAYS = 31;

/** The upcoming list is short by nature; this bounds it all the same. */
export const UPCOMING_LIMIT = 50;

/** A month grid shows at most this many meetings (a month of daily webinars fits). */
const MONTH_LIMIT = 200;

/** The calendar feeds: meetings of the last 12 months and everything to come, bounded. */
const FEED_PAST_DAYS = 366;
const FEED_LIMIT = 1_000;

/**
 * Who is reading: visitors see public meetings only; signed-in users with members' access see
 * members-only ones too (issue 13 'Visibility'), except those for working groups they are not in
 * (issue 36; `groups` from core/access viewerOf, 'all' for admins and editors, none when left out).
 */
export type Viewer = { signedIn: boolean; admin?: boolean; groups?: GroupsSeen };
export const VISITOR: Viewer = { signedIn: false };

/** A meeting as a notice or digest lists it (issue 33). */
export type NoticeMeeting = {
  id: number;
  title: string;
  when: string;
  where: string | null;
  url: string;
  /** The working groups it is for (null: every member, or public): who of the members may hear of it. */
  group_ids: readonly number[] | null;
};

/** The meetings this viewer may see, as the repository filters them. */
function audienceOf(viewer: Viewer): MeetingsAudience {
  if (viewer.admin) return ALL_MEETINGS;
  return viewer.signedIn ? { publicOnly: false, groups: viewer.groups ?? [] } : PUBLIC_MEETINGS;
}

export type Calendar = {
  upcoming: MeetingSummary[];
  /** True when there are more upcoming meetings than UPCOMING_LIMIT. */
  more_upcoming: boolean;
  past: Page<MeetingSummary>;
};

type SummaryRow = Awaited<ReturnType<MeetingsRepository["list"]>>[number];
type ImageRow = Awaited<ReturnType<MeetingsRepository["imagesOf"]>>[number];
type ScheduleRow = Awaited<ReturnType<MeetingsRepository["schedulesOf"]>>[number];
type FullRow = NonNullable<Awaited<ReturnType<MeetingsRepository["findBySlug"]>>>;

export function toMeetingImage(
  row: Pick<ImageRow, "id" | "path" | "width" | "height" | "alt" | "decorative">,
): MeetingImage {
  return {
    id: row.id,
    url: uploadUrl(row.path),
    srcset: imageSrcSet(row.path),
    width: row.width,
    height: row.height,
    alt: row.decorative ? "" : row.alt,
    decorative: Boolean(row.decorative),
  };
}

export function toSchedule(s: ScheduleRow): Schedule {
  return {
    id: s.id,
    event_id: s.event_id,
    meeting_date: s.meeting_date,
    is_evening: Boolean(s.is_evening),
    start: s.start,
    finish: s.finish,
    meeting_date_info: s.meeting_date_info,
    description: s.description,
  };
}

/** Sponsor links open another site: only absolute http(s) addresses are kept. */
function safeLink(link: string | null): string | null {
  if (!link) return null;
  try {
    const url = new URL(link.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

export function toSponsor(s: { id: number; name: string; link: string | null; image: string | null }): Sponsor {
  return { id: s.id, name: s.name, link: safeLink(s.link), image: s.image ? uploadUrl(s.image) : null };
}

/** Rich text as stored and shown: sanitized, null when it shows nothing. */
export const richText = (html: string | null) => {
  const clean = html ? sanitizeRichText(html).trim() : "";
  return clean || null;
};

/** The fields a list and a whole meeting share. */
function common(row: SummaryRow): Omit<MeetingSummary, "image"> {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    type: row.type,
    meeting_type: row.meeting_type,
    organization: row.organization,
    start_date: row.start_date,
    end_date: row.end_date,
    location: row.location,
    content_title: row.content_title,
    timezone: row.timezone,
    visibility: row.visibility,
  };
}

export function toMeetingSummary(row: SummaryRow, image: ImageRow | undefined): MeetingSummary {
  return { ...common(row), image: image ? toMeetingImage(image) : null };
}

export function registrationSettingsOf(
  row: Pick<
    FullRow,
    "registration_open" | "registration_closes_on" | "capacity" | "registration_auto_confirm" | "registration_waitlist"
  >,
) {
  return {
    open: row.registration_open === 1,
    closes_on: row.registration_closes_on,
    capacity: row.capacity,
    auto_confirm: row.registration_auto_confirm === 1,
    waitlist: row.registration_waitlist === 1,
  } satisfies RegistrationSettings;
}

/** Whether an online meeting: webinars, and meetings whose location or kind says so. */
export function isOnline(meeting: Pick<MeetingSummary, "type" | "meeting_type" | "location">): boolean {
  if (meeting.type === "webinar") return true;
  return /\b(online|virtual|webinar)\b/i.test(`${meeting.meeting_type ?? ""} ${meeting.location ?? ""}`);
}

/** A meeting as the calendar files describe it; `html` is its sanitized text, written out as plain text. */
function toCalendarMeeting(
  meeting: Pick<
    FullRow,
    "id" | "slug" | "title" | "type" | "meeting_type" | "start_date" | "end_date" | "timezone" | "location"
  > & { sequence: number; updated_at: string },
  html: string | null,
  schedules: Schedule[],
  url: string,
): CalendarMeeting {
  return {
    id: meeting.id,
    slug: meeting.slug,
    title: meeting.title,
    type: meeting.type,
    start_date: meeting.start_date,
    end_date: meeting.end_date,
    timezone: meeting.timezone,
    location: meeting.location,
    online: isOnline(meeting),
    description: htmlToText(html ?? "") || null,
    url,
    sequence: meeting.sequence,
    updated_at: meeting.updated_at,
    schedules,
  };
}

/**
 * A stored meeting with its programme as a calendar invitation describes it: its text, and its page
 * in the area its visibility says. Pure, so that a write can read the rows in its own transaction.
 */
export function calendarOfRow(row: FullRow, schedules: ScheduleRow[], origin: string): CalendarMeeting {
  const area = row.visibility === "members" ? "members" : "public";
  return toCalendarMeeting(
    row,
    richText(row.content) ?? richText(row.information),
    schedules.map(toSchedule),
    `${origin}${meetingUrl(row.slug, area)}`,
  );
}

/** Meetings as visitors and members read them (SPEC §3 'Meeting/event', §7 'Meetings'). */
export function createMeetingsService(deps: { repository: MeetingsRepository; clock: Clock }) {
  const { repository, clock } = deps;

  function horizon(): Horizon {
    const now = clock();
    const day = 86_400_000;
    return {
      today: now.toISOString().slice(0, 10),
      earliestStart: new Date(now.getTime() - ONGOING_WINDOW_DAYS * day).toISOString().slice(0, 10),
    };
  }

  /** Summaries with their first image: one query for the images of the whole list. */
  async function withImages(rows: SummaryRow[]): Promise<MeetingSummary[]> {
    const images = await repository.imagesOf(rows.map((r) => r.id));
    const first = new Map<number, ImageRow>();
    for (const image of images) if (!first.has(image.meeting_id)) first.set(image.meeting_id, image);
    return rows.map((row) => toMeetingSummary(row, first.get(row.id)));
  }

  async function full(row: FullRow): Promise<Meeting> {
    const [images, schedules, sponsors, groups] = await Promise.all([
      repository.imagesOf([row.id]),
      repository.schedulesOf([row.id]),
      repository.sponsorsOf(row.id),
      row.visibility === "members" ? repository.groupsOf(row.id) : Promise.resolve([]),
    ]);
    return {
      // Its images are all in `images`: no `image` of the list's.
      ...common(row),
      information: richText(row.information),
      health: richText(row.health),
      registration: richText(row.registration),
      content: richText(row.content),
      images: images.map(toMeetingImage),
      schedules: schedules.map(toSchedule),
      sponsors: sponsors.map(toSponsor),
      registration_settings: registrationSettingsOf(row),
      audience: row.visibility === "public" ? "public" : groups.length > 0 ? "groups" : "members",
      group_ids: groups,
      sequence: row.sequence,
      updated_at: row.updated_at,
    };
  }

  /** The next meeting of a type not yet over, else the most recent past one (public meetings only). */
  async function featuredSummary(type: FeaturedType) {
    const h = horizon();
    const [next] = await repository.upcoming(type, h, 1, PUBLIC_MEETINGS);
    return next ?? (await repository.past(type, h, 0, 1, PUBLIC_MEETINGS))[0];
  }

  const paged = <T>(data: T[], page: number, total: number): Page<T> => pageOf(data, page, MEETINGS_PER_PAGE, total);

  /** Whether this viewer may see this meeting: public; members'; or for a group of theirs. */
  async function maySee(row: { id: number; visibility: string }, viewer: Viewer): Promise<boolean> {
    if (row.visibility === "public" || viewer.admin) return true;
    if (!viewer.signedIn) return false;
    return seesGroups(viewer, await repository.groupsOf(row.id));
  }

  /** A meeting by slug as this viewer may see it; a members-only one is not found for visitors, nor a group's for others. */
  async function visibleBySlug(slug: string, viewer: Viewer) {
    const row = slug.length <= 200 ? await repository.findBySlug(slug) : undefined;
    if (!row || !(await maySee(row, viewer))) return undefined;
    return row;
  }

  return {
    /** SPEC §7 'GET /meetings': calendar order, type and start date (on or after) when set. */
    async list(query: MeetingsQuery, viewer: Viewer): Promise<Page<MeetingSummary>> {
      const filter = { type: query.type, from: query.start_date, audience: audienceOf(viewer) };
      const [rows, total] = await Promise.all([
        repository.list(filter, (query.page - 1) * MEETINGS_PER_PAGE, MEETINGS_PER_PAGE),
        repository.count(filter),
      ]);
      return paged(await withImages(rows), query.page, total);
    },

    /**
     * The events calendar: meetings not yet over (soonest first) and a page of
     * past ones (most recent first). Later pages carry only the past list.
     */
    async calendar(query: { type: string | null; page: number }, viewer: Viewer): Promise<Calendar> {
      const h = horizon();
      const audience = audienceOf(viewer);
      const offset = (query.page - 1) * MEETINGS_PER_PAGE;
      const [upcomingRows, pastRows, pastTotal] = await Promise.all([
        query.page === 1 ? repository.upcoming(query.type, h, UPCOMING_LIMIT + 1, audience) : Promise.resolve([]),
        repository.past(query.type, h, offset, MEETINGS_PER_PAGE, audience),
        repository.countPast(query.type, h, audience),
      ]);
      const [upcoming, past] = await Promise.all([
        withImages(upcomingRows.slice(0, UPCOMING_LIMIT)),
        withImages(pastRows),
      ]);

      return {
        upcoming,
        more_upcoming: upcomingRows.length > UPCOMING_LIMIT,
        past: paged(past, query.page, pastTotal),
      };
    },

    /**
     * The meetings on a month's grid (YYYY-MM): those starting in it, and those that began up to
     * a month before and run into it, in calendar order.
     */
    async month(month: string, type: string | null, viewer: Viewer): Promise<MeetingSummary[]> {
      const first = `${month}-01`;
      const [y, m] = month.split("-").map(Number);
      const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
      const earlier = new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 10);
      const rows = await repository.between(earlier, next, audienceOf(viewer), MONTH_LIMIT);
      const inMonth = rows.filter((row) => (row.end_date ?? row.start_date) >= first && (!type || row.type === type));
      return withImages(inMonth);
    },

    /** A working group's meetings not yet over, soonest first (its page, issue 36). */
    async groupMeetings(groupId: number, limit: number) {
      const rows = await repository.upcomingForGroup(groupId, horizon(), limit);
      return rows.map((row) => ({
        id: row.id,
        title: row.title,
        slug: row.slug,
        start_date: row.start_date,
        end_date: row.end_date,
        location: row.location,
        url: meetingUrl(row.slug, "members"),
      }));
    },

    /** How many meetings are not yet over, for the admin home. */
    countUpcoming: () => repository.countUpcoming(horizon()),

    /** The next public meetings, for the home page. */
    async upcoming(limit = 3): Promise<MeetingSummary[]> {
      return withImages(await repository.upcoming(null, horizon(), limit, PUBLIC_MEETINGS));
    },

    /**
     * What /conference and /workshop show: the next public meeting of that type not yet
     * over, else the most recent past one; null when there is none at all.
     */
    async featured(type: FeaturedType): Promise<Meeting | null> {
      const chosen = await featuredSummary(type);
      if (!chosen) return null;
      const row = await repository.findBySlug(chosen.slug);
      return row ? full(row) : null;
    },

    /**
     * The meeting a registration sent from this page is for: /conference, /workshop,
     * /events/{slug} or, for signed-in users, /dashboard/events/{slug}; with what decides
     * whether it still takes registrations.
     */
    async forRegistrationPath(
      pagePath: string,
      viewer: Viewer,
    ): Promise<
      | {
          id: number;
          title: string;
          registration_settings: RegistrationSettings;
          start_date: string;
          end_date: string | null;
          timezone: string;
        }
      | "members-only"
      | null
    > {
      const featuredType = pagePath === "/conference" ? "conference" : pagePath === "/workshop" ? "workshop" : null;
      let row: FullRow | undefined;
      if (featuredType) {
        const chosen = await featuredSummary(featuredType);
        row = chosen ? await repository.findBySlug(chosen.slug) : undefined;
      } else {
        const slug = /^\/(?:dashboard\/)?events\/([^/?#]{1,200})$/.exec(pagePath)?.[1];
        row = slug && slug.length <= 200 ? await repository.findBySlug(slug) : undefined;
        // Its page is a 404 to this sender: so is registering for it (issue 32), and for a group's
        // meeting to those outside the group (issue 36).
        if (row && !(await maySee(row, viewer))) return "members-only";
      }
      if (!row) return null;
      return {
        id: row.id,
        title: row.title,
        registration_settings: registrationSettingsOf(row),
        start_date: row.start_date,
        end_date: row.end_date,
        timezone: row.timezone,
      };
    },

    /** A stored row as a whole meeting (the admin service's answer after a write, without reading the row again). */
    whole: full,

    async getBySlug(slug: string, viewer: Viewer): Promise<Meeting> {
      const row = await visibleBySlug(slug, viewer);
      if (!row) throw new AppError("not_found", "Meeting not found.");
      return full(row);
    },

    /** Whether a meeting is still to come or under way on the service's clock (same rule as the calendar). */
    isUpcoming(meeting: Pick<MeetingSummary, "start_date" | "end_date">): boolean {
      const h = horizon();
      return meeting.start_date >= h.earliestStart && (meeting.end_date ?? meeting.start_date) >= h.today;
    },

    registrationState(meeting: Parameters<typeof registrationState>[0], registrations: number): RegistrationState {
      return registrationState(meeting, registrations, clock());
    },

    /** A meeting as the calendar files describe it (absolute URL from the site's origin). */
    calendarEntry(meeting: Meeting, origin: string, area: "public" | "members" = "public"): CalendarMeeting {
      const html = meeting.content ?? meeting.information;
      return toCalendarMeeting(meeting, html, meeting.schedules, `${origin}${meetingUrl(meeting.slug, area)}`);
    },

    /**
     * A meeting as a notice or digest lists it (issue 33), read when it is sent: null when it is
     * gone or this viewer may not see it.
     */
    async noticeMeeting(meetingId: number, viewer: Viewer, origin: string): Promise<NoticeMeeting | null> {
      const row = await repository.findById(meetingId);
      if (!row || !(await maySee(row, viewer))) return null;
      const meeting = calendarOfRow(row, await repository.schedulesOf([row.id]), origin);
      const groups = row.visibility === "members" ? await repository.groupsOf(row.id) : [];
      return {
        id: row.id,
        title: row.title,
        when: invitationWhen(meeting),
        where: placeOf(meeting),
        url: meeting.url,
        group_ids: groups.length > 0 ? groups : null,
      };
    },

    /** A meeting by its id as a calendar invitation describes it (its page in the area its visibility says), or null. */
    async invitationEntry(meetingId: number, origin: string): Promise<CalendarMeeting | null> {
      const row = await repository.findById(meetingId);
      if (!row) return null;
      return calendarOfRow(row, await repository.schedulesOf([row.id]), origin);
    },

    /** The meetings of a calendar feed: the last 12 months and everything to come, for this viewer. */
    async feedEntries(viewer: Viewer, origin: string): Promise<CalendarMeeting[]> {
      const now = clock();
      const from = new Date(now.getTime() - FEED_PAST_DAYS * 86_400_000).toISOString().slice(0, 10);
      const rows = await repository.between(from, "9999-12-31", audienceOf(viewer), FEED_LIMIT);
      const schedules = await repository.schedulesOf(rows.map((r) => r.id));
      // Not Map.groupBy: Node 20 has none.
      const byMeeting = new Map<number, ScheduleRow[]>();
      for (const s of schedules) byMeeting.set(s.event_id, [...(byMeeting.get(s.event_id) ?? []), s]);
      const area = viewer.signedIn ? "members" : "public";
      return rows.map((row) =>
        toCalendarMeeting(
          row,
          richText(row.content) ?? richText(row.information),
          (byMeeting.get(row.id) ?? []).map(toSchedule),
          `${origin}${meetingUrl(row.slug, area)}`,
        ),
      );
    },

    async sitemapEntries() {
      return repository.allForSitemap();
    },
  };
}
export type MeetingsService = ReturnType<typeof createMeetingsService>;
