import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { dateIn, zonedTime } from "../../lib/time-zones";
import { hashToken, newToken } from "../../lib/tokens";
import { lastDayOf, zoneOfMeeting } from "../meetings/meetings.schema";
import { addDays } from "../members/members.values";

/** What a link's expiry is reckoned from: the meeting's days in its zone. */
type MeetingDays = { start_date: string; end_date: string | null; timezone: string };

/** What a registrant's link opens: their registration and its meeting. */
export type LinkedRegistration = NonNullable<Awaited<ReturnType<ReturnType<typeof linksRepository>["find"]>>>;

/** The SQL of registrant links (registration_links, migration 0021); on the database or a write's transaction. */
function linksRepository(db: Kysely<Database>) {
  return {
    async meetingOf(registrationId: number) {
      return db
        .selectFrom("join_requests as r")
        .innerJoin("meetings as m", "m.id", "r.meeting_id")
        .select(["m.start_date", "m.end_date", "m.timezone"])
        .where("r.id", "=", registrationId)
        .where("r.kind", "=", "registration")
        .executeTakeFirst();
    },
    async insert(row: { join_request_id: number; token_hash: string; expires_at: string; created_at: string }) {
      await db.insertInto("registration_links").values(row).execute();
    },
    /** The registration a usable link opens, with its meeting. */
    async find(tokenHash: string, now: string) {
      return db
        .selectFrom("registration_links as link")
        .innerJoin("join_requests as r", "r.id", "link.join_request_id")
        .innerJoin("meetings as m", "m.id", "r.meeting_id")
        .select([
          "r.id",
          "r.meeting_id",
          "r.company_name",
          "r.representative_name",
          "r.email",
          "r.registration_status as status",
          "r.created_at",
          "m.slug",
          "m.title",
          "m.start_date",
          "m.end_date",
          "m.location",
          "m.timezone",
          "m.visibility",
          "link.expires_at",
        ])
        .where("link.token_hash", "=", tokenHash)
        .where("link.expires_at", ">", now)
        .where("r.kind", "=", "registration")
        .executeTakeFirst();
    },
  };
}

/** A token as a link carries it: base64url of 32 random bytes (lib/tokens.ts). Anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Registrants' links (issue 32): `/registrations/{token}` shows a registration and cancels it,
 * without an account. Every mail to a registrant carries a new link (the tokens are not kept, only
 * their hashes, so an earlier mail's link cannot be written again, and it keeps working), valid
 * until the meeting has ended: until the day after its last day begins in the meeting's zone.
 */
export function createRegistrationLinks(deps: { db: Kysely<Database>; clock: Clock; origin: string }) {
  const origin = deps.origin.replace(/\/+$/, "");
  return {
    /**
     * A new link to the registration, stored in the caller's transaction; null when it has no meeting.
     * `days`: the meeting's days when the caller has them at hand (a new registration), else read.
     */
    async issue(trx: Kysely<Database>, registrationId: number, days?: MeetingDays): Promise<string | null> {
      const repo = linksRepository(trx);
      const meeting = days ?? (await repo.meetingOf(registrationId));
      if (!meeting) return null;
      const zone = zoneOfMeeting(meeting);
      const lastDay = lastDayOf(meeting);
      const now = deps.clock();
      // A link made for a meeting already over (a late change by the secretariat) still opens for a day.
      const until = [addDays(lastDay, 1), addDays(dateIn(now, zone), 1)].sort()[1];
      const token = newToken();
      await repo.insert({
        join_request_id: registrationId,
        token_hash: hashToken(token),
        expires_at: zonedTime(until, "00:00", zone).toISOString(),
        created_at: now.toISOString(),
      });
      return `${origin}/registrations/${token}`;
    },

    /** The registration a link opens, or null: unknown, malformed or expired (the meeting is over). */
    async find(token: string): Promise<LinkedRegistration | null> {
      if (!TOKEN.test(token)) return null;
      return (await linksRepository(deps.db).find(hashToken(token), deps.clock().toISOString())) ?? null;
    },
  };
}
export type RegistrationLinks = ReturnType<typeof createRegistrationLinks>;
