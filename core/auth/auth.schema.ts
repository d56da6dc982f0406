import { z } from "zod";

/** Texts and the redirect check (no Zod) live in auth.values.ts, for the login page (decision 0028). */
export { LOGIN_FAILED_MESSAGE, SERVER_ERROR_MESSAGE, safeRedirectPath, VALIDATION_SUMMARY } from "./auth.values";

const checkbox = z
  .union([z.boolean(), z.string(), z.number()])
  .optional()
  .transform((v) => v === true || v === "on" || v === "true" || v === "1" || v === 1);

export const loginSchema = z.object({
  email: z.string({ error: "Email is required." }).trim().min(1, { error: "Email is required." }).max(254, {
    error: "Email is too long.",
  }),
  // Used exactly as typed: spaces at either end are part of the password (only the e-mail is trimmed).
  password: z.string({ error: "Password is required." }).min(1, { error: "Password is required." }).max(200, {
    error: "Password is too long.",
  }),
  remember: checkbox,
});
/** Credentials as the login schema leaves them (e-mail trimmed); `remember` defaults to off. */
export type LoginInput = Omit<z.output<typeof loginSchema>, "remember"> & { remember?: boolean };
