/**
 * The browser keeps its session in an httpOnly cookie whose name starts with
 * 'auth.' (SPEC §4, §9); it is never readable from JavaScript. Over https it
 * carries the `__Host-` prefix (decision 0035): the browser then keeps it only
 * when it is Secure, for Path=/ and without a Domain, so no sibling host and no
 * plain-http answer can plant or overwrite it.
 */
export const SESSION_COOKIE = "auth.session";
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** Both names, the https one first: what requests may carry, what caches must bypass on and what a sign-out clears. */
export const SESSION_COOKIE_NAMES = [SECURE_SESSION_COOKIE, SESSION_COOKIE] as const;

export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/**
 * The session token a browser sent. Over https only the `__Host-` cookie counts: a plain
 * `auth.session` may have been planted by a sibling subdomain or an answer over http (session
 * fixation), which the prefix exists to rule out; a session kept under the plain name from before
 * the prefix is asked to sign in once (decision 0035). Over http the plain name is the session's.
 */
export function readSessionCookie(header: string | null | undefined, options: { secure: boolean }): string | null {
  if (!header) return null;
  const secure = readCookie(header, SECURE_SESSION_COOKIE);
  if (secure !== null || options.secure) return secure;
  return readCookie(header, SESSION_COOKIE);
}

/**
 * Whether a request carries a session cookie under either name, whatever it is worth: a cache
 * must not answer or keep such a request from what it holds for visitors.
 */
export function carriesSessionCookie(header: string | null | undefined): boolean {
  return SESSION_COOKIE_NAMES.some((name) => readCookie(header, name) !== null);
}

/** Whether a Set-Cookie value sets (or clears) the session under either name. */
export function isSessionSetCookie(value: string): boolean {
  return SESSION_COOKIE_NAMES.some((name) => value.startsWith(`${name}=`));
}

export function sessionCookie(token: string, options: { secure: boolean; maxAgeSeconds?: number }): string {
  const name = options.secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  const parts = [`${name}=${encodeURIComponent(token)}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

/**
 * Clears the session cookie. Over https both names go: a cookie the browser still holds under the
 * plain name (from before the `__Host-` one, or planted) is not read over https, but is not left behind.
 */
export function clearSessionCookies(options: { secure: boolean }): string[] {
  const cleared = [sessionCookie("", { ...options, maxAgeSeconds: 0 })];
  if (options.secure) cleared.push(`${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure`);
  return cleared;
}
