import { Hono } from "hono";
import { calendarFeedIcs, meetingIcs } from "../core/meetings/meetings.calendar";
import { isAppError } from "../lib/errors";
import type { AppEnv, Runtime } from "./env";

/** Calendar apps poll subscribed feeds: five minutes of caching costs them nothing. */
const PUBLIC_CACHE = "public, max-age=300";
const ICS_TYPE = "text/calendar; charset=utf-8";

/**
 * The calendar files of issue 13 'Calendars' (outside /api: they are addresses people subscribe to):
 * - `/events/{slug}.ics`: one meeting with its sessions (members-only ones for signed-in users);
 * - `/events.ics`: the public meetings of the last 12 months and those to come (webcal:// on /events);
 * - `/calendar/{token}.ics`: a member's private feed, members-only meetings included, at a secret
 *   address made on the settings page (only its hash is stored; renewing ends the old address).
 */
export function calendarRoutes(runtime: Runtime) {
  const { services, config } = runtime;
  const origin = config.baseUrl.origin;
  const host = config.baseUrl.hostname;
  const app = new Hono<AppEnv>();

  const siteName = async () => (await services.settings.getAll())["site.name"];

  app.get("/events.ics", async (c) => {
    const entries = await services.meetings.feedEntries({ signedIn: false }, origin);
    const body = calendarFeedIcs(entries, { host, calendarName: `${await siteName()} events` });
    return c.body(body, 200, { "Content-Type": ICS_TYPE, "Cache-Control": PUBLIC_CACHE });
  });

  app.get("/events/:file{[^/]+\\.ics}", async (c) => {
    const slug = c.req.param("file").slice(0, -".ics".length);
    const signedIn = c.var.auth !== null;
    try {
      const meeting = await services.meetings.getBySlug(slug, { signedIn });
      const area = meeting.visibility === "members" ? "members" : "public";
      const body = meetingIcs(services.meetings.calendarEntry(meeting, origin, area), {
        host,
        calendarName: meeting.title,
      });
      return c.body(body, 200, {
        "Content-Type": ICS_TYPE,
        "Content-Disposition": `attachment; filename="${meeting.slug}.ics"`,
        // A members-only meeting's file is personal to a signed-in reader (privateWhenSignedIn says so too).
        "Cache-Control": area === "members" ? "private, no-store" : PUBLIC_CACHE,
      });
    } catch (error) {
      if (isAppError(error) && error.code === "not_found") return c.text("Not found", 404);
      throw error;
    }
  });

  app.get("/calendar/:file{[^/]+\\.ics}", async (c) => {
    const owner = await services.profile.calendarFeedOwner(c.req.param("file").slice(0, -".ics".length));
    if (!owner) return c.text("Not found", 404);
    const entries = await services.meetings.feedEntries({ signedIn: true }, origin);
    const body = calendarFeedIcs(entries, { host, calendarName: `${await siteName()} meetings (members)` });
    return c.body(body, 200, {
      "Content-Type": ICS_TYPE,
      "Cache-Control": "private, no-store",
      "Referrer-Policy": "no-referrer",
    });
  });

  return app;
}
