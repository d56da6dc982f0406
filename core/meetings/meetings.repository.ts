import { type Expression, type ExpressionBuilder, type Insertable, sql, type Updateable } from "kysely";
import type { Database, Executor, MeetingsTable, SchedulesTable, SponsorsTable } from "../../db/types";
import type { GroupsSeen } from "../access/access";

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
 * Which meetings a reader sees: visitors the public ones (`publicOnly`); members those too, the
 * members' meetings for every member, and those for a working group of theirs (`groups`; 'all'
 * for admins and editors). Issue 36.
 */
export type MeetingsAudience = { publicOnly: true } | { publicOnly: false; groups: GroupsSeen };
export const PUBLIC_MEETINGS: MeetingsAudience = { publicOnly: true };
export const ALL_MEETINGS: MeetingsAudience = { publicOnly: false, groups: "all" };

/**
 * Dates are YYYY-MM-DD text on both dialects, so they compare as strings.
 * `audience`: whose meetings (MeetingsAudience);
 * `matching`: a subquery of meeting ids (the search module's full-text match).
 */
export type MeetingsFilter = {
  type?: string | null;
  from?: string | null;
  audience: MeetingsAudience;
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
  function visible(audience: MeetingsAudience) {
    const query = db.selectFrom("meetings");
    if (audience.publicOnly) return query.where("visibility", "=", "public");
    if (audience.groups === "all") return query;
    // A members' meeting without groups is every member's; one with groups, only theirs.
    const grouped = sql`select 1 from meeting_groups mg where mg.meeting_id = meetings.id`;
    const own = audience.groups;
    return query.where((eb) =>
      eb.or([
        eb("visibility", "=", "public"),
        eb.not(eb.exists(sql`(${grouped})`)),
        ...(own.length > 0 ? [eb.exists(sql`(${grouped} and mg.group_id in (${sql.join([...own])}))`)] : []),
      ]),
    );
  }

  /** The meetings of the admin list: those `matching` a search; with `groups`, a chair's, for one of those groups. */
  function adminListed(matching: Expression<number> | undefined, groups?: readonly number[]) {
    let query = db.selectFrom("meetings");
    if (matching) query = query.where("id", "in", matching);
    if (groups) {
      // No group at all: nothing (an empty `in ()` is no SQL).
      const ids = groups.length > 0 ? [...groups] : [0];
      query = query
        .where("visibility", "=", "members")
        .where("id", "in", db.selectFrom("meeting_groups").select("meeting_id").where("group_id", "in", ids));
    }
    return query;
  }

  function filtered(filter: MeetingsFilter) {
    // (visibility, start_date, id), (type, start_date, id) or (start_date, id): equality first, then the range.
    let query = visible(filter.audience);
    if (filter.type) query = query.where("type", "=", filter.type);
    if (filter.from) query = query.where("start_date", ">=", filter.from);
    if (filter.matching) query = query.where("id", "in", filter.matching);
    return query;
  }

  function notOver(type: string | null | undefined, horizon: Horizon, audience: MeetingsAudience) {
    let query = visible(audience)
      .where("start_date", ">=", horizon.earliestStart)
      .where((eb) => eb(endOf(eb), ">=", horizon.today));
    if (type) query = query.where("type", "=", type);
    return query;
  }

  /** The complement of notOver: everything that started before today and is over (or began too long ago). */
  function over(type: string | null | undefined, horizon: Horizon, audience: MeetingsAudience) {
    let query = visible(audience)
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

    /** The admin list: every meeting (or those of `groups`), the newest created first (meetings_created_idx), searchable. */
    async adminList(
      matching: Expression<number> | undefined,
      offset: number,
      limit: number,
      groups?: readonly number[],
    ) {
      return adminListed(matching, groups)
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
    async adminCount(matching: Expression<number> | undefined, groups?: readonly number[]): Promise<number> {
      return count(adminListed(matching, groups));
    },

    /** A working group's meetings not yet over, soonest first (its page, issue 36). */
    async upcomingForGroup(groupId: number, horizon: Horizon, limit: number) {
      return notOver(null, horizon, ALL_MEETINGS)
        .where("visibility", "=", "members")
        .where("id", "in", db.selectFrom("meeting_groups").select("meeting_id").where("group_id", "=", groupId))
        .select([...SUMMARY])
        .orderBy("start_date", "asc")
        .orderBy("id", "asc")
        .limit(limit)
        .execute();
    },

    /** Meetings not yet over, soonest first. */
    async upcoming(type: string | null | undefined, horizon: Horizon, limit: number, audience: MeetingsAudience) {
      return notOver(type, horizon, audience)
        .select([...SUMMARY])
        .orderBy("start_date", "asc")
        .orderBy("id", "asc")
        .limit(limit)
        .execute();
    },
    countUpcoming: (horizon: Horizon) => count(notOver(null, horizon, ALL_MEETINGS)),

    /** Meetings that are over, most recent first. */
    async past(
      type: string | null | undefined,
      horizon: Horizon,
      offset: number,
      limit: number,
      audience: MeetingsAudience,
    ) {
      return over(type, horizon, audience)
        .select([...SUMMARY])
        .orderBy("start_date", "desc")
        .orderBy("id", "desc")
        .offset(offset)
        .limit(limit)
        .execute();
    },
    countPast: (type: string | null | undefined, horizon: Horizon, audience: MeetingsAudience) =>
      count(over(type, horizon, audience)),

    /** Meetings starting in [from, to) in calendar order, for the month grid and the calendar feeds. */
    async between(from: string, to: string, audience: MeetingsAudience, limit: number) {
      return visible(audience)
        .selectAll()
        .where("start_date", ">=", from)
        .where("start_date", "<", to)
        .orderBy("start_date", "asc")
        .orderBy("id", "asc")
        .limit(limit)
        .execute();
    },

    /** A meeting's own working groups, ascending (none: for every member, or public). */
    async groupsOf(meetingId: number): Promise<number[]> {
      const rows = await db
        .selectFrom("meeting_groups")
        .select("group_id")
        .where("meeting_id", "=", meetingId)
        .orderBy("group_id")
        .execute();
      return rows.map((row) => row.group_id);
    },
    /** Sets a meeting's working groups (none: every member's, when it is a members' meeting). */
    async setGroups(meetingId: number, groupIds: readonly number[]) {
      await db.deleteFrom("meeting_groups").where("meeting_id", "=", meetingId).execute();
      if (groupIds.length > 0) {
        await db
          .insertInto("meeting_groups")
          .values(groupIds.map((group_id) => ({ meeting_id: meetingId, group_id })))
          .execute();
      }
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
