import { z } from "zod";
import { lenientPageSchema, pageSchema } from "../../lib/pagination";
import { flagSchema, isEmailAddress, isPhoneNumber } from "../../lib/validation";
import { mailStatusSchema } from "../mail/mail.schema";
import { JOIN_KINDS, JOIN_MAX_LENGTHS } from "./join.values";

/**
 * SPEC §5 'Join / registration form': one schema for the browser (errors as
 * the visitor types) and the server (POST /api/join), with the spec's messages.
 * The form's texts, limits and kinds live in join.values.ts (no Zod), for
 * every page's footer form (decision 0028); they are re-exported here.
 */
export {
  JOIN_FIELDS,
  JOIN_KINDS,
  JOIN_MAX_LENGTHS,
  JOIN_SUMMARY,
  JOIN_THANKS,
  type JoinKind,
  REGISTRATION_THANKS,
  requestKindOf,
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
  /** When the form was shown, in milliseconds since the epoch. */
  started_at: z.coerce.number().int().nonnegative().optional().catch(undefined),
  captcha_token: z.string().max(4000).optional().catch(undefined),
});

/** A join or registration request as the service takes it: the fields and the form's context, parsed. */
export const joinSubmissionSchema = joinSchema.extend(joinContextSchema.shape);
export type JoinSubmission = z.output<typeof joinSubmissionSchema>;

export const JOIN_STATUSES = ["open", "handled"] as const;

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
