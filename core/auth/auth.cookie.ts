/**
 * The browser keeps its session in an httpOnly cookie whose name starts with
 * 'auth.' (SPEC §4, §9); it is never readable from JavaScript.
 */
export const SESSION_COOKIE = "auth.session";

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

export function sessionCookie(token: string, options: { secure: boolean; maxAgeSeconds?: number }): string {
  const parts = [`${SESSION_COOKIE}=${encodeURIComponent(token)}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

export function clearSessionCookie(options: { secure: boolean }): string {
  return sessionCookie("", { ...options, maxAgeSeconds: 0 });
}
