/**
 * What the browser may know of the password rules (the fields' minlength and
 * hint). The full check, with its dictionaries of common passwords, runs on the
 * server only (password-rules.ts), so that the client bundle stays small.
 */
export const PASSWORD_MIN = 10;
