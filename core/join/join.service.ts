import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { pageOf } from "../../lib/pagination";
import { invalidInput } from "../../lib/validation";
import type { MailService, NewMail } from "../mail/mail.service";
import { registrationState } from "../meetings/meetings.schema";
import type { RateLimitService } from "../rate-limit/rate-limit.service";
import type { SettingsService } from "../settings/settings.service";
import { createJoinRepository, type JoinRepository } from "./join.repository";
import {
  type JoinFields,
  type JoinListQuery,
  type JoinRequestList,
  type JoinSubmission,
  requestKindOf,
} from "./join.schema";

/** A person takes longer than this to fill four fields; a script does not. */
export const MIN_FILL_MS = 3000;
const PER_PAGE = 25;
const RATE_WINDOW_SECONDS = 3600;

export type JoinOutcome = { stored: true; id: number } | { stored: false; reason: "spam" };

/** Finds the meeting a registration page is about, as this sender may see it (the meetings area supplies it). */
export type MeetingLookup = (
  pagePath: string,
  viewer: { signedIn: boolean },
) => Promise<(Parameters<typeof registrationState>[0] & { id: number; title: string }) | null>;

/** Checks a captcha token (reCAPTCHA when configured). */
export type CaptchaCheck = { required: boolean; verify(token: string, ip: string | null): Promise<boolean> };

function details(fields: JoinFields, extra: [string, string][]): string {
  const rows: [string, string][] = [
    ["Company", fields.company_name],
    ["Representative", fields.representative_name],
    ["E-mail", fields.email],
    ["Phone", fields.phone_number],
    ...extra,
  ];
  return rows.map(([label, value]) => `${label}: ${value}`).join("\n");
}

/** SPEC §4 'Contact form', §7 '/api/join': join and registration requests, stored first, then mailed. */
export function createJoinService(deps: {
  repository: JoinRepository;
  /** Runs work in one transaction (a request with its mails). */
  transaction: <T>(work: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;
  mail: MailService;
  settings: SettingsService;
  rateLimit: RateLimitService;
  clock: Clock;
  ratePerHour: number;
  meetingFor?: MeetingLookup;
  captcha?: CaptchaCheck;
}) {
  const { repository, mail, settings, clock } = deps;

  return {
    /**
     * `client.trusted`: a signed-in API client, which the captcha does not apply to;
     * `client.signedIn`: a signed-in sender, who may register for members-only meetings.
     */
    async submit(
      input: JoinSubmission,
      client: { ip: string | null; trusted?: boolean; signedIn?: boolean },
    ): Promise<JoinOutcome> {
      const { page_path, website, started_at, captcha_token, ...fields } = input;
      const context = { page_path, website, started_at, captcha_token };
      if (context.website?.trim()) return { stored: false, reason: "spam" };
      if (context.started_at !== undefined && clock().getTime() - context.started_at < MIN_FILL_MS) {
        return { stored: false, reason: "spam" };
      }
      // Counted before the captcha check, so that a flood cannot make us call the verifier without end.
      await deps.rateLimit.consume(
        { key: `join:ip:${client.ip ?? "unknown"}`, max: deps.ratePerHour, windowSeconds: RATE_WINDOW_SECONDS },
        "Too many requests from your network. Please try again later.",
      );
      if (deps.captcha?.required && !client.trusted) {
        const passed = context.captcha_token ? await deps.captcha.verify(context.captcha_token, client.ip) : false;
        if (!passed) {
          throw invalidInput({ captcha_token: ["The spam check failed. Please try again."] });
        }
      }

      const kind = requestKindOf(context.page_path);
      const meeting =
        kind === "registration" && deps.meetingFor
          ? await deps.meetingFor(context.page_path ?? "", { signedIn: client.signedIn ?? false })
          : null;
      if (meeting) {
        const state = registrationState(meeting, await repository.countForMeeting(meeting.id), clock());
        if (!state.open) throw invalidInput({ page_path: [state.message] });
      }
      const now = clock().toISOString();
      const site = await settings.getAll();
      const mailsFor = (id: number) => {
        const name = site["site.name"];
        const what =
          kind === "registration" ? `registration${meeting ? ` for ${meeting.title}` : ""}` : "membership request";
        const summary = details(fields, [
          ["Sent from", context.page_path ?? "(the API)"],
          ["Received", now],
        ]);
        const queued: NewMail[] = [];
        if (site["site.email"]) {
          queued.push({
            join_request_id: id,
            purpose: "notification",
            to_address: site["site.email"],
            reply_to: fields.email,
            subject: `New ${what}: ${fields.company_name}`,
            body_text: `A new ${what} arrived on the website.\n\n${summary}\n\nSee all requests in the admin area under Requests.`,
          });
        }
        const greeting = `Dear ${fields.representative_name},`;
        const body_text =
          kind === "registration"
            ? `${greeting}\n\nThank you for registering${meeting ? ` for ${meeting.title}` : ""}. These are the registration details we received:\n\n${details(fields, [])}\n\nThe secretariat will confirm your registration within 48 hours. If anything above is wrong, reply to this e-mail.\n\nKind regards,\n${name}`
            : `${greeting}\n\nThank you for your interest in ${name}. Your message was sent successfully and we will get in touch with you soon.\n\nWhat you sent us:\n\n${details(fields, [])}\n\nKind regards,\n${name}`;
        queued.push({
          join_request_id: id,
          purpose: "acknowledgement",
          to_address: fields.email,
          reply_to: site["site.email"] || null,
          subject:
            kind === "registration"
              ? `Your registration${meeting ? `: ${meeting.title}` : ""}`
              : `Thank you for contacting ${name}`,
          body_text,
        });
        return queued;
      };
      // The request and its mails are stored together: no request without its notification, no
      // acknowledgement of a request that was not kept. They are sent once the transaction commits.
      const id = await deps.transaction(async (trx) => {
        const stored = await createJoinRepository(trx).insert({
          kind,
          meeting_id: meeting?.id ?? null,
          ...fields,
          page_path: context.page_path,
          ip: client.ip,
          created_at: now,
        });
        await mail.enqueue(mailsFor(stored), trx);
        return stored;
      });
      mail.deliverSoon();
      return { stored: true, id };
    },

    async list(query: JoinListQuery): Promise<JoinRequestList> {
      const [rows, total] = await Promise.all([
        repository.list(query, (query.page - 1) * PER_PAGE, PER_PAGE),
        repository.count(query),
      ]);
      const [mails, meetings] = await Promise.all([
        mail.forJoinRequests(rows.map((r) => r.id)),
        repository.meetingsWithRequests(),
      ]);
      const data = rows.map((row) => ({ ...row, mails: mails.filter((m) => m.join_request_id === row.id) }));
      return { ...pageOf(data, query.page, PER_PAGE, total), query, meetings };
    },

    /** How many registrations each meeting has (meetings without any are left out). */
    registrationCounts: (meetingIds: number[]) => repository.countsForMeetings(meetingIds),

    /** Requests not yet handled, for the admin home. */
    countOpen: () => repository.count({ status: "open", search: "" }),

    /** Every request matching the filter, for the CSV export. */
    async exportRows(query: JoinListQuery) {
      return repository.list(query, 0, 100_000);
    },

    async setHandled(id: number, handled: boolean): Promise<void> {
      if (!(await repository.setHandled(id, handled ? clock().toISOString() : null))) {
        throw new AppError("not_found", "Request not found.");
      }
    },

    async remove(id: number): Promise<void> {
      if (!(await repository.remove(id))) throw new AppError("not_found", "Request not found.");
    },
  };
}
export type JoinService = ReturnType<typeof createJoinService>;
export type { JoinListQuery };
