import { z } from "zod";

/**
 * What the browser may know of the password rules (the fields' minlength and
 * hint). The full check, with its dictionaries of common passwords, runs on the
 * server only (password-rules.ts), so that the client bundle stays small.
 */
export const PASSWORD_MIN = 10;

/** A text field as sent, or "" when it is missing or not text; its rules are applied by the service. */
const sentText = z.string().catch("");

/**
 * A link's token with a new password, as the service takes it: the shape only.
 * The rules need to know whose link it is (not their e-mail address), so the
 * service checks them once it has found the token (newPasswordSchema).
 */
export const tokenPasswordSchema = z.object({
  token: sentText,
  password: sentText,
  password_confirmation: sentText,
});
export type TokenPassword = z.output<typeof tokenPasswordSchema>;

/** A password sent to be checked, or to ask for a link by e-mail: text, checked by the service. */
export const passwordCheckSchema = z.object({ password: sentText });
export const forgotPasswordSchema = z.object({ email: sentText });
