/**
 * A request path as log lines show it: a path that is itself a secret, the private calendar feed's
 * address (`/calendar/{token}.ics`, server/calendars.ts), is logged as `/calendar/[redacted].ics`,
 * so that whoever reads the logs cannot subscribe as the member (decision 0034); a registrant's link,
 * `/registrations/{token}`, as `/registrations/[redacted]` (issue 32); a one-click unsubscribe address
 * as `/unsubscribe/[redacted]` (issue 33). Logged paths never
 * carry the query string, where the password links' tokens are (`/reset-password?token=…`).
 *
 * The decision is made on the path as a server could read it, not on its spelling: percent-escapes
 * undone (`/%63alendar/…`, `/calendar%2F…`, twice-encoded `%252F`), backslashes as slashes, repeated
 * slashes as one and dot segments resolved (`/api/x/..%2F..%2Fcalendar/…`), in any letter case.
 * Whatever follows a `calendar` segment is redacted, wherever it comes in the path: a token
 * in a mistyped address is as secret as in the right one. Other paths are logged as they came.
 */
export function loggedPath(path: string): string {
  if (!/calendar|registrations|unsubscribe|library-feed/i.test(path) && !/%/.test(path)) return path;
  const segments = normalisedSegments(path);
  // A one-click unsubscribe address (`/unsubscribe/{token}`, issue 33) stops a member's mail.
  if (segments[0]?.toLowerCase() === "unsubscribe" && segments.length > 1) return "/unsubscribe/[redacted]";
  // A member's private feed of what they follow (`/library-feed/{token}.xml`, issue 33).
  if (segments[0]?.toLowerCase() === "library-feed" && segments.length > 1) return "/library-feed/[redacted].xml";
  // A registrant's link (`/registrations/{token}`, issue 32) is their key to the registration.
  if (segments[0]?.toLowerCase() === "registrations" && segments.length > 1) return "/registrations/[redacted]";
  const at = segments.findIndex((segment) => segment.toLowerCase() === "calendar");
  if (at < 0 || at === segments.length - 1) return path;
  const prefix = segments.slice(0, at + 1).join("/");
  return `/${prefix}/[redacted]${/\.ics$/i.test(segments[segments.length - 1]) ? ".ics" : ""}`;
}

/** Rounds of percent-decoding: enough for any encoding a proxy or a client would stack. */
const DECODE_ROUNDS = 4;

/** The path's segments once decoded (ASCII escapes only: the ones that can spell a name or a separator). */
function normalisedSegments(path: string): string[] {
  let text = path;
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    const decoded = text.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
    if (decoded === text) break;
    text = decoded;
  }
  const segments: string[] = [];
  for (const segment of text.replace(/\\/g, "/").split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments;
}
