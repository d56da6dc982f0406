import type { Expression, ExpressionBuilder, Insertable, Updateable } from "kysely";
import type { Database, Executor, MeetingsTable, SchedulesTable, SponsorsTable } from "../../db/types";

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
  "timezone",
  "visibility",
] as const;

/**
 * Dates are YYYY-MM-DD text on both dialects, so they compare as strings.
 * `publicOnly`: what a visitor may see (members-only meetings left out);
 * `matching`: a subquery of meeting ids (the search module's full-text match).
 */
export type MeetingsFilter = {
  type?: string | null;
  from?: string | null;
  publicOnly: boolean;
  matching?: Expression<number>;
};

/**
 * Which meetings count as not yet over on `today`: those ending today or later,
 * looked for among those starting on or after `earliestStart`, so that the
 * search is a range on the start-date index rather than a walk of the table.
 */
export type Horizon = { today: string; earliestStart: string };

type Eb = ExpressionBuilder<Database, "meetings">;
const endOf = (eb: Eb) => eb.fn.coalesce("end_date", "start_date");

/** Runs on the executor it is given: the database, or the transaction of a write. */
export function createMeetingsRepository(db: Executor) {
  function visible(publicOnly: boolean) {
    const query = db.selectFrom("meetings");
    return publicOnly ? query.where("visibility", "=", "public") : query;
  }

  function filtered(filter: MeetingsFilter) {
    // (visibility, start_date, id), (type, start_date, id) or (start_date, id): equality first, then the range.
    let query = visible(filter.publicOnly);
    if (filter.type) query = query.where("type", "=", filter.type);
    if (filter.from) query = query.where("start_date", ">=", filter.from);
    if (filter.matching) query = query.where("id", "in", filter.matching);
    return query;
  }

  function notOver(type: string | null | undefined, horizon: Horizon, publicOnly: boolean) {
    let query = visible(publicOnly)
      .where("start_date", ">=", horizon.earliestStart)
      .where((eb) => eb(endOf(eb), ">=", horizon.today));
    if (type) query = query.where("type", "=", type);
    return query;
  }

  /** The complement of notOver: everything that started before today and is over (or began too long ago). */
  function over(type: string | null | undefined, horizon: Horizon, publicOnly: boolean) {
    let query = visible(publicOnly)
      .where("start_date", "<", horizon.today)
      .where((eb) => eb.or([eb("start_date", "<", horizon.earliestStart), eb(endOf(eb), "<", horizon.today)]));
    if (type) query = query.where("type", "=", type);
    return query;
  }

  const count = async (query: ReturnType<typeof visible>) => {
    const row = await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst();
    return Number(row?.n ?? 0);
  };

  return {
    /** Calendar order (earliest first), for the API and the calendar's filtered list. */
    async list(filter: MeetingsFilter, offset: number, limit: number) {
      return filtered(filter)
        .select([...SUMMARY])
        .orderBy("start_date", "asc")
        .orderBy("id", "asc")
        .offset(offset)
        .limit(limit)
        .execute();
    },
    count: (filter: MeetingsFilter) => count(filtered(filter)),

    /** The admin list: every meeting, the newest created first (meetings_created_idx), searchable. */
    async adminList(matching: Expression<number> | undefined, offset: number, limit: number) {
      let query = db.selectFrom("meetings");
      if (matching) query = query.where("id", "in", matching);
      return query
        .select([
          ...SUMMARY,
          "registration_open",
          "registration_closes_on",
          "capacity",
          "registration_auto_confirm",
          "registration_waitlist",
          "created_at",
        ])
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .offset(offset)
        .limit(limit)
        .execute();
    },
    async adminCount(matching: Expression<number> | undefined): Promise<number> {
      let query = db.selectFrom("meetings");
      if (matching) query = query.where("id", "in", matching);
      return count(query);
    },

    /** Meetings not yet over, soonest first. */
    async upcoming(type: string | null | undefined, horizon: Horizon, limit: number, publicOnly: boolean) {
      return notOver(type, horizon, publicOnly)
        .select([...SUMMARY])
        .orderBy("start_date", "asc")
        .orderBy("id", "asc")
        .limit(limit)
        .execute();
    },
    countUpcoming: (horizon: Horizon) => count(notOver(null, horizon, false)),

    /** Meetings that are over, most recent first. */
    async past(type: string | null | undefined, horizon: Horizon, offset: number, limit: number, publicOnly: boolean) {
      return over(type, horizon, publicOnly)
        .select([...SUMMARY])
        .orderBy("start_date", "desc")
        .orderBy("id", "desc")
        .offset(offset)
        .limit(limit)
        .execute();
    },
    countPast: (type: string | null | undefined, horizon: Horizon, publicOnly: boolean) =>
      count(over(type, horizon, publicOnly)),

    /** Meetings starting in [from, to) in calendar order, for the month grid and the calendar feeds. */
    async between(from: string, to: string, publicOnly: boolean, limit: number) {
      return visible(publicOnly)
        .selectAll()
        .where("start_date", ">=", from)
        .where("start_date", "<", to)
        .orderBy("start_date", "asc")
        .orderBy("id", "asc")
        .limit(limit)
        .execute();
    },

    async findBySlug(slug: string) {
      return db.selectFrom("meetings").selectAll().where("slug", "=", slug).executeTakeFirst();
    },
    async findById(id: number) {
      return db.selectFrom("meetings").selectAll().where("id", "=", id).executeTakeFirst();
    },
    /**
     * The meeting, locked until its write's transaction ends where rows are locked (PostgreSQL;
     * SQLite's one writer is alone already): an edit compares it before and after, unraced.
     */
    async findForChange(id: number, lock: boolean) {
      const query = db.selectFrom("meetings").selectAll().where("id", "=", id);
      return (lock ? query.forUpdate() : query).executeTakeFirst();
    },
    async slugsLike(base: string): Promise<string[]> {
      const rows = await db
        .selectFrom("meetings")
        .select("slug")
        .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", `${base}-%`)]))
        .execute();
      return rows.map((r) => r.slug);
    },
    async insert(row: Insertable<MeetingsTable>) {
      return db.insertInto("meetings").values(row).returningAll().executeTakeFirstOrThrow();
    },
    /** New field values, and the next ICS SEQUENCE (as `touch`), in one statement. */
    async update(id: number, values: Updateable<MeetingsTable>, now: string) {
      return db
        .updateTable("meetings")
        .set((eb) => ({ ...values, sequence: eb("sequence", "+", 1), updated_at: now }))
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
    },
    /** A change calendar apps must pick up: the next ICS SEQUENCE. */
    async touch(id: number, now: string) {
      return db
        .updateTable("meetings")
        .set((eb) => ({ sequence: eb("sequence", "+", 1), updated_at: now }))
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirst();
    },
    async remove(id: number) {
      return db.deleteFrom("meetings").where("id", "=", id).returningAll().executeTakeFirst();
    },

    /** The images of some meetings, in their order (meeting_images_meeting_idx). */
    async imagesOf(meetingIds: number[]) {
      if (meetingIds.length === 0) return [];
      return db
        .selectFrom("meeting_images")
        .select(["id", "meeting_id", "path", "width", "height", "position", "alt", "decorative"])
        .where("meeting_id", "in", meetingIds)
        .orderBy("meeting_id")
        .orderBy("position")
        .orderBy("id")
        .execute();
    },
    async addImages(rows: Insertable<Database["meeting_images"]>[]) {
      if (rows.length === 0) return;
      await db.insertInto("meeting_images").values(rows).execute();
    },
    async lastImagePosition(meetingId: number): Promise<number> {
      const row = await db
        .selectFrom("meeting_images")
        .select((eb) => eb.fn.max("position").as("position"))
        .where("meeting_id", "=", meetingId)
        .executeTakeFirst();
      return Number(row?.position ?? -1);
    },
    /** A picture's text, only through its meeting (as removeImage). */
    async describeImage(meetingId: number, imageId: number, values: { alt: string; decorative: number }) {
      return db
        .updateTable("meeting_images")
        .set(values)
        .where("id", "=", imageId)
        .where("meeting_id", "=", meetingId)
        .returning(["id", "path", "width", "height", "alt", "decorative"])
        .executeTakeFirst();
    },
    /** An image only through its meeting: an id of another meeting's image finds nothing. */
    async removeImage(meetingId: number, imageId: number) {
      return db
        .deleteFrom("meeting_images")
        .where("id", "=", imageId)
        .where("meeting_id", "=", meetingId)
        .returning(["id", "path"])
        .executeTakeFirst();
    },

    /** A meeting's programme by day and start time (schedules_event_idx); untimed items open their day. */
    async schedulesOf(meetingIds: number[]) {
      if (meetingIds.length === 0) return [];
      return db
        .selectFrom("schedules")
        .selectAll()
        .where("event_id", "in", meetingIds)
        .orderBy("event_id")
        .orderBy("meeting_date")
        .orderBy("start", (ob) => ob.asc().nullsFirst())
        .orderBy("id")
        .execute();
    },
    async insertSchedule(row: Insertable<SchedulesTable>) {
      return db.insertInto("schedules").values(row).returningAll().executeTakeFirstOrThrow();
    },
    /** Only through its meeting, as images are. */
    async updateSchedule(meetingId: number, id: number, values: Updateable<SchedulesTable>) {
      return db
        .updateTable("schedules")
        .set(values)
        .where("id", "=", id)
        .where("event_id", "=", meetingId)
        .returningAll()
        .executeTakeFirst();
    },
    async removeSchedule(meetingId: number, id: number) {
      return db
        .deleteFrom("schedules")
        .where("id", "=", id)
        .where("event_id", "=", meetingId)
        .returning("id")
        .executeTakeFirst();
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
    async findSponsor(meetingId: number, id: number) {
      return db
        .selectFrom("sponsors")
        .selectAll()
        .where("id", "=", id)
        .where("event_id", "=", meetingId)
        .executeTakeFirst();
    },
    async insertSponsor(row: Insertable<SponsorsTable>) {
      return db.insertInto("sponsors").values(row).returningAll().executeTakeFirstOrThrow();
    },
    async lastSponsorPosition(meetingId: number): Promise<number> {
      const row = await db
        .selectFrom("sponsors")
        .select((eb) => eb.fn.max("position").as("position"))
        .where("event_id", "=", meetingId)
        .executeTakeFirst();
      return Number(row?.position ?? -1);
    },
    async updateSponsor(meetingId: number, id: number, values: Updateable<SponsorsTable>) {
      return db
        .updateTable("sponsors")
        .set(values)
        .where("id", "=", id)
        .where("event_id", "=", meetingId)
        .returningAll()
        .executeTakeFirst();
    },
    async removeSponsor(meetingId: number, id: number) {
      return db
        .deleteFrom("sponsors")
        .where("id", "=", id)
        .where("event_id", "=", meetingId)
        .returningAll()
        .executeTakeFirst();
    },

    /** Slugs and dates for the sitemap (public meetings only); bounded by the sitemap protocol's 50 000 entries. */
    async allForSitemap() {
      return db
        .selectFrom("meetings")
        .select(["slug", "updated_at"])
        .where("visibility", "=", "public")
        .orderBy("start_date", "desc")
        .limit(4_000)
        .execute();
    },
  };
}
export type MeetingsRepository = ReturnType<typeof createMeetingsRepository>;
