import type { Kysely } from "kysely";
import type { Database } from "../../db/types";

/** A confirmed registration a reminder may be owed to, with its meeting, as the batch found it. */
export type DueRegistration = {
  id: number;
  email: string;
  meeting_id: number;
  slug: string;
  title: string;
  start_date: string;
  end_date: string | null;
  location: string | null;
  timezone: string;
  visibility: "public" | "members";
};

/**
 * Meeting reminders (issue 32): which confirmed registrations of meetings starting soon have had no
 * reminder for that start yet, and the record of each sent (meeting_reminders, migration 0020).
 * Runs on the database or a write's transaction.
 */
export function createMeetingRemindersRepository(db: Kysely<Database>) {
  return {
    /**
     * Confirmed registrations of meetings starting within [from, to] (days, widened by the caller
     * for time zones) without a reminder for that start, in id order after `afterId`.
     */
    async due(from: string, to: string, afterId: number, limit: number): Promise<DueRegistration[]> {
      return db
        .selectFrom("join_requests as r")
        .innerJoin("meetings as m", "m.id", "r.meeting_id")
        .select([
          "r.id",
          "r.email",
          "r.meeting_id",
          "m.slug",
          "m.title",
          "m.start_date",
          "m.end_date",
          "m.location",
          "m.timezone",
          "m.visibility",
        ])
        .where("r.kind", "=", "registration")
        .where("r.registration_status", "=", "confirmed")
        .where("m.start_date", ">=", from)
        .where("m.start_date", "<=", to)
        .where("r.id", ">", afterId)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom("meeting_reminders as sent")
                .select("sent.id")
                .whereRef("sent.join_request_id", "=", "r.id")
                .whereRef("sent.meeting_start", "=", "m.start_date"),
            ),
          ),
        )
        .orderBy("r.id")
        .limit(limit)
        .execute() as Promise<DueRegistration[]>;
    },

    /**
     * Records the reminder; false when it was recorded already (another run or process: the unique
     * key meeting_reminders_once), and then nothing is to be sent. On PostgreSQL a second
     * transaction's insert waits for the first's commit and then does nothing.
     */
    async record(registrationId: number, meetingStart: string, now: string): Promise<boolean> {
      const row = await db
        .insertInto("meeting_reminders")
        .values({ join_request_id: registrationId, meeting_start: meetingStart, created_at: now })
        .onConflict((oc) => oc.columns(["join_request_id", "meeting_start"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The registration's state and its meeting's start now (inside the reminder's transaction). */
    async state(registrationId: number) {
      return db
        .selectFrom("join_requests as r")
        .innerJoin("meetings as m", "m.id", "r.meeting_id")
        .select(["r.registration_status", "m.start_date"])
        .where("r.id", "=", registrationId)
        .executeTakeFirst();
    },

    /** The reminders recorded for a registration, oldest first (tests, the registration's history). */
    async sentTo(registrationId: number) {
      return db
        .selectFrom("meeting_reminders")
        .select(["meeting_start", "created_at"])
        .where("join_request_id", "=", registrationId)
        .orderBy("id")
        .execute();
    },
  };
}
