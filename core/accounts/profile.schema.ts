import { z } from "zod";
import { isEmailAddress, isPhoneNumber } from "../../lib/validation";

/**
 * SPEC §4 'Profile update', §7: only the fields sent are changed, and an empty name or
 * e-mail address leaves it as it is; an empty phone number (sent, "" or null) removes it.
 * Changing the e-mail address or the password needs the current `password` (decision 0035).
 * Shared by the settings page and PATCH /api/dashboard/user/settings.
 */
const optionalText = (max: number, label: string) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters.` })
    .nullish()
    .transform((v) => v || undefined);

export const profileSchema = z.object({
  first_name: optionalText(100, "The first name"),
  last_name: optionalText(100, "The last name"),
  email: optionalText(254, "The e-mail address").refine((v) => v === undefined || isEmailAddress(v), {
    error: "Email is not valid.",
  }),
  // Sent empty (or null): the number is removed; not sent: it stays.
  phone_number: z
    .string({ error: "The phone number must be text." })
    .trim()
    .max(40, { error: "The phone number must be at most 40 characters." })
    .nullish()
    .transform((v) => (v === undefined ? undefined : v || null))
    .refine((v) => v == null || isPhoneNumber(v), { error: "Phone format is incorrect." }),
  password: z
    .string()
    .nullish()
    .transform((v) => v ?? ""),
  new_password: z
    .string()
    .nullish()
    .transform((v) => v ?? ""),
  confirm_new_password: z
    .string()
    .nullish()
    .transform((v) => v ?? ""),
}); /** A profile change as the service takes it, parsed: empty fields are left as they are. */
export type ProfileInput = z.output<typeof profileSchema>;

export const CURRENT_PASSWORD_WRONG = "The current password is not correct.";
/** A change that needs the current password (e-mail address, password, calendar address) came without it. */
export const CURRENT_PASSWORD_REQUIRED = "Enter your current password to make this change.";
export const EMAIL_TAKEN = "The email has already been taken.";
