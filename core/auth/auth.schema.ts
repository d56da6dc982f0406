import { z } from "zod";

/** SPEC §5 'Login': shared by the login form (client) and the server. */
export const VALIDATION_SUMMARY = "You have validation errors! Please fix them all";
export const LOGIN_FAILED_MESSAGE = "The user name or password are incorrect";
export const SERVER_ERROR_MESSAGE = "Server error...";

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

/**
 * Where to go after login: only a same-origin path is followed; anything else
 * (//host, https://…, javascript:, backslash tricks) falls back to /manager.
 */
export function safeRedirectPath(value: unknown, fallback = "/manager"): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  // Control characters or backslashes can be normalised by browsers into another host.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting them is the point
  if (/[\u0000-\u001f\\]/.test(value)) return fallback;
  try {
    const base = "http://masthead.invalid";
    const url = new URL(value, base);
    if (url.origin !== base) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
