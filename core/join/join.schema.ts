import { z } from "zod";
import { flag, given } from "../../lib/form-fields";
import { lenientPageSchema, pageSchema } from "../../lib/pagination";
import { cleanTitle } from "../../lib/text";
import { flagSchema, isEmailAddress, isPhoneNumber } from "../../lib/validation";
import { mailStatusSchema } from "../mail/mail.schema";
import { COUNTRY_MESSAGE, MEMBERSHIP_TYPES, NAME_REQUIRED, TYPE_MESSAGE } from "../members/members.schema";
import {
  INBOX_KINDS,
  JOIN_MAX_LENGTHS,
  JOIN_REQUEST_EVENTS,
  MESSAGE_MAX_LENGTHS,
  NOTE_MAX,
  REGISTRATION_STATUSES,
  SPAM_REASONS,
} from "./join.values";

/**
 * SPEC §5 'Join / registration form': one schema for the browser (errors as
 * the visitor types) and the server (POST /api/join), with the spec's messages.
 * The form's texts, limits and kinds live in join.values.ts (no Zod), for
 * every page's footer form (decision 0028); they are re-exported here.
 */
export {
  FORM_KINDS,
  type FormKind,
  INBOX_KINDS,
  type InboxKind,
  JOIN_FIELDS,
  JOIN_KINDS,
  JOIN_MAX_LENGTHS,
  JOIN_SUMMARY,
  JOIN_THANKS,
  type JoinKind,
  MESSAGE_FIELDS,
  MESSAGE_FORM_PAGES,
  MESSAGE_MAX_LENGTHS,
  REGISTRATION_THANKS,
  requestKindOf,
  SPAM_REASONS,
  type SpamReason,
  thanksFor,
} from "./join.values";

const required = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .max(max, { error: `At most ${max} characters.` });

export const joinSchema = z.object({
  company_name: required("Company Name is required.", JOIN_MAX_LENGTHS.company_name),
  representative_name: required("Representative name is required.", JOIN_MAX_LENGTHS.representative_name),
  email: required("Email is required.", JOIN_MAX_LENGTHS.email).refine(isEmailAddress, {
    error: "Email is not valid.",
  }),
  phone_number: required("Phone number is required.", JOIN_MAX_LENGTHS.phone_number).refine(isPhoneNumber, {
    error: "Phone format is incorrect.",
  }),
});
export type JoinFields = z.output<typeof joinSchema>;

/**
 * What the web form adds: the page it was sent from and the anti-spam fields
 * (absent for API clients). Nothing here is the sender's to correct, so an odd
 * value is dropped rather than refused: an over-long page is no page, an
 * over-long honeypot still counts as filled, an over-long token fails the captcha.
 */
export const joinContextSchema = z.object({
  page_path: z
    .string()
    .trim()
    .max(300)
    .optional()
    .transform((v) => (v && /^\/(?!\/)/.test(v) ? v : null))
    .catch(null),
  /** Honeypot: hidden from people, filled by bots. */
  website: z.string().max(500).optional().catch("filled"),
  started_at: z
    .string()
    .max(200)
    .meta({
      description:
        "When the form was shown: the value the site issued when it rendered the form (the `started_at` field " +
        "of its HTML), sent back as it was, unread and unchanged. The server checks its signature and " +
        "judges the time between showing and sending on its own clock. A request sent without it, with " +
        "any other value (a number of milliseconds, as before), or within 3 seconds of the form being " +
        "shown is still answered and kept, but marked as probable spam for the secretariat, and no " +
        "acknowledgement is mailed for it (a registration's excepted). A signed-in API client (Bearer) " +
        "need not send it.",
    })
    .optional()
    .catch(undefined),
  captcha_token: z.string().max(4000).optional().catch(undefined),
  altcha: z
    .string()
    .max(4000)
    .meta({
      description:
        "The proof-of-work check's answer (ALTCHA, decision 0077): what the site's widget writes into its hidden " +
        "`altcha` field after solving a challenge from GET /api/altcha/challenge. When it is sent, it must " +
        "be a solution of an unexpired challenge the site issued, not used before: otherwise 422 with the " +
        "reason under `altcha`. A form sent without it (JavaScript off) is judged by the other checks. Not " +
        "asked for when reCAPTCHA is configured, nor from a signed-in API client (Bearer).",
    })
    .optional()
    // Sent but unreadable (too long, a file): still a check that ran and does not pass.
    .catch(""),
});

/** A registration's optional note (dietary needs, accessibility); ignored on a membership request. */
const noteField = z.preprocess(
  (v) => (typeof v === "string" ? v.replace(/\r\n?/g, "\n").trim() || undefined : given(v)),
  z
    .string()
    .max(NOTE_MAX, { error: `The note may not be longer than ${NOTE_MAX} characters.` })
    .optional()
    .meta({ description: "A registration's note (dietary needs, accessibility), at most 1000 characters." }),
);

/** A join or registration request as the service takes it: the fields and the form's context, parsed. */
export const joinSubmissionSchema = joinSchema.extend({ note: noteField, ...joinContextSchema.shape });
export type JoinSubmission = z.output<typeof joinSubmissionSchema>;

/** The contact form of /contact and /feedback-forum (decision 0039): a message to the secretariat. */
export const messageSchema = z.object({
  name: required("Name is required.", MESSAGE_MAX_LENGTHS.name),
  email: required("Email is required.", MESSAGE_MAX_LENGTHS.email).refine(isEmailAddress, {
    error: "Email is not valid.",
  }),
  subject: required("Subject is required.", MESSAGE_MAX_LENGTHS.subject),
  // A form sends a textarea's line breaks as CRLF: one line break each, as the textarea counted them.
  message: z
    .string({ error: "Message is required." })
    .transform((text) => text.replace(/\r\n?/g, "\n"))
    .pipe(
      z
        .string()
        .trim()
        .min(1, { error: "Message is required.", abort: true })
        .max(MESSAGE_MAX_LENGTHS.message, { error: `At most ${MESSAGE_MAX_LENGTHS.message} characters.` }),
    ),
});
export type MessageFields = z.output<typeof messageSchema>;

/** A message as the service takes it: the fields and the same context (page, honeypot, fill time, captcha). */
export const messageSubmissionSchema = messageSchema.extend(joinContextSchema.shape);
export type MessageSubmission = z.output<typeof messageSubmissionSchema>;

/**
 * The inbox's status filter: open or handled (the handled flag, every kind), or an application's
 * state (new, approved, declined: membership requests only; decision 0047).
 */
export const HANDLED_STATUSES = ["open", "handled"] as const;
export const APPLICATION_STATUSES = ["new", "approved", "declined"] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export const JOIN_STATUSES = [...HANDLED_STATUSES, ...APPLICATION_STATUSES] as const;

/** The inbox's spam filter: only probable spam, or everything but. */
export const SPAM_FILTERS = ["only", "none"] as const;

export const joinListSchema = z.object({
  kind: z.enum(INBOX_KINDS).optional().catch(undefined),
  spam: z.enum(SPAM_FILTERS).optional().catch(undefined),
  status: z.enum(JOIN_STATUSES).optional().catch(undefined).meta({
    description:
      "open or handled: the handled flag, every kind; new, approved or declined: membership applications in that state.",
  }),
  meeting: z.coerce.number().int().positive().optional().catch(undefined),
  search: z
    .string()
    .optional()
    .transform((v) => (v ?? "").trim().slice(0, 200)),
  page: lenientPageSchema,
});
/** Marking a request handled (true) or open again (false). */
export const joinHandledSchema = z.object({ handled: flagSchema("handled must be true or false.") });

export type JoinListQuery = z.output<typeof joinListSchema>;

/** What happened to a request after it arrived (decision 0047): approved or declined, by whom, when. */
export const joinRequestEventSchema = z
  .object({
    id: z.number().int(),
    event: z.enum(JOIN_REQUEST_EVENTS).meta({
      description:
        "approved, declined (an application); registration_<state> (a registration's state reached), registration_attended, registration_not_attended.",
    }),
    at: z.string(),
    by: z.string().meta({ description: "The administrator's name as it was then." }),
    user_id: z.number().int().nullable(),
    company_id: z.number().int().nullable().meta({ description: "The company an application was approved into." }),
    company_name: z.string().nullable(),
    reason: z.string().nullable().meta({ description: "Why it was declined, as mailed to the applicant." }),
  })
  .meta({ id: "JoinRequestEvent" });
export type JoinRequestEvent = z.output<typeof joinRequestEventSchema>;

export const APPLICATION_NOT_FOUND = "Request not found.";
export const NOT_AN_APPLICATION =
  "Only membership applications are approved or declined; this request is a meeting registration or a message.";
export const ALREADY_DECIDED = (status: "approved" | "declined") => `This application was already ${status}.`;
export const REASON_REQUIRED = "Give the reason: it is e-mailed to the applicant.";
export const REASON_MAX = 2000;
export const NO_SUCH_COMPANY = "There is no member company with this id.";
export const TYPE_REQUIRED = "Choose the membership type: full or associate.";

const optionalPerson = (label: string) =>
  z.preprocess(
    given,
    z
      .string()
      .overwrite(cleanTitle)
      .max(100, { error: `${label} may not be longer than 100 characters.` })
      .optional(),
  );

/**
 * Approving an application (decision 0047): the country and type of the company it creates, or
 * `company_id` to link the applicant to an existing company instead. The company's name and the
 * representative's name and e-mail default to the request's; the form sends them prefilled.
 */
export const applicationApproveSchema = z.object({
  country: z.preprocess(
    given,
    z
      .string({ error: COUNTRY_MESSAGE })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, { error: COUNTRY_MESSAGE })
      .optional()
      .meta({ description: "ISO 3166-1 alpha-2; required unless company_id is given." }),
  ),
  membership_type: z.preprocess(
    given,
    z
      .enum(MEMBERSHIP_TYPES, { error: TYPE_MESSAGE })
      .optional()
      .meta({ description: "full or associate; required unless company_id is given." }),
  ),
  company_id: z.preprocess(
    given,
    z.coerce
      .number({ error: NO_SUCH_COMPANY })
      .int({ error: NO_SUCH_COMPANY })
      .positive({ error: NO_SUCH_COMPANY })
      .optional()
      .meta({ description: "Link the applicant to this existing company instead of creating one." }),
  ),
  company_name: z.preprocess(
    given,
    z
      .string()
      .overwrite(cleanTitle)
      .min(1, { error: NAME_REQUIRED })
      .max(200, { error: "The company name may not be longer than 200 characters." })
      .optional()
      .meta({ description: "The new company's name; the request's company name without it." }),
  ),
  first_name: optionalPerson("First name").meta({
    description: "The representative's; the request's name but its last word without it.",
  }),
  last_name: optionalPerson("Last name").meta({
    description: "The representative's; the last word of the request's name without it.",
  }),
  email: z.preprocess(
    given,
    z
      .string()
      .trim()
      .max(254, { error: "Email is too long." })
      .refine(isEmailAddress, { error: "Email is not valid." })
      .optional()
      .meta({ description: "The representative's; the request's e-mail without it." }),
  ),
  primary: flag.meta({
    description:
      "When linking to an existing company: make the applicant a primary contact too. A new company's representative always is.",
  }),
});
export type ApplicationApprove = z.output<typeof applicationApproveSchema>;

/** Declining an application: the reason is e-mailed to the applicant. */
export const applicationDeclineSchema = z.object({
  reason: z
    .string({ error: REASON_REQUIRED })
    .transform((text) => text.replace(/\r\n?/g, "\n"))
    .pipe(
      z
        .string()
        .trim()
        .min(1, { error: REASON_REQUIRED, abort: true })
        .max(REASON_MAX, { error: `The reason may not be longer than ${REASON_MAX} characters.` }),
    ),
});
export type ApplicationDecline = z.output<typeof applicationDeclineSchema>;

/** A request as the admin's inbox shows it, with the mails it caused. */
export const joinRequestSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(INBOX_KINDS),
    meeting_id: z.number().int().nullable(),
    meeting_title: z.string().nullable(),
    company_name: z.string().nullable().meta({ description: "Null for a message." }),
    representative_name: z.string().meta({ description: "The sender's name." }),
    email: z.string(),
    phone_number: z.string().nullable().meta({ description: "Null for a message." }),
    subject: z.string().nullable().meta({ description: "A message's subject; null for the other kinds." }),
    message: z.string().nullable().meta({ description: "A message's text; null for the other kinds." }),
    spam_reason: z
      .enum(SPAM_REASONS)
      .nullable()
      .meta({ description: "Why it was judged probable spam (kept, not dropped); null when it was not." }),
    page_path: z.string().nullable().meta({ description: "The page the form was sent from." }),
    ip: z.string().nullable(),
    handled_at: z.string().nullable(),
    created_at: z.string(),
    status: z
      .enum(APPLICATION_STATUSES)
      .nullable()
      .meta({ description: "A membership application's state; null for registrations and messages." }),
    registration_status: z
      .enum(REGISTRATION_STATUSES)
      .nullable()
      .meta({ description: "A registration's state; null for the other kinds." }),
    note: z.string().nullable(),
    attended_at: z.string().nullable(),
    user_id: z.number().int().nullable().meta({ description: "The signed-in sender, if any." }),
    privacy_revision: z
      .number()
      .int()
      .nullable()
      .meta({
        description:
          "The revision of the Privacy Policy page in force when the form was shown (its number in the page's " +
          "revisions); null when the page had no revision yet (decision 0077).",
      }),
    privacy_shown_at: z
      .string()
      .nullable()
      .meta({
        description:
          "When the form, with its line about the Privacy Policy, was shown (the time the site signed into it); " +
          "the time of arrival for a client that sent no such time. Null for requests from before it was kept.",
      }),
    anonymised_at: z
      .string()
      .nullable()
      .meta({
        description:
          "When the person's details were erased (their request, their account's deletion, or the retention job: " +
          "decisions 0078, 0079); null while kept.",
      }),
    mails: z.array(mailStatusSchema),
    history: z.array(joinRequestEventSchema).meta({
      description: "Approved or declined, by whom and when (its arrival is created_at; its mails are mails).",
    }),
  })
  .meta({ id: "JoinRequest" });
export type JoinRequest = z.output<typeof joinRequestSchema>;

/** A page of the inbox, with the filters as understood and the meetings one may filter by. */
export const joinRequestListSchema = pageSchema(joinRequestSchema).extend({
  query: z.object({
    kind: z.enum(INBOX_KINDS).optional(),
    spam: z.enum(SPAM_FILTERS).optional(),
    status: z.enum(JOIN_STATUSES).optional(),
    meeting: z.number().int().optional(),
    search: z.string(),
    page: z.number().int(),
  }),
  meetings: z
    .array(z.object({ id: z.number().int(), title: z.string() }))
    .meta({ description: "The meetings that have registrations, newest first." }),
});
export type JoinRequestList = z.output<typeof joinRequestListSchema>;
