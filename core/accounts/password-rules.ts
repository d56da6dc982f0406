import { z } from "zod";

/**
 * Rules for a new password (issue 6): at least 10 characters, not one of the
 * passwords attackers try first, not the account's e-mail, and confirmed.
 */
export const PASSWORD_MIN = 10;

// The most common passwords of 10 characters or more in public breach lists: tried first by every attacker.
const COMMON = new Set([
  "1234567890",
  "12345678910",
  "123456789a",
  "0987654321",
  "1q2w3e4r5t",
  "1qaz2wsx3edc",
  "qwertyuiop",
  "qwerty1234",
  "qwerty12345",
  "qwerty123456",
  "password12",
  "password123",
  "password1234",
  "passw0rd123",
  "iloveyou12",
  "iloveyou123",
  "1111111111",
  "0000000000",
  "abcdefghij",
  "abcd123456",
  "asdfghjkl1",
  "zaq12wsxcde",
  "football123",
  "baseball123",
  "princess123",
  "sunshine123",
  "superman123",
  "letmein123",
  "welcome123",
  "welcome1234",
  "admin12345",
  "administrator",
  "changeme123",
  "masthead123",
  "mastheadmastead",
]);

export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  return COMMON.has(lower) || /^(.)\1+$/.test(lower) || /^(0123456789|1234567890)+\d*$/.test(lower);
}

/** A new password with its confirmation; `email` is the account's, to refuse the address as password. */
export function newPasswordSchema(email: string) {
  return z
    .object({
      password: z
        .string({ error: "The new password is required." })
        .min(1, { error: "The new password is required.", abort: true })
        .min(PASSWORD_MIN, { error: `The new password must be at least ${PASSWORD_MIN} characters.`, abort: true })
        .max(200, { error: "The new password must be at most 200 characters.", abort: true })
        .refine((v) => !isCommonPassword(v), { error: "This password is too common. Choose another one.", abort: true })
        .refine((v) => v.trim().toLowerCase() !== email.toLowerCase(), {
          error: "The password must not be your e-mail address.",
        }),
      password_confirmation: z.string({ error: "Confirm the new password." }),
    })
    .refine((v) => v.password === v.password_confirmation, {
      path: ["password_confirmation"],
      error: "The passwords do not match.",
    });
}
