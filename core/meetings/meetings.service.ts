import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { sanitizeRichText } from "../../lib/html";
import { imageSrcSet } from "../../lib/image-variants";
import { type Page, pageOf } from "../../lib/pagination";
import { uploadUrl } from "../../lib/uploads";
import type { Horizon, MeetingsRepository } from "./meetings.repository";
import {
  type FeaturedType,
  MEETINGS_PER_PAGE,
  type Meeting,
  type MeetingImage,
  type MeetingSummary,
  type MeetingsQuery,
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

export type Calendar = {
  upcoming: MeetingSummary[];
  /** True when there are more upcoming meetings than UPCOMING_LIMIT. */
  more_upcoming: boolean;
  past: Page<MeetingSummary>;
};

type SummaryRow = Awaited<ReturnType<MeetingsRepository["list"]>>[number];
type ImageRow = Awaited<ReturnType<MeetingsRepository["imagesOf"]>>[number];
type FullRow = NonNullable<Awaited<ReturnType<MeetingsRepository["findBySlug"]>>>;

function toImage(row: ImageRow): MeetingImage {
  return {
    id: row.id,
    url: uploadUrl(row.path),
    srcset: imageSrcSet(row.path),
    width: row.width,
    height: row.height,
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

const richText = (html: string | null) => {
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
  };
}

function summary(row: SummaryRow, image: ImageRow | undefined): MeetingSummary {
  return { ...common(row), image: image ? toImage(image) : null };
}

/** Meetings as visitors read them (SPEC §3 'Meeting/event', §7 'Meetings'). Admin writes come later. */
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
    return rows.map((row) => summary(row, first.get(row.id)));
  }

  async function full(row: FullRow): Promise<Meeting> {
    const [images, schedules, sponsors] = await Promise.all([
      repository.imagesOf([row.id]),
      repository.schedulesOf(row.id),
      repository.sponsorsOf(row.id),
    ]);
    return {
      // Its images are all in `images`: no `image` of the list's.
      ...common(row),
      information: richText(row.information),
      health: richText(row.health),
      registration: richText(row.registration),
      content: richText(row.content),
      images: images.map(toImage),
      schedules: schedules.map(
        (s): Schedule => ({
          id: s.id,
          event_id: s.event_id,
          meeting_date: s.meeting_date,
          is_evening: Boolean(s.is_evening),
          start: s.start,
          finish: s.finish,
          meeting_date_info: s.meeting_date_info,
          description: s.description,
        }),
      ),
      sponsors: sponsors.map(
        (s): Sponsor => ({
          id: s.id,
          name: s.name,
          link: safeLink(s.link),
          image: s.image ? uploadUrl(s.image) : null,
        }),
      ),
    };
  }

  /** The next meeting of a type not yet over, else the most recent past one. */
  async function featuredSummary(type: FeaturedType) {
    const h = horizon();
    const [next] = await repository.upcoming(type, h, 1);
    return next ?? (await repository.past(type, h, 0, 1))[0];
  }

  const paged = <T>(data: T[], page: number, total: number): Page<T> => pageOf(data, page, MEETINGS_PER_PAGE, total);

  return {
    /** SPEC §7 'GET /meetings': calendar order, type and start date (on or after) when set. */
    async list(query: MeetingsQuery): Promise<Page<MeetingSummary>> {
      const filter = { type: query.type, from: query.start_date };
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
    async calendar(query: { type: string | null; page: number }): Promise<Calendar> {
      const h = horizon();
      const offset = (query.page - 1) * MEETINGS_PER_PAGE;
      const [upcomingRows, pastRows, pastTotal] = await Promise.all([
        query.page === 1 ? repository.upcoming(query.type, h, UPCOMING_LIMIT + 1) : Promise.resolve([]),
        repository.past(query.type, h, offset, MEETINGS_PER_PAGE),
        repository.countPast(query.type, h),
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

    /** The next meetings, for the home page. */
    /** How many meetings are not yet over, for the admin home. */
    countUpcoming: () => repository.countUpcoming(horizon()),

    async upcoming(limit = 3): Promise<MeetingSummary[]> {
      return withImages(await repository.upcoming(null, horizon(), limit));
    },

    /**
     * What /conference and /workshop show: the next meeting of that type not yet
     * over, else the most recent past one; null when there is none at all.
     */
    async featured(type: FeaturedType): Promise<Meeting | null> {
      const chosen = await featuredSummary(type);
      if (!chosen) return null;
      const row = await repository.findBySlug(chosen.slug);
      return row ? full(row) : null;
    },

    /** The meeting a registration sent from this page is for: /conference, /workshop or /events/{slug}. */
    async forRegistrationPath(pagePath: string): Promise<{ id: number; title: string } | null> {
      const featuredType = pagePath === "/conference" ? "conference" : pagePath === "/workshop" ? "workshop" : null;
      if (featuredType) {
        // Only which meeting: not its images, programme and sponsors.
        const chosen = await featuredSummary(featuredType);
        return chosen ? { id: chosen.id, title: chosen.title } : null;
      }
      const slug = /^\/events\/([^/?#]{1,200})$/.exec(pagePath)?.[1];
      const row = slug ? await repository.findBySlug(slug) : undefined;
      return row ? { id: row.id, title: row.title } : null;
    },

    async getBySlug(slug: string): Promise<Meeting> {
      const row = slug.length <= 200 ? await repository.findBySlug(slug) : undefined;
      if (!row) throw new AppError("not_found", "Meeting not found.");
      return full(row);
    },

    /** Whether a meeting is still to come or under way on the service's clock (same rule as the calendar). */
    isUpcoming(meeting: Pick<MeetingSummary, "start_date" | "end_date">): boolean {
      const h = horizon();
      return meeting.start_date >= h.earliestStart && (meeting.end_date ?? meeting.start_date) >= h.today;
    },

    async sitemapEntries() {
      return repository.allForSitemap();
    },
  };
}
export type MeetingsService = ReturnType<typeof createMeetingsService>;
