import { z } from "zod";
import { isEmailAddress, isPhoneNumber } from "../../lib/validation";

/**
 * SPEC §4 'Profile update', §7: only non-empty fields are sent and changed.
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
  phone_number: optionalText(40, "The phone number").refine((v) => v === undefined || isPhoneNumber(v), {
    error: "Phone format is incorrect.",
  }),
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
export const EMAIL_TAKEN = "The email has already been taken.";
