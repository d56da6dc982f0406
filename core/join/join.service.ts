import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { isUniqueViolation } from "../../lib/db-errors";
import { AppError, isAppError } from "../../lib/errors";
import { pageOf } from "../../lib/pagination";
import { longDateIn } from "../../lib/time-zones";
import { invalidInput } from "../../lib/validation";
import type { GroupsSeen } from "../access/access";
import type { AuditService } from "../audit/audit.service";
import type { NewMailAttachment } from "../mail/mail.schema";
import type { MailService, NewMail } from "../mail/mail.service";
import { registrationState } from "../meetings/meetings.schema";
import type { RateLimitService } from "../rate-limit/rate-limit.service";
import type { SettingsService } from "../settings/settings.service";
import { captchaFaultOf } from "./captcha";
import { readFormTime, signFormTime } from "./form-time";
import { createJoinRepository, type JoinRepository, type NewJoinRequest } from "./join.repository";
import {
  type FormKind,
  type JoinListQuery,
  type JoinRequestList,
  type JoinSubmission,
  type MessageSubmission,
  requestKindOf,
  type SpamReason,
} from "./join.schema";
import {
  ALREADY_REGISTERED,
  ALREADY_REGISTERED_MAILED,
  ALREADY_REGISTERED_YOURS,
  CAPTCHA_RETRY_SECONDS,
  captchaMisconfiguredText,
  captchaUnreachableText,
  FORM_KINDS,
  MIN_FILL_SECONDS,
  PROOF_EXPIRED,
  PROOF_INVALID,
  PROOF_REPLAYED,
  PROOF_UNSOLVED,
  type RegistrationStatus,
  THROWAWAY_EMAIL,
  waitText,
} from "./join.values";
import type { ProofOfWork, ProofRefusal } from "./proof-of-work";
import type { RegistrationInvitations } from "./registration-invitations";
import type { RegistrationLinks } from "./registration-links";
import { NOT_QUOTED, registrationMails } from "./registration-mails";
import type { RegistrationsService } from "./registrations.service";
import { isThrowawayAddress } from "./throwaway-mail";

/** A person takes longer than this to fill in a form; a script does not. */
export const MIN_FILL_MS = MIN_FILL_SECONDS * 1000;
const PER_PAGE = 25;
const RATE_WINDOW_SECONDS = 3600;

/**
 * A request is stored, possibly marked as probable spam (kept and shown as such, never dropped; decision 0039);
 * a meeting's registration says the state it arrived in (decision 0052).
 */
export type JoinOutcome = {
  stored: true;
  id: number;
  spam: SpamReason | null;
  registration?: { status: RegistrationStatus } | null;
};

/** The refusal `place` gives an address that holds a registration of the meeting already. */
const isAlreadyRegistered = (error: unknown) =>
  isAppError(error) && error.details.errors?.email?.[0] === ALREADY_REGISTERED;

/** Finds the meeting a registration page is about, as this sender may see it (the meetings area supplies it). */
export type MeetingLookup = (
  pagePath: string,
  viewer: { signedIn: boolean; groups?: GroupsSeen },
) => Promise<(Parameters<typeof registrationState>[0] & { id: number; title: string }) | "members-only" | null>;

/** Checks a captcha token (reCAPTCHA when configured). */
export type CaptchaCheck = { required: boolean; verify(token: string, ip: string | null): Promise<boolean> };

/**
 * The form's context: the page, the honeypot, when it was shown (signed by us), the captcha token
 * and the proof of work.
 */
type FormContext = Pick<JoinSubmission, "page_path" | "website" | "started_at" | "captcha_token" | "altcha">;

/** What the checks found: probable spam or not, and when the form was shown (as we signed it), if known. */
type Admission = { spam: SpamReason | null; shownAt: number | null };

/** What the sender is told when the proof of work does not pass, by reason (decision 0077). */
const PROOF_REFUSALS: Record<ProofRefusal, string> = {
  unsolved: PROOF_UNSOLVED,
  invalid: PROOF_INVALID,
  expired: PROOF_EXPIRED,
  replayed: PROOF_REPLAYED,
};

/**
 * `trusted`: a signed-in API client, which neither the captcha nor the shown-at time applies to
 * (no form was shown to it); `signedIn`: a signed-in sender, who may register for members-only meetings.
 */
type Client = {
  ip: string | null;
  trusted?: boolean;
  signedIn?: boolean;
  /** The sender's working groups (core/access groupsOf): who may register for a group's meeting. */
  groups?: GroupsSeen;
  userId?: number | null;
};

/** SPEC §4 'Contact form', §7 '/api/join': join and registration requests and messages, stored first, then mailed. */
export function createJoinService(deps: {
  repository: JoinRepository;
  /** Runs work in one transaction (a request with its mails). */
  transaction: <T>(work: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;
  mail: MailService;
  settings: SettingsService;
  rateLimit: RateLimitService;
  clock: Clock;
  ratePerHour: number;
  /** The key that signs the forms' shown-at time (core/secrets: the same in every process). */
  formKey: () => Promise<Buffer>;
  meetingFor?: MeetingLookup;
  /** A meeting's seats and states (decision 0052). */
  registrations?: Pick<RegistrationsService, "place" | "arrived" | "published" | "alreadyRegistered">;
  /** Issues the registrant's link that their mails carry (registration-links.ts). */
  registrationLinks?: Pick<RegistrationLinks, "issue">;
  /** The calendar invitation in a registration's confirmation, when the meeting confirms at once. */
  registrationInvitations?: Pick<RegistrationInvitations, "prepare" | "attachment">;
  captcha?: CaptchaCheck;
  /**
   * The proof-of-work check (ALTCHA, decision 0077): asked for when the form sends its field and no
   * captcha is configured (reCAPTCHA replaces it).
   */
  proofOfWork?: Pick<ProofOfWork, "check" | "prepare">;
  /**
   * The Privacy Policy page's revision in force at a time (ISO), or null when it had none: the
   * consent record of each request (decision 0077).
   */
  privacyRevisionAt?: (at: string) => Promise<number | null>;
  /** The audit log (decision 0074): the secretariat's marks and deletions, in their transactions. */
  audit?: Pick<AuditService, "record">;
}) {
  const { repository, mail, settings, clock } = deps;

  async function checkCaptcha(token: string | undefined, ip: string | null): Promise<void> {
    let passed = false;
    try {
      passed = token ? (await deps.captcha?.verify(token, ip)) === true : false;
    } catch (error) {
      const fault = captchaFaultOf(error);
      if (!fault) throw error;
      const message =
        fault === "unreachable"
          ? captchaUnreachableText(CAPTCHA_RETRY_SECONDS)
          : await settings
              .getAll()
              .then((site) => captchaMisconfiguredText({ email: site["site.email"], phone: site["site.phone"] }));
      const refusal = new AppError("unavailable", message, {
        errors: { captcha_token: [message] },
        // Trying again helps only when the service was away, not when it refuses the site's key.
        ...(fault === "unreachable" ? { retryAfter: CAPTCHA_RETRY_SECONDS } : {}),
      });
      refusal.cause = error;
      throw refusal;
    }
    if (!passed) throw invalidInput({ captcha_token: ["The spam check failed. Please try again."] });
  }

  /**
   * The checks every form's request passes before it is stored (decision 0039): the per-address
   * limit (429 with the wait, counted first, so that neither spam nor a flood of captcha tokens
   * goes unbounded), then the captcha. What the honeypot or the shown-at time catches is neither
   * refused nor dropped: it is kept, marked as probable spam, and answered like any other request.
   * The shown-at time counts only as this site signed it for this form, on this server's clock.
   * The proof of work (decision 0077) is asked for only when the form sent its field (JavaScript ran);
   * without it (a plain POST) the other checks decide, as before. A captcha replaces it.
   */
  async function admit(form: FormKind, context: FormContext, client: Client): Promise<Admission> {
    try {
      await deps.rateLimit.consume({
        key: `join:ip:${client.ip ?? "unknown"}`,
        max: deps.ratePerHour,
        windowSeconds: RATE_WINDOW_SECONDS,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === "rate_limited") {
        const retryAfter = Number(error.details.retryAfter ?? 60);
        throw new AppError(
          "rate_limited",
          `Too many requests from your network. Please try again ${waitText(retryAfter)}.`,
          { retryAfter },
        );
      }
      throw error;
    }
    if (deps.captcha?.required && !client.trusted) await checkCaptcha(context.captcha_token, client.ip);
    else if (deps.proofOfWork && !client.trusted && context.altcha !== undefined) {
      const refusal = await deps.proofOfWork.check(context.altcha);
      if (refusal) throw invalidInput({ altcha: [PROOF_REFUSALS[refusal]] });
    }
    const shownAt = readFormTime(await deps.formKey(), form, context.started_at);
    if (context.website?.trim()) return { spam: "honeypot", shownAt };
    if (client.trusted) return { spam: null, shownAt };
    if (shownAt === null) return { spam: "no_form_time", shownAt };
    return { spam: clock().getTime() - shownAt < MIN_FILL_MS ? "too_fast" : null, shownAt };
  }

  /**
   * The consent record (decision 0077): the Privacy Policy's revision in force when the form was
   * shown, and when that was; for a client that sent no signed time, the time of arrival.
   */
  async function privacyRecord(shownAt: number | null, arrivedAt: Date) {
    const at = new Date(shownAt ?? arrivedAt.getTime()).toISOString();
    return { privacy_revision: (await deps.privacyRevisionAt?.(at)) ?? null, privacy_shown_at: at };
  }

  /** The request and its mails are stored together, then sent once the transaction commits. */
  async function keep(row: NewJoinRequest, mailsFor: (id: number) => NewMail[]): Promise<number> {
    const id = await deps.transaction(async (trx) => {
      const stored = await createJoinRepository(trx).insert(row);
      await mail.enqueue(mailsFor(stored), trx);
      return stored;
    });
    mail.deliverSoon();
    return id;
  }

  function notificationSubject(spam: SpamReason | null, subject: string): string {
    return `${spam ? "Probable spam: " : ""}${subject}`;
  }

  return {
    /**
     * Makes (or reads) the forms' keys at start, so that rendering a page only ever reads them: a page
     * must render on a full disk (decision 0014), and a key's first write could not.
     */
    prepare: async (): Promise<void> => {
      await deps.formKey();
      await deps.proofOfWork?.prepare();
    },

    /** Signed shown-at times of both forms, issued now, for the page being rendered (decision 0039). */
    async formTimes(): Promise<Record<FormKind, string>> {
      const key = await deps.formKey();
      const now = clock().getTime();
      return Object.fromEntries(FORM_KINDS.map((kind) => [kind, signFormTime(key, kind, now)])) as Record<
        FormKind,
        string
      >;
    },

    async submit(input: JoinSubmission, client: Client): Promise<JoinOutcome> {
      const { page_path, website, started_at, captcha_token, altcha, note, ...fields } = input;
      // A field to correct is said before the checks count the request or spend its proof of work.
      if (isThrowawayAddress(fields.email)) throw invalidInput({ email: [THROWAWAY_EMAIL] });
      const { spam, shownAt } = await admit("join", { page_path, website, started_at, captcha_token, altcha }, client);
      const kind = requestKindOf(page_path);
      const found =
        kind === "registration" && deps.meetingFor
          ? await deps.meetingFor(page_path ?? "", { signedIn: client.signedIn ?? false, groups: client.groups ?? [] })
          : null;
      // A members-only meeting's registrations are its members' alone: to anyone else it is not there (its page is a 404).
      if (found === "members-only") throw new AppError("not_found", "Meeting not found.");
      const meeting = found;
      if (meeting) {
        // Closed, past its closing day or over; a full meeting is judged with its row locked (registrations.place).
        // Probable spam holds its seat too: whoever was told "registered" is (decision 0039).
        const state = registrationState(meeting, 0, clock());
        if (!state.open) throw invalidInput({ page_path: [state.message] });
      }
      const at = clock();
      const now = at.toISOString();
      const privacy = await privacyRecord(shownAt, at);
      const site = await settings.getAll();
      const name = site["site.name"];
      const what =
        kind === "registration" ? `registration${meeting ? ` for ${meeting.title}` : ""}` : "membership request";
      const mailsFor = (
        id: number,
        registration: RegistrationStatus | null,
        manageUrl: string | null,
        invitation: NewMailAttachment | null,
      ) => {
        const queued: NewMail[] = [];
        // A filled honeypot is a script's work: nobody is mailed on its word (the address may be anyone's).
        if (spam === "honeypot") return queued;
        // A registration is acknowledged even as probable spam: the page promised the e-mail (SPEC §8) and
        // the seat is held. Other probable spam is not: its address may be anyone's.
        const acknowledged = !spam || kind === "registration";
        if (site["site.email"]) {
          const summary = [
            `Company: ${fields.company_name}`,
            `Representative: ${fields.representative_name}`,
            `E-mail: ${fields.email}`,
            `Phone: ${fields.phone_number}`,
            ...(registration ? [`State: ${registration}`] : []),
            ...(kind === "registration" && note ? [`Note: ${note}`] : []),
            `Sent from: ${page_path ?? "(the API)"}`,
            `Received: ${now}`,
          ].join("\n");
          queued.push({
            join_request_id: id,
            purpose: "notification",
            to_address: site["site.email"],
            reply_to: fields.email,
            subject: notificationSubject(
              spam,
              `New ${what}${registration === "waitlisted" ? " (waiting list)" : ""}: ${fields.company_name}`,
            ),
            body_text: `A new ${what} arrived on the website.${acknowledged ? "" : " It looks like spam: the sender was not sent an acknowledgement."}\n\n${summary}\n\nSee everything that arrived in the admin area under Inbox.`,
          });
        }
        if (!acknowledged) return queued;
        const date = longDateIn(at, site["site.timezone"]);
        if (kind === "registration") {
          const context = {
            registrationId: id,
            meetingId: meeting?.id ?? null,
            meetingTitle: meeting?.title ?? null,
            to: fields.email,
            siteName: name,
            siteEmail: site["site.email"],
            receivedOn: date,
            manageUrl,
            invitation,
          };
          const mailKind = registration === "confirmed" || registration === "waitlisted" ? registration : "received";
          queued.push(registrationMails[mailKind](context));
          return queued;
        }
        queued.push({
          join_request_id: id,
          purpose: "acknowledgement",
          to_address: fields.email,
          reply_to: site["site.email"] || null,
          subject: `Thank you for contacting ${name}`,
          body_text: `Hello,\n\nThank you for your interest in ${name}. We received your membership request on ${date} and will get in touch with you soon.\n\n${NOT_QUOTED}\n\nKind regards,\n${name}`,
        });
        return queued;
      };
      const row: NewJoinRequest = {
        kind,
        meeting_id: meeting?.id ?? null,
        ...fields,
        page_path,
        ip: client.ip,
        created_at: now,
        subject: null,
        message: null,
        spam_reason: spam,
        // A membership application starts new; a registration keeps its own flow (decisions 0047, 0052).
        status: kind === "join" ? "new" : null,
        registration_status: kind === "registration" ? "pending" : null,
        registration_email: null,
        note: kind === "registration" ? (note ?? null) : null,
        user_id: client.userId ?? null,
        attended_at: null,
        ...privacy,
        anonymised_at: null,
      };
      // A meeting that confirms at once sends its invitation with the confirmation: read before the transaction.
      const calendar =
        meeting?.registration_settings.auto_confirm && deps.registrationInvitations
          ? await deps.registrationInvitations.prepare(meeting.id)
          : null;
      const placed = await deps
        .transaction(async (trx) => {
          let registration: RegistrationStatus | null = null;
          if (meeting && deps.registrations) {
            const seat = await deps.registrations.place(trx, meeting.id, fields.email, spam);
            registration = seat.status;
            row.registration_status = seat.status;
            row.registration_email = seat.email;
          }
          let id: number;
          try {
            id = await createJoinRepository(trx).insert(row);
          } catch (error) {
            // Only a race the meeting's lock did not cover (none known) gets here: the same answer.
            if (isUniqueViolation(error)) throw invalidInput({ email: [ALREADY_REGISTERED] });
            throw error;
          }
          if (registration && deps.registrations) {
            await deps.registrations.arrived(trx, id, registration, {
              id: client.userId ?? null,
              name: fields.representative_name,
            });
          }
          const manageUrl =
            registration && meeting ? ((await deps.registrationLinks?.issue(trx, id, meeting)) ?? null) : null;
          const invitation =
            registration === "confirmed" && spam !== "honeypot" && deps.registrationInvitations
              ? await deps.registrationInvitations.attachment(
                  trx,
                  calendar,
                  { id, representative_name: fields.representative_name, email: fields.email },
                  "REQUEST",
                  site,
                )
              : null;
          await mail.enqueue(mailsFor(id, registration, manageUrl, invitation), trx);
          return { id, registration };
        })
        .catch(async (error: unknown) => {
          // The address holds a registration already: point to it (decision 0060), never a second seat.
          if (!meeting || !deps.registrations || !isAlreadyRegistered(error)) throw error;
          const where = spam
            ? null
            : await deps.registrations.alreadyRegistered(meeting.id, fields.email, client.userId ?? null);
          if (where === "yours") throw invalidInput({ email: [ALREADY_REGISTERED_YOURS] });
          if (where === "mailed") throw invalidInput({ email: [ALREADY_REGISTERED_MAILED] });
          throw error;
        });
      if (placed.registration && deps.registrations) await deps.registrations.published();
      else mail.deliverSoon();
      return {
        stored: true,
        id: placed.id,
        spam,
        registration: placed.registration ? { status: placed.registration } : null,
      };
    },

    /**
     * A message from the contact form of /contact or /feedback-forum (decision 0039): the join
     * form's spam checks and limit, kept in the inbox as kind 'message', mailed to the secretariat
     * and, unless it looks like spam, acknowledged to the sender without quoting it.
     */
    async sendMessage(input: MessageSubmission, client: Client): Promise<JoinOutcome> {
      const { page_path, website, started_at, captcha_token, altcha, ...fields } = input;
      const { spam, shownAt } = await admit(
        "message",
        { page_path, website, started_at, captcha_token, altcha },
        client,
      );
      const at = clock();
      const now = at.toISOString();
      const privacy = await privacyRecord(shownAt, at);
      const site = await settings.getAll();
      const name = site["site.name"];
      const mailsFor = (id: number): NewMail[] => {
        if (spam === "honeypot") return [];
        const queued: NewMail[] = [];
        if (site["site.email"]) {
          const summary = [
            `From: ${fields.name} <${fields.email}>`,
            `Subject: ${fields.subject}`,
            `Sent from: ${page_path ?? "(the API)"}`,
            `Received: ${now}`,
            "",
            fields.message,
          ].join("\n");
          queued.push({
            join_request_id: id,
            purpose: "notification",
            to_address: site["site.email"],
            reply_to: fields.email,
            subject: notificationSubject(spam, `Message from the website: ${fields.subject}`),
            body_text: `A message arrived through the website's contact form.${spam ? " It looks like spam: the sender was not sent an acknowledgement." : ""}\n\n${summary}\n\nSee everything that arrived in the admin area under Inbox.`,
          });
        }
        if (spam) return queued;
        queued.push({
          join_request_id: id,
          purpose: "acknowledgement",
          to_address: fields.email,
          reply_to: site["site.email"] || null,
          subject: `We received your message to ${name}`,
          body_text: `Hello,\n\nThank you for writing to ${name}. We received your message on ${longDateIn(at, site["site.timezone"])} and will get in touch with you soon.\n\n${NOT_QUOTED}\n\nKind regards,\n${name}`,
        });
        return queued;
      };
      const id = await keep(
        {
          kind: "message",
          meeting_id: null,
          company_name: null,
          representative_name: fields.name,
          email: fields.email,
          phone_number: null,
          subject: fields.subject,
          message: fields.message,
          page_path,
          ip: client.ip,
          created_at: now,
          spam_reason: spam,
          status: null,
          registration_status: null,
          registration_email: null,
          note: null,
          user_id: client.userId ?? null,
          attended_at: null,
          ...privacy,
          anonymised_at: null,
        },
        mailsFor,
      );
      return { stored: true, id, spam };
    },

    async list(query: JoinListQuery): Promise<JoinRequestList> {
      const [rows, total] = await Promise.all([
        repository.list(query, (query.page - 1) * PER_PAGE, PER_PAGE),
        repository.count(query),
      ]);
      const ids = rows.map((r) => r.id);
      const [mails, meetings, events] = await Promise.all([
        mail.forJoinRequests(ids),
        repository.meetingsWithRequests(),
        repository.eventsFor(ids),
      ]);
      // The folded address is the uniqueness key and the sequence the calendar invitation's: neither is shown.
      const data = rows.map(({ registration_email: _key, invitation_sequence: _sequence, ...row }) => ({
        ...row,
        mails: mails.filter((m) => m.join_request_id === row.id),
        history: events
          .filter((e) => e.join_request_id === row.id)
          .map((e) => ({
            id: e.id,
            event: e.event,
            at: e.created_at,
            by: e.user_name,
            user_id: e.user_id,
            company_id: e.company_id,
            company_name: e.company_name,
            reason: e.reason,
          })),
      }));
      return { ...pageOf(data, query.page, PER_PAGE, total), query, meetings };
    },

    /** Requests not yet handled, for the admin home. */
    countOpen: () => repository.count({ status: "open", search: "" }),

    /** Every request matching the filter, for the CSV export. */
    async exportRows(query: JoinListQuery) {
      return repository.list(query, 0, 100_000);
    },

    async setHandled(id: number, handled: boolean): Promise<void> {
      await deps.transaction(async (trx) => {
        if (!(await createJoinRepository(trx).setHandled(id, handled ? clock().toISOString() : null))) {
          throw new AppError("not_found", "Request not found.");
        }
        await deps.audit?.record(
          {
            action: handled ? "handled" : "not_handled",
            entity: "request",
            entityId: id,
            summary: `Request #${id} marked ${handled ? "handled" : "not handled"}`,
            after: { handled },
          },
          trx,
        );
      });
    },

    /**
     * The secretariat judged a request marked as probable spam to be a person's: the mark goes.
     * Nothing is mailed (the secretariat answers the person itself); a request not marked stays as it is.
     */
    async markNotSpam(id: number): Promise<void> {
      await deps.transaction(async (trx) => {
        if (!(await createJoinRepository(trx).clearSpam(id))) throw new AppError("not_found", "Request not found.");
        await deps.audit?.record(
          { action: "not_spam", entity: "request", entityId: id, summary: `Request #${id} marked as not spam` },
          trx,
        );
      });
    },

    /** Deletes a request and its mail history; a registration's seat is free again. */
    async remove(id: number): Promise<void> {
      const removed = await deps.transaction(async (trx) => {
        const gone = await createJoinRepository(trx).remove(id);
        if (gone) {
          await deps.audit?.record(
            { action: "delete", entity: "request", entityId: id, summary: `Request #${id} deleted` },
            trx,
          );
        }
        return gone;
      });
      if (!removed) throw new AppError("not_found", "Request not found.");
    },
  };
}
export type JoinService = ReturnType<typeof createJoinService>;
export type { JoinListQuery };
