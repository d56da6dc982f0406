import { z } from "zod";
import { given } from "../../lib/form-fields";
import { lenientPageSchema, listSearchSchema, pageSchema } from "../../lib/pagination";
import { flagSchema } from "../../lib/validation";
import { REASON_MAX } from "./join.schema";
import { REGISTRATION_STATUSES } from "./join.values";

/** The admin's list of one meeting's registrations (decision 0052): a state, a search, a page. */
export const registrationListQuerySchema = z.object({
  status: z
    .enum(REGISTRATION_STATUSES)
    .optional()
    .catch(undefined)
    .meta({
      description: `One of: ${REGISTRATION_STATUSES.join(", ")}; every state without it.`,
    }),
  search: listSearchSchema(),
  page: lenientPageSchema,
});
export type RegistrationListQuery = z.output<typeof registrationListQuerySchema>;

/** A registration as the secretariat sees it. */
export const registrationSchema = z
  .object({
    id: z.number().int(),
    meeting_id: z.number().int(),
    company_name: z.string().nullable(),
    representative_name: z.string(),
    email: z.string(),
    phone_number: z.string().nullable(),
    note: z.string().nullable(),
    status: z.enum(REGISTRATION_STATUSES),
    attended_at: z.string().nullable().meta({ description: "When the attendee was checked in; null if not." }),
    created_at: z.string(),
  })
  .meta({ id: "Registration" });
export type Registration = z.output<typeof registrationSchema>;

export const registrationPageSchema = pageSchema(registrationSchema).extend({
  counts: z
    .object({
      pending: z.number().int(),
      confirmed: z.number().int(),
      waitlisted: z.number().int(),
      declined: z.number().int(),
      cancelled: z.number().int(),
    })
    .meta({ description: "How many registrations (matching the search) are in each state." }),
  capacity: z.number().int().nullable(),
});

/**
 * A change to a registration (decision 0052): its new state (confirmed, declined, cancelled; pending
 * from the waiting list is a move up), an optional reason (a decline's, mailed), or `attended`.
 */
export const registrationChangeSchema = z.object({
  status: z.preprocess(
    given,
    z
      .enum(["pending", "confirmed", "declined", "cancelled"], {
        error: "The state must be pending (moved up from the waiting list), confirmed, declined or cancelled.",
      })
      .optional(),
  ),
  reason: z.preprocess(
    (v) => (typeof v === "string" ? v.replace(/\r\n?/g, "\n").trim() || undefined : given(v)),
    z
      .string()
      .max(REASON_MAX, { error: `The reason may not be longer than ${REASON_MAX} characters.` })
      .optional(),
  ),
  attended: flagSchema("attended must be true or false.").optional(),
});
export type RegistrationChange = z.output<typeof registrationChangeSchema>;
