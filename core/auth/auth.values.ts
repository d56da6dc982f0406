/**
 * The login's texts and the redirect check: no Zod, so that the login page
 * loads it only with the form's checks (decision 0028). auth.schema.ts re-exports them.
 */
/** SPEC §5 'Login': shared by the login form (client) and the server. */
export const VALIDATION_SUMMARY = "You have validation errors! Please fix them all";
export const LOGIN_FAILED_MESSAGE = "The user name or password are incorrect";
export const SERVER_ERROR_MESSAGE = "Server error...";

/**
 * Where to go after login: only a same-origin path is followed; anything else
 * (//host, https://…, javascript:, backslash tricks) falls back to /manager.
 * The path returned is the URL parser's normalised one, and that is what is checked
 * last: `/.//evil.example`, `/x/..//evil.example` and `/%2e//evil.example` all become
 * `//evil.example`, which a browser reads as another host (issue 30 point 2).
 */
export function safeRedirectPath(value: unknown, fallback = "/manager"): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return fallback;
  if (!value.startsWith("/") || value.startsWith("//")) return fallback;
  // Control characters or backslashes can be normalised by browsers into another host (`/\evil.example`).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting them is the point
  if (/[\u0000-\u001f\\]/.test(value)) return fallback;
  try {
    const base = "http://masthead.invalid";
    const url = new URL(value, base);
    if (url.origin !== base) return fallback;
    // An http URL's path always starts with `/` and holds no backslash (none came in, and the parser
    // turns one into `/`), so `//` is the one way left for it to name another host.
    const path = `${url.pathname}${url.search}${url.hash}`;
    return path.startsWith("//") ? fallback : path;
  } catch {
    return fallback;
  }
}

/** Two-factor sign-in's refusals (decision 0075), said by the API and the sign-in form alike. */
export const TWO_FACTOR_EXPIRED =
  "This sign-in has expired or was used already: start again with your e-mail and password.";
export const CODE_WRONG = "That code is not right. Type the six digits your app shows now, or a recovery code.";
/** A passkey at the sign-in's second step that is not the account's, or whose answer does not check (decision 0076). */
export const PASSKEY_SIGN_IN_FAILED =
  "That passkey did not sign you in: it is not one of this account's, or the browser's answer could not be checked. Try again, or type a code.";
