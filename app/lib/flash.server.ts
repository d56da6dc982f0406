import { createHmac, timingSafeEqual } from "node:crypto";
import { readCookie } from "../../core/auth/auth.cookie";

/**
 * A message for the next page after a redirect ("Saved “…”."), carried in a
 * short-lived cookie instead of the URL, where any link could put words in an
 * admin's screen. It is signed with the signed-in person's own session token
 * (HMAC-SHA256), so only a response to that session can have set it, and any
 * process of the site can check it without a shared secret.
 */
const FLASH_COOKIE = "flash";
const FLASH_SECONDS = 60;

type Flash = { message: string; expires: number };

function sign(payload: string, sessionToken: string): string {
  return createHmac("sha256", sessionToken).update(`flash:${payload}`).digest("base64url");
}

/** The Set-Cookie header that leaves `message` for the next page of this session. */
export function setFlash(message: string, session: { token: string; secure: boolean }): string {
  const payload = Buffer.from(JSON.stringify({ message, expires: Date.now() + FLASH_SECONDS * 1000 })).toString(
    "base64url",
  );
  const value = `${payload}.${sign(payload, session.token)}`;
  return `${FLASH_COOKIE}=${value}; Path=/; Max-Age=${FLASH_SECONDS}; HttpOnly; SameSite=Lax${session.secure ? "; Secure" : ""}`;
}

/**
 * The message left for this page, if it is genuine and fresh, and the header that
 * clears it (it is shown once). Anything forged, stale or of another session reads as none.
 */
export function takeFlash(
  request: Request,
  session: { token: string | null; secure: boolean },
): { message: string | null; headers: HeadersInit } {
  const raw = readCookie(request.headers.get("cookie"), FLASH_COOKIE);
  if (!raw) return { message: null, headers: {} };
  const clear = {
    "Set-Cookie": `${FLASH_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${session.secure ? "; Secure" : ""}`,
  };
  const [payload, signature] = raw.split(".");
  if (!session.token || !payload || !signature) return { message: null, headers: clear };
  const expected = Buffer.from(sign(payload, session.token));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { message: null, headers: clear };
  try {
    const flash = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Flash;
    const fresh = typeof flash.message === "string" && typeof flash.expires === "number" && flash.expires > Date.now();
    return { message: fresh ? flash.message.slice(0, 300) : null, headers: clear };
  } catch {
    return { message: null, headers: clear };
  }
}
