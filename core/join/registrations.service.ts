import type { Kysely } from "kysely";
import type { Dialect } from "../../db/connect";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { pageOf } from "../../lib/pagination";
import { dateIn } from "../../lib/time-zones";
import { invalidInput } from "../../lib/validation";
import type { AuditService } from "../audit/audit.service";
import type { MailService, NewMail } from "../mail/mail.service";
import type { InvitationChange } from "../meetings/invitation";
import type { CalendarMeeting } from "../meetings/meetings.calendar";
import type { InvitationUpdates } from "../meetings/meetings-admin.service";
import { addDays } from "../members/members.values";
import type { SettingsService } from "../settings/settings.service";
import {
  ALREADY_REGISTERED,
  REGISTRATION_ACTIVE,
  REGISTRATION_STATUSES,
  type RegistrationStatus,
  SEAT_HOLDING,
  type SpamReason,
} from "./join.values";
import type { RegistrationInvitations } from "./registration-invitations";
import type { RegistrationLinks } from "./registration-links";
import { type RegistrationMailKind, registrationMails } from "./registration-mails";
import {
  createRegistrationsRepository,
  type PersonRegistration,
  type RegistrationFilter,
  type RegistrationRow,
} from "./registrations.repository";

export const REGISTRATIONS_PER_PAGE = 50;
export const REGISTRATION_NOT_FOUND = "Registration not found.";
export const MEETING_FULL = "This meeting is full: registration is closed.";
export const NO_SEAT_LEFT = "The meeting is full: no place is free for this registration.";
/** Confirmed registrations read at a time when a meeting's invitations are sent again. */
const UPDATE_BATCH = 200;

/** A signed-in person, as 'My registrations' knows them. */
export type Person = { id: number; email: string; name: string };

/** Whoever changes a registration: an administrator, the registrant, or null for the site itself. */
export type RegistrationActor = { id: number | null; name: string } | null;

/** The address as the one-registration-per-meeting key holds it: folded as `casefold` folds. */
export const foldEmail = (email: string) => email.trim().toLowerCase();

type Meeting = NonNullable<Awaited<ReturnType<ReturnType<typeof createRegistrationsRepository>["lockMeeting"]>>>;

/** Where a registration may go from, per change (decision 0052). */
const FROM: Record<"confirm" | "decline" | "cancel" | "moveUp", readonly RegistrationStatus[]> = {
  confirm: ["pending", "waitlisted"],
  decline: ["pending", "confirmed", "waitlisted"],
  cancel: REGISTRATION_ACTIVE,
  moveUp: ["waitlisted"],
};

const CANNOT: Record<keyof typeof FROM, (status: RegistrationStatus) => string> = {
  confirm: (s) => `A ${s} registration cannot be confirmed.`,
  decline: (s) => `A ${s} registration cannot be declined.`,
  cancel: (s) => `A ${s} registration cannot be cancelled.`,
  moveUp: (s) => `Only a registration on the waiting list moves up; this one is ${s}.`,
};

/**
 * A meeting's registrations and their states (issue 32, decision 0052): placing a new one
 * (pending, confirmed or waitlisted, inside the submission's transaction), the secretariat's
 * changes, check-in, and the admin's list. Every change is one transaction with its history row
 * and the registrant's mail; a seat freed moves the oldest waitlisted registration up in the same
 * transaction. After each commit the content version moves (`published`), so that a meeting's
 * page never shows places (or an open form) that are gone, whoever made the change.
 */
export function createRegistrationsService(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  mail: Pick<MailService, "enqueue" | "deliverSoon">;
  settings: Pick<SettingsService, "getAll">;
  clock: Clock;
  /** Moves the content version (cached pages show the new places); its failure is the caller's to log. */
  published?: () => Promise<void>;
  /** Issues the registrant's link that every mail carries (registration-links.ts). */
  links?: Pick<RegistrationLinks, "issue">;
  /** Calendar invitations in the confirmed and cancelled mails (registration-invitations.ts). */
  invitations?: Pick<RegistrationInvitations, "prepare" | "attachment">;
  /** The audit log (decision 0074): a person's change of a registration, in its transaction. */
  audit?: Pick<AuditService, "record">;
}) {
  const { db, dialect, mail, clock } = deps;
  const repo = (trx: Kysely<Database>) => createRegistrationsRepository(trx, dialect);

  async function publish(): Promise<void> {
    mail.deliverSoon();
    await deps.published?.().catch(() => {});
  }

  /**
   * What a change's mails need, read before its transaction opens (SQLite has one connection: never
   * inside it): the site's settings, and the meeting as a calendar invitation describes it.
   */
  type Site = Awaited<ReturnType<SettingsService["getAll"]>> & { calendar?: CalendarMeeting | null };

  async function mailTo(
    trx: Kysely<Database>,
    site: Site,
    kind: RegistrationMailKind,
    row: Pick<RegistrationRow, "id" | "email" | "meeting_id" | "representative_name">,
    meeting: Pick<Meeting, "title">,
    extra: {
      reason?: string | null;
      invite?: "REQUEST" | "CANCEL";
      change?: InvitationChange;
      status?: "pending" | "waitlisted";
    } = {},
  ): Promise<void> {
    const manageUrl = (await deps.links?.issue(trx, row.id)) ?? null;
    // A confirmation invites to the meeting; a confirmed registration that ends withdraws the invitation.
    const method = extra.invite ?? (kind === "confirmed" ? "REQUEST" : null);
    const invitation =
      method && deps.invitations
        ? await deps.invitations.attachment(trx, site.calendar ?? null, row, method, site)
        : null;
    const built: NewMail = registrationMails[kind]({
      registrationId: row.id,
      meetingId: row.meeting_id,
      meetingTitle: meeting.title,
      to: row.email,
      siteName: site["site.name"],
      siteEmail: site["site.email"],
      reason: extra.reason ?? null,
      manageUrl,
      invitation,
      change: extra.change,
      status: extra.status,
    });
    await mail.enqueue([built], trx);
  }

  async function record(
    trx: Kysely<Database>,
    id: number,
    event: `registration_${RegistrationStatus}` | "registration_attended" | "registration_not_attended",
    by: RegistrationActor,
    reason: string | null = null,
    /** False for a registration's arrival: the registrant's own form, not a change anyone made. */
    audited = true,
  ): Promise<void> {
    await repo(trx).insertEvent({
      join_request_id: id,
      event,
      user_id: by?.id ?? null,
      user_name: by?.name ?? "Automatic",
      company_id: null,
      company_name: null,
      reason,
      created_at: clock().toISOString(),
    });
    // A person's change is in the audit log too (decision 0074); the automatic ones only in the registration's own events.
    if (by && audited) {
      const state = event.replace("registration_", "").replace("_", " ");
      await deps.audit?.record(
        {
          action: event,
          entity: "request",
          entityId: id,
          summary: `Registration #${id}: ${state}${reason ? ` (${reason})` : ""}`,
          after: { state, reason },
        },
        trx,
      );
    }
  }

  /** The meeting locked and the registration read in the transaction; 404 for another meeting's. */
  async function open(trx: Kysely<Database>, meetingId: number, id: number) {
    const r = repo(trx);
    const meeting = await r.lockMeeting(meetingId);
    const row = meeting ? await r.find(meetingId, id) : undefined;
    if (!meeting || !row?.status) throw new AppError("not_found", REGISTRATION_NOT_FOUND);
    return { meeting, row: row as RegistrationRow & { status: RegistrationStatus } };
  }

  const hasSeat = async (trx: Kysely<Database>, meeting: Meeting) =>
    meeting.capacity === null || (await repo(trx).seatsTaken(meeting.id)) < meeting.capacity;

  /** A seat freed: the oldest waitlisted registration moves up (confirmed when automatic) and is told. */
  async function fillFreedSeat(trx: Kysely<Database>, site: Site, meeting: Meeting): Promise<void> {
    if (!(await hasSeat(trx, meeting))) return;
    const next = await repo(trx).firstWaitlisted(meeting.id);
    if (next) await moveUpIn(trx, site, meeting, next, null);
  }

  async function moveUpIn(
    trx: Kysely<Database>,
    site: Site,
    meeting: Meeting,
    row: RegistrationRow,
    by: RegistrationActor,
  ) {
    const to: RegistrationStatus = meeting.registration_auto_confirm === 1 ? "confirmed" : "pending";
    if (!(await repo(trx).setStatus(row.id, FROM.moveUp, to))) return false;
    await record(trx, row.id, `registration_${to}`, by, "Moved up from the waiting list.");
    await mailTo(trx, site, to === "confirmed" ? "confirmed" : "moved_up", row, meeting);
    return true;
  }

  type Change = "confirm" | "decline" | "cancel" | "moveUp";

  async function change(
    meetingId: number,
    id: number,
    what: Change,
    by: RegistrationActor,
    reason: string | null = null,
  ): Promise<RegistrationRow> {
    // The meeting as its calendar invitation describes it: a confirmation, or a confirmed one ended, carries it.
    const [settings, calendar] = await Promise.all([
      deps.settings.getAll(),
      deps.invitations?.prepare(meetingId) ?? null,
    ]);
    const site: Site = { ...settings, calendar };
    const updated = await db.transaction().execute(async (trx) => {
      const { meeting, row } = await open(trx, meetingId, id);
      if (!FROM[what].includes(row.status)) throw invalidInput({ status: [CANNOT[what](row.status)] });
      const r = repo(trx);
      if (what === "confirm" || what === "moveUp") {
        // A pending registration already holds its seat; a waitlisted one needs a free one.
        if (row.status === "waitlisted" && !(await hasSeat(trx, meeting))) {
          throw invalidInput({ status: [NO_SEAT_LEFT] });
        }
        if (what === "moveUp") {
          await moveUpIn(trx, site, meeting, row, by);
        } else {
          await r.setStatus(row.id, FROM.confirm, "confirmed");
          await record(trx, row.id, "registration_confirmed", by);
          await mailTo(trx, site, "confirmed", row, meeting);
        }
      } else {
        const to: RegistrationStatus = what === "decline" ? "declined" : "cancelled";
        await r.setStatus(row.id, FROM[what], to);
        await record(trx, row.id, `registration_${to}`, by, reason);
        await mailTo(trx, site, to, row, meeting, {
          reason,
          ...(row.status === "confirmed" ? { invite: "CANCEL" as const } : {}),
        });
        if (row.status !== "waitlisted") await fillFreedSeat(trx, site, meeting);
      }
      return (await r.find(meetingId, id)) as RegistrationRow;
    });
    await publish();
    return updated;
  }

  return {
    /**
     * Places a new registration for the meeting inside the submission's transaction (the meeting's
     * row locked until it commits): 422 on `email` when the address already holds or waits for a
     * seat; pending (confirmed when automatic) while seats remain; waitlisted when full with the
     * waiting list on; else 422 on `page_path`, as before. Probable spam is never confirmed
     * automatically: it holds its seat as pending (decision 0039) for the secretariat to judge.
     */
    async place(
      trx: Kysely<Database>,
      meetingId: number,
      email: string,
      spam: SpamReason | null,
    ): Promise<{ status: RegistrationStatus; email: string }> {
      const r = repo(trx);
      const meeting = await r.lockMeeting(meetingId);
      if (!meeting) throw new AppError("not_found", "Meeting not found.");
      const folded = foldEmail(email);
      // An address holding a registration already is refused by the insert that follows (the unique key
      // of registration_email, the folded address, and the meeting): the caller answers ALREADY_REGISTERED.
      // The seats as the lock read them: nothing in this transaction has changed them yet.
      if (meeting.capacity === null || meeting.registration_seats < meeting.capacity) {
        return { status: meeting.registration_auto_confirm === 1 && !spam ? "confirmed" : "pending", email: folded };
      }
      if (meeting.registration_waitlist === 1) return { status: "waitlisted", email: folded };
      // Full, without a waiting list: someone registered already is told that rather than "full".
      if (await r.findActiveByEmail(meetingId, folded)) throw invalidInput({ email: [ALREADY_REGISTERED] });
      throw invalidInput({ page_path: [MEETING_FULL] });
    },

    /**
     * A registration refused because its address holds one already (decision 0060): the signed-in
     * person's own is in their members' area ("yours"); otherwise its link is mailed to that address
     * ("mailed"), never shown to whoever typed it. Null when it is gone meanwhile.
     */
    async alreadyRegistered(
      meetingId: number,
      email: string,
      userId: number | null,
    ): Promise<"yours" | "mailed" | null> {
      const found = await repo(db).findActiveByEmail(meetingId, foldEmail(email));
      if (!found) return null;
      if (userId !== null && found.user_id === userId) return "yours";
      const site: Site = await deps.settings.getAll();
      const mailed = await db.transaction().execute(async (trx) => {
        const meeting = await repo(trx).lockMeeting(meetingId);
        const row = await repo(trx).find(meetingId, found.id);
        if (!meeting || !row?.status || !REGISTRATION_ACTIVE.includes(row.status)) return false;
        await mailTo(trx, site, "already_registered", row, meeting);
        return true;
      });
      if (!mailed) return null;
      mail.deliverSoon();
      return "mailed";
    },

    /** Records the state a new registration arrived in (its history's first row), in its transaction. */
    arrived: (trx: Kysely<Database>, id: number, status: RegistrationStatus, by: RegistrationActor) =>
      record(trx, id, `registration_${status}`, by, null, false),

    /**
     * A confirmed meeting moved in time or place (decision 0058): the meetings admin service's save
     * calls the step `prepare` gives inside its transaction, and every confirmed registration gets
     * the updated invitation (METHOD:REQUEST, its UID, its SEQUENCE raised) in a mail that says
     * what changed. Pending and waitlisted ones get a mail that says what changed and where they
     * stand, with or without an account (decision 0068); declined and cancelled ones: nothing.
     */
    invitationUpdates: {
      async prepare() {
        // Read before the save's transaction: on SQLite its one connection is the transaction's.
        const settings = await deps.settings.getAll();
        return async (trx: Kysely<Database>, calendar: CalendarMeeting, change: InvitationChange) => {
          const site: Site = { ...settings, calendar };
          let sent = 0;
          for (let after = 0; ; ) {
            const rows = await repo(trx).confirmedAfter(calendar.id, after, UPDATE_BATCH);
            for (const row of rows) {
              await mailTo(trx, site, "updated", row, calendar, { invite: "REQUEST", change });
              sent += 1;
            }
            if (rows.length < UPDATE_BATCH) break;
            after = rows[rows.length - 1].id;
          }
          // Registrants still waiting for a place or its confirmation: told too, without an invitation (decision 0068).
          for (let after = 0; ; ) {
            const rows = await repo(trx).unconfirmedAfter(calendar.id, after, UPDATE_BATCH);
            for (const row of rows) {
              const status = row.status === "waitlisted" ? "waitlisted" : "pending";
              await mailTo(trx, site, "changed", row, calendar, { change, status });
              sent += 1;
            }
            if (rows.length < UPDATE_BATCH) return sent;
            after = rows[rows.length - 1].id;
          }
        };
      },
      committed: () => mail.deliverSoon(),
    } satisfies InvitationUpdates,

    /** After a submission's commit: mails go and the meeting's page shows the new places. */
    published: publish,

    confirm: (meetingId: number, id: number, by: RegistrationActor) => change(meetingId, id, "confirm", by),
    decline: (meetingId: number, id: number, by: RegistrationActor, reason?: string | null) =>
      change(meetingId, id, "decline", by, reason ?? null),
    cancel: (meetingId: number, id: number, by: RegistrationActor) => change(meetingId, id, "cancel", by),
    moveUp: (meetingId: number, id: number, by: RegistrationActor) => change(meetingId, id, "moveUp", by),

    /** Check-in at the door (true, now) or its undoing (false); declined and cancelled ones are not at the door. */
    async setAttended(meetingId: number, id: number, attended: boolean, by: RegistrationActor) {
      const updated = await db.transaction().execute(async (trx) => {
        const { row } = await open(trx, meetingId, id);
        if (row.status === "declined" || row.status === "cancelled") {
          throw invalidInput({ attended: [`A ${row.status} registration cannot be checked in.`] });
        }
        if ((row.attended_at !== null) !== attended) {
          await repo(trx).setAttended(row.id, attended ? clock().toISOString() : null);
          await record(trx, row.id, attended ? "registration_attended" : "registration_not_attended", by);
        }
        return (await repo(trx).find(meetingId, id)) as RegistrationRow;
      });
      return updated;
    },

    /**
     * The API's change (decision 0052): `status` confirmed, declined (with `reason`), cancelled, or
     * pending (a move up from the waiting list; a pending one stays as it is); `attended` checks in or
     * out. Both may come together: the state first.
     */
    async apply(
      meetingId: number,
      id: number,
      input: { status?: "pending" | "confirmed" | "declined" | "cancelled"; reason?: string; attended?: boolean },
      by: RegistrationActor,
    ): Promise<RegistrationRow> {
      if (input.status === undefined && input.attended === undefined) {
        throw invalidInput({ status: ["Send a status, or attended."] });
      }
      let row: RegistrationRow | null = null;
      if (input.status === "confirmed") row = await change(meetingId, id, "confirm", by);
      if (input.status === "declined") row = await change(meetingId, id, "decline", by, input.reason ?? null);
      if (input.status === "cancelled") row = await change(meetingId, id, "cancel", by);
      if (input.status === "pending") {
        const current = await repo(db).find(meetingId, id);
        row = current?.status === "pending" ? current : await change(meetingId, id, "moveUp", by);
      }
      if (input.attended !== undefined) {
        row = await this.setAttended(meetingId, id, input.attended, by);
      }
      if (!row) throw new AppError("not_found", REGISTRATION_NOT_FOUND);
      return row;
    },

    /** The admin's list of one meeting's registrations: a page, how many are in each state, the capacity. */
    async list(meetingId: number, filter: RegistrationFilter, page: number) {
      const r = repo(db);
      const meeting = await r.meeting(meetingId);
      if (!meeting) throw new AppError("not_found", "Meeting not found.");
      const [rows, counts] = await Promise.all([
        r.list(meetingId, filter, (page - 1) * REGISTRATIONS_PER_PAGE, REGISTRATIONS_PER_PAGE),
        r.countsByStatus(meetingId, filter.search),
      ]);
      // The total is in the counts per state (matching the search): one scan fewer.
      const total = filter.status ? counts[filter.status] : Object.values(counts).reduce((a, b) => a + b, 0);
      return { ...pageOf(rows, page, REGISTRATIONS_PER_PAGE, total), counts, capacity: meeting.capacity };
    },

    get: async (meetingId: number, id: number) => {
      const row = await repo(db).find(meetingId, id);
      if (!row) throw new AppError("not_found", REGISTRATION_NOT_FOUND);
      return row;
    },

    /**
     * All of a meeting's registrations in these states (every state by default), by name: the
     * CSV export, the printed attendee list and badges (decision 0055).
     */
    all: (meetingId: number, statuses: readonly RegistrationStatus[] = REGISTRATION_STATUSES) =>
      repo(db).allOf(meetingId, statuses),

    /** How many of the meeting's registrations are in each state, every state named. */
    counts: (meetingId: number) => repo(db).countsByStatus(meetingId, ""),

    /** The door's list (check-in): pending and confirmed registrations matching the search, by name, at most `limit`. */
    atTheDoor: (meetingId: number, search: string, limit: number) =>
      repo(db).allOf(meetingId, SEAT_HOLDING, search, limit),

    /** Seats taken (pending and confirmed) per meeting, for pages and the admin's lists. */
    seatsTaken: (meetingIds: number[]) => repo(db).seatsTakenBy(meetingIds),

    /**
     * 'My registrations' (issue 32): the signed-in person's registrations for meetings not yet
     * over, by their account or by their address. The day is UTC's less one, so that a meeting
     * still running in a zone west of UTC is kept.
     */
    mine: (person: Person, only?: number) =>
      repo(db).ofPerson(person.id, foldEmail(person.email), addDays(dateIn(clock(), "UTC"), -1), only),

    /**
     * The person cancels one of their own registrations, as their link would (the freed seat goes to
     * the waiting list in the same transaction). Another person's registration is not found (404).
     */
    async cancelMine(person: Person, id: number): Promise<RegistrationRow & { meeting_title: string }> {
      const [own] = await this.mine(person, id);
      if (!own || own.meeting_id === null) throw new AppError("not_found", REGISTRATION_NOT_FOUND);
      const row = await change(own.meeting_id, id, "cancel", { id: person.id, name: person.name });
      return { ...row, meeting_title: own.title };
    },
  };
}
export type RegistrationsService = ReturnType<typeof createRegistrationsService>;
/** A registration as the service answers it (the screens' row). */
export type { PersonRegistration, RegistrationRow };
