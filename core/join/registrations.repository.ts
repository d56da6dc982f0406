import { type Kysely, type Selectable, sql } from "kysely";
import type { Dialect } from "../../db/connect";
import { containsText } from "../../db/queries";
import type { Database, JoinRequestEventsTable } from "../../db/types";
import { REGISTRATION_STATUSES, type RegistrationStatus } from "./join.values";

/** What the admin's list and the state changes read of a registration. */
const COLUMNS = [
  "id",
  "meeting_id",
  "company_name",
  "representative_name",
  "email",
  "phone_number",
  "note",
  "registration_status as status",
  "attended_at",
  "created_at",
  "spam_reason",
  "user_id",
] as const;

export type RegistrationFilter = { status?: RegistrationStatus; search: string };

/**
 * A meeting's registrations (decision 0052): join_requests rows of kind 'registration' with the
 * meeting's id, in their states. Seats are counted and taken with the meeting's row locked
 * (`lockMeeting`), so that two registrations never take the same last seat.
 */
export function createRegistrationsRepository(db: Kysely<Database>, dialect: Dialect) {
  const ofMeeting = (meetingId: number) =>
    db.selectFrom("join_requests").where("meeting_id", "=", meetingId).where("kind", "=", "registration");

  const filtered = (meetingId: number, filter: RegistrationFilter) => {
    let q = ofMeeting(meetingId);
    if (filter.status) q = q.where("registration_status", "=", filter.status);
    if (filter.search) {
      const search = filter.search;
      // The three columns folded as one text (a line break between them, which a search box cannot
      // hold): one casefold per row instead of three, which SQLite calls back into JavaScript for.
      q = q.where(
        containsText(
          sql`coalesce(company_name, '') || ${"\n"} || coalesce(representative_name, '') || ${"\n"} || email`,
          search,
        ),
      );
    }
    return q;
  };

  return {
    /**
     * The meeting's registration settings, its row locked until the transaction ends on PostgreSQL
     * (SQLite runs one write at a time): seats are counted and taken one registration at a time,
     * as member_companies' seats are (members.repository `lock`).
     */
    async lockMeeting(meetingId: number) {
      let query = db
        .selectFrom("meetings")
        .select(["id", "title", "capacity", "registration_auto_confirm", "registration_waitlist", "registration_seats"])
        .where("id", "=", meetingId);
      if (dialect === "postgres") query = query.forUpdate();
      return query.executeTakeFirst();
    },

    /** The meeting's capacity, unlocked (the admin's list). */
    async meeting(meetingId: number) {
      return db.selectFrom("meetings").select(["id", "capacity"]).where("id", "=", meetingId).executeTakeFirst();
    },

    /**
     * Registrations holding a seat: pending and confirmed, probable spam included (its sender was told
     * they are registered, so it holds its seat until the secretariat deletes it, decision 0039). The
     * number is kept by the database's triggers in each change's transaction (migration 0024), so it
     * is current inside a transaction that has just changed a registration.
     */
    async seatsTaken(meetingId: number): Promise<number> {
      const row = await db
        .selectFrom("meetings")
        .select("registration_seats")
        .where("id", "=", meetingId)
        .executeTakeFirst();
      return row?.registration_seats ?? 0;
    },

    /** Seats taken by each meeting (those without any are left out), against its capacity. */
    async seatsTakenBy(meetingIds: number[]): Promise<Map<number, number>> {
      if (meetingIds.length === 0) return new Map();
      const rows = await db
        .selectFrom("meetings")
        .select(["id", "registration_seats"])
        .where("id", "in", meetingIds)
        .where("registration_seats", ">", 0)
        .execute();
      return new Map(rows.map((r) => [r.id, r.registration_seats]));
    },

    /** The registration of this (folded) address that holds or waits for a seat, if any. */
    async findActiveByEmail(meetingId: number, folded: string) {
      return ofMeeting(meetingId).select(COLUMNS).where("registration_email", "=", folded).executeTakeFirst();
    },

    async find(meetingId: number, id: number) {
      return ofMeeting(meetingId).select(COLUMNS).where("id", "=", id).executeTakeFirst();
    },

    /** The meeting's confirmed registrations after `afterId`, by id, a page at a time (join_requests_registration_idx). */
    async confirmedAfter(meetingId: number, afterId: number, limit: number) {
      return ofMeeting(meetingId)
        .select(COLUMNS)
        .where("registration_status", "=", "confirmed")
        .where("id", ">", afterId)
        .orderBy("id")
        .limit(limit)
        .execute();
    },

    /**
     * Pending and waitlisted registrations, after `afterId`, by id: each is told by mail of a change
     * of time or place (decision 0068). A registration kept as a filled honeypot's is nobody's: it
     * is never mailed.
     */
    async unconfirmedAfter(meetingId: number, afterId: number, limit: number) {
      return ofMeeting(meetingId)
        .select(COLUMNS)
        .where("registration_status", "in", ["pending", "waitlisted"])
        .where((eb) => eb.or([eb("spam_reason", "is", null), eb("spam_reason", "!=", "honeypot")]))
        .where("id", ">", afterId)
        .orderBy("id")
        .limit(limit)
        .execute();
    },

    /** The oldest registration on the waiting list: the next to move up. */
    async firstWaitlisted(meetingId: number) {
      return ofMeeting(meetingId)
        .select(COLUMNS)
        .where("registration_status", "=", "waitlisted")
        .orderBy("created_at")
        .orderBy("id")
        .limit(1)
        .executeTakeFirst();
    },

    /**
     * Moves a registration from one of `from` to `to`; false when it was in none of them (changed
     * meanwhile). A declined or cancelled registration lets go of its address's key, so that the
     * person may register again.
     */
    async setStatus(id: number, from: readonly RegistrationStatus[], to: RegistrationStatus): Promise<boolean> {
      const result = await db
        .updateTable("join_requests")
        .set((eb) => ({
          registration_status: to,
          registration_email: to === "declined" || to === "cancelled" ? null : eb.ref("registration_email"),
        }))
        .where("id", "=", id)
        .where("registration_status", "in", from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async setAttended(id: number, at: string | null): Promise<void> {
      await db.updateTable("join_requests").set({ attended_at: at }).where("id", "=", id).execute();
    },

    async insertEvent(row: Omit<Selectable<JoinRequestEventsTable>, "id">): Promise<void> {
      await db.insertInto("join_request_events").values(row).execute();
    },

    /** One page of a meeting's registrations, newest first (join_requests_registration_idx). */
    async list(meetingId: number, filter: RegistrationFilter, offset: number, limit: number) {
      return filtered(meetingId, filter)
        .select(COLUMNS)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .offset(offset)
        .limit(limit)
        .execute();
    },

    /** How many registrations the meeting has in each state (matching the search), every state named. */
    async countsByStatus(meetingId: number, search: string): Promise<Record<RegistrationStatus, number>> {
      const rows = await filtered(meetingId, { search })
        .select(["registration_status", (eb) => eb.fn.countAll<number>().as("n")])
        .groupBy("registration_status")
        .execute();
      const counts = Object.fromEntries(REGISTRATION_STATUSES.map((s) => [s, 0])) as Record<RegistrationStatus, number>;
      for (const row of rows) if (row.registration_status) counts[row.registration_status] = Number(row.n);
      return counts;
    },

    /**
     * Every registration of the meeting in these states (matching the search), sorted by name then
     * e-mail: the exports, the printed list and badges, the door's list. A meeting's registrations
     * are bounded by its size; `limit` bounds them again where a page shows them.
     */
    async allOf(meetingId: number, statuses: readonly RegistrationStatus[], search = "", limit?: number) {
      let q = filtered(meetingId, { search })
        .select(COLUMNS)
        .where("registration_status", "in", statuses)
        .orderBy("representative_name")
        .orderBy("email")
        .orderBy("id");
      if (limit !== undefined) q = q.limit(limit);
      return q.execute();
    },

    /**
     * A person's registrations for meetings not yet over ('My registrations'): those made while
     * signed in (user_id), and those sent from their address while signed out that still hold or
     * wait for a seat (registration_email, the folded address). Soonest meeting first; `only`: just
     * that registration, if it is one of theirs.
     */
    async ofPerson(userId: number, folded: string, today: string, only?: number) {
      let query = db
        .selectFrom("join_requests as r")
        .innerJoin("meetings as m", "m.id", "r.meeting_id")
        .select([
          "r.id",
          "r.meeting_id",
          "r.representative_name",
          "r.company_name",
          "r.email",
          "r.note",
          "r.registration_status as status",
          "r.created_at",
          "m.slug",
          "m.title",
          "m.start_date",
          "m.end_date",
          "m.location",
          "m.visibility",
        ])
        .where("r.kind", "=", "registration")
        .where((eb) => eb.or([eb("r.user_id", "=", userId), eb("r.registration_email", "=", folded)]))
        .where((eb) => eb(eb.fn.coalesce("m.end_date", "m.start_date"), ">=", today));
      // One of them (the one being cancelled), found however long the list.
      if (only !== undefined) query = query.where("r.id", "=", only);
      return query.orderBy("m.start_date").orderBy("r.id").limit(100).execute();
    },
  };
}
export type RegistrationsRepository = ReturnType<typeof createRegistrationsRepository>;
export type RegistrationRow = NonNullable<Awaited<ReturnType<RegistrationsRepository["find"]>>>;
export type PersonRegistration = Awaited<ReturnType<RegistrationsRepository["ofPerson"]>>[number];
