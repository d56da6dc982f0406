import type { ExpressionBuilder, Kysely } from "kysely";
import type { Database } from "../../db/types";

const SUMMARY = [
  "id",
  "slug",
  "title",
  "type",
  "meeting_type",
  "organization",
  "start_date",
  "end_date",
  "location",
  "content_title",
] as const;

/** Dates are YYYY-MM-DD text on both dialects, so they compare as strings. */
export type MeetingsFilter = { type?: string | null; from?: string | null };

/**
 * Which meetings count as not yet over on `today`: those ending today or later,
 * looked for among those starting on or after `earliestStart`, so that the
 * search is a range on the start-date index rather than a walk of the table.
 */
export type Horizon = { today: string; earliestStart: string };

type Eb = ExpressionBuilder<Database, "meetings">;
const endOf = (eb: Eb) => eb.fn.coalesce("end_date", "start_date");

export function createMeetingsRepository(db: Kysely<Database>) {
  function filtered(filter: MeetingsFilter) {
    let query = db.selectFrom("meetings");
    // (type, start_date, id) or (start_date, id): equality first, then the range.
    if (filter.type) query = query.where("type", "=", filter.type);
    if (filter.from) query = query.where("start_date", ">=", filter.from);
    return query;
  }

  function notOver(type: string | null | undefined, horizon: Horizon) {
    let query = db
      .selectFrom("meetings")
      .where("start_date", ">=", horizon.earliestStart)
      .where((eb) => eb(endOf(eb), ">=", horizon.today));
    if (type) query = query.where("type", "=", type);
    return query;
  }

  /** The complement of notOver: everything that started before today and is over (or began too long ago). */
  function over(type: string | null | undefined, horizon: Horizon) {
    let query = db
      .selectFrom("meetings")
      .where("start_date", "<", horizon.today)
      .where((eb) => eb.or([eb("start_date", "<", horizon.earliestStart), eb(endOf(eb), "<", horizon.today)]));
    if (type) query = query.where("type", "=", type);
    return query;
  }

  return {
    /** Calendar order (earliest first), for the public API. */
    async list(filter: MeetingsFilter, offset: number, limit: number) {
      return filtered(filter)
        .select([...SUMMARY])
        .orderBy("start_date", "asc")
        .orderBy("id", "asc")
        .offset(offset)
        .limit(limit)
        .execute();
    },
    async count(filter: MeetingsFilter): Promise<number> {
      const row = await filtered(filter)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** Meetings not yet over, soonest first. */
    async upcoming(type: string | null | undefined, horizon: Horizon, limit: number) {
      return notOver(type, horizon)
        .select([...SUMMARY])
        .orderBy("start_date", "asc")
        .orderBy("id", "asc")
        .limit(limit)
        .execute();
    },
    async countUpcoming(horizon: Horizon): Promise<number> {
      const row = await notOver(null, horizon)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** Meetings that are over, most recent first. */
    async past(type: string | null | undefined, horizon: Horizon, offset: number, limit: number) {
      return over(type, horizon)
        .select([...SUMMARY])
        .orderBy("start_date", "desc")
        .orderBy("id", "desc")
        .offset(offset)
        .limit(limit)
        .execute();
    },
    async countPast(type: string | null | undefined, horizon: Horizon): Promise<number> {
      const row = await over(type, horizon)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async findBySlug(slug: string) {
      return db.selectFrom("meetings").selectAll().where("slug", "=", slug).executeTakeFirst();
    },
    /** The images of some meetings, in their order (meeting_images_meeting_idx). */
    async imagesOf(meetingIds: number[]) {
      if (meetingIds.length === 0) return [];
      return db
        .selectFrom("meeting_images")
        .select(["id", "meeting_id", "path", "width", "height", "position"])
        .where("meeting_id", "in", meetingIds)
        .orderBy("meeting_id")
        .orderBy("position")
        .orderBy("id")
        .execute();
    },
    /** A meeting's programme by day and start time (schedules_event_idx); untimed items open their day. */
    async schedulesOf(meetingId: number) {
      return db
        .selectFrom("schedules")
        .selectAll()
        .where("event_id", "=", meetingId)
        .orderBy("meeting_date")
        .orderBy("start", (ob) => ob.asc().nullsFirst())
        .orderBy("id")
        .execute();
    },
    async sponsorsOf(meetingId: number) {
      return db
        .selectFrom("sponsors")
        .selectAll()
        .where("event_id", "=", meetingId)
        .orderBy("position")
        .orderBy("id")
        .execute();
    },
    /** Slugs and dates for the sitemap; bounded by the sitemap protocol's 50 000 entries. */
    async allForSitemap() {
      return db
        .selectFrom("meetings")
        .select(["slug", "updated_at"])
        .orderBy("start_date", "desc")
        .limit(4_000)
        .execute();
    },
  };
}
export type MeetingsRepository = ReturnType<typeof createMeetingsRepository>;
