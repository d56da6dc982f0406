import { z } from "zod";

export const DELETE_PASSWORD_REQUIRED = "Enter your password to delete your account.";
export const DELETE_CODE_REQUIRED =
  "Enter the six digits your authenticator app shows now, or a recovery code, to delete your account.";
export const LAST_ADMIN_DELETION =
  "You are the site's only admin: make another user admin before you delete your account.";
export const OWN_ERASURE =
  "This is your own account: delete it from your settings page, where your password confirms it.";
export const ERASE_CONFIRM_MISMATCH = "Type the e-mail address again, exactly, to confirm the erasure.";
export const EXPORTS_PER_HOUR = 5;

/** A member deletes their own account (issue 35): the password, and the second factor when it is on. */
export const accountDeleteSchema = z
  .object({
    password: z.string({ error: DELETE_PASSWORD_REQUIRED }).max(200).min(1, { error: DELETE_PASSWORD_REQUIRED }),
    code: z.string().trim().max(40).optional(),
  })
  .meta({ id: "AccountDelete" });
export type AccountDelete = z.output<typeof accountDeleteSchema>;

const address = z
  .string({ error: "Enter an e-mail address." })
  .trim()
  .min(1, { error: "Enter an e-mail address." })
  .max(254, { error: "The e-mail address may not be longer than 254 characters." })
  .pipe(z.email({ error: "Enter a valid e-mail address." }));

/** Whose data the secretariat looks up or exports. */
export const privacyLookupSchema = z.object({ email: address });

/** The secretariat erases what is held about an address; `confirm` repeats it, as the screen asks. */
export const privacyEraseSchema = z
  .object({ email: address, confirm: z.string().trim().max(254) })
  .refine((input) => input.confirm.toLowerCase() === input.email.toLowerCase(), {
    path: ["confirm"],
    error: ERASE_CONFIRM_MISMATCH,
  })
  .meta({ id: "PrivacyErase" });

/** What the secretariat's search finds about an address (GET /api/dashboard/privacy). */
export const privacyLookupAnswerSchema = z
  .object({
    email: z.string(),
    account: z
      .object({ id: z.number(), name: z.string(), email: z.string(), role: z.string(), created_at: z.string() })
      .nullable(),
    requests: z.array(
      z.object({
        id: z.number(),
        kind: z.enum(["join", "registration", "message"]),
        about: z.string().meta({ description: "The meeting, the company or the subject." }),
        state: z.string().nullable(),
        created_at: z.string(),
      }),
    ),
    mails: z.object({
      waiting: z.number(),
      sent: z.number(),
      failed: z.number(),
      latest: z.array(z.object({ id: z.number(), subject: z.string(), status: z.string(), created_at: z.string() })),
    }),
    bounced: z.object({ reason: z.string(), at: z.string() }).nullable(),
    companies: z.array(z.object({ id: z.number(), name: z.string() })),
    audit_entries: z.number(),
  })
  .meta({ id: "PrivacyLookup" });
export type PrivacyLookup = z.output<typeof privacyLookupAnswerSchema>;

/** What an erasure removed, for the answer and the audit row. */
export const erasureSchema = z
  .object({
    account: z.boolean(),
    requests: z.number(),
    registrations_cancelled: z.number(),
    mails: z.number(),
  })
  .meta({ id: "Erasure" });
export type Erasure = z.output<typeof erasureSchema>;
