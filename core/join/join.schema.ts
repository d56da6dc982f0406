import { z } from "zod";
import { lenientPageSchema, pageSchema } from "../../lib/pagination";
import { flagSchema, isEmailAddress, isPhoneNumber } from "../../lib/validation";
import { mailStatusSchema } from "../mail/mail.schema";

/**
 * SPEC §5 'Join / registration form': one schema for the browser (errors as
 * the visitor types) and the server (POST /api/join), with the spec's messages.
 */
export const JOIN_SUMMARY = "You have validation errors! Please fix them all";
export const JOIN_THANKS = "Your message was sent successfully. We'll get in touch with you soon.";
export const REGISTRATION_THANKS =
  "Thank you for submitting your registration. An email with the registration details will arrive shortly from our postmaster address; please check your junk folder if you do not see it. We will confirm your registration within 48 hours.";

const required = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .max(max, { error: `At most ${max} characters.` });

export const joinSchema = z.object({
  company_name: required("Company Name is required.", 200),
  representative_name: required("Representative name is required.", 200),
  email: required("Email is required.", 254).refine(isEmailAddress, { error: "Email is not valid." }),
  phone_number: required("Phone number is required.", 40).refine(isPhoneNumber, {
    error: "Phone format is incorrect.",
  }),
});
export type JoinFields = z.output<typeof joinSchema>;
export const JOIN_FIELDS = ["company_name", "representative_name", "email", "phone_number"] as const;

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
  /** When the form was shown, in milliseconds since the epoch. */
  started_at: z.coerce.number().int().nonnegative().optional().catch(undefined),
  captcha_token: z.string().max(4000).optional().catch(undefined),
});

/** A join or registration request as the service takes it: the fields and the form's context, parsed. */
export const joinSubmissionSchema = joinSchema.extend(joinContextSchema.shape);
export type JoinSubmission = z.output<typeof joinSubmissionSchema>;

/** A request to join the association, or a registration for a meeting. */
export const JOIN_KINDS = ["join", "registration"] as const;
export type JoinKind = (typeof JOIN_KINDS)[number];
export const JOIN_STATUSES = ["open", "handled"] as const;

/** Registration pages: the spec names conference pages; meeting pages register too. */
export function requestKindOf(pagePath: string | null): JoinKind {
  return pagePath && /^\/(conference|workshop|events\/|dashboard\/events\/)/.test(pagePath) ? "registration" : "join";
}

/** SPEC §8: the confirm modal's text depends on whether the path contains "conference". */
export function thanksFor(pagePath: string): string {
  return pagePath.includes("conference") ? REGISTRATION_THANKS : JOIN_THANKS;
}

export const joinListSchema = z.object({
  kind: z.enum(JOIN_KINDS).optional().catch(undefined),
  status: z.enum(JOIN_STATUSES).optional().catch(undefined),
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

/** A request as the admin's inbox shows it, with the mails it caused. */
export const joinRequestSchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(JOIN_KINDS),
    meeting_id: z.number().int().nullable(),
    meeting_title: z.string().nullable(),
    company_name: z.string(),
    representative_name: z.string(),
    email: z.string(),
    phone_number: z.string(),
    page_path: z.string().nullable().meta({ description: "The page the form was sent from." }),
    ip: z.string().nullable(),
    handled_at: z.string().nullable(),
    created_at: z.string(),
    mails: z.array(mailStatusSchema),
  })
  .meta({ id: "JoinRequest" });
export type JoinRequest = z.output<typeof joinRequestSchema>;

/** A page of the inbox, with the filters as understood and the meetings one may filter by. */
export const joinRequestListSchema = pageSchema(joinRequestSchema).extend({
  query: z.object({
    kind: z.enum(JOIN_KINDS).optional(),
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
