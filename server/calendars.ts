import { createHash } from "node:crypto";
import { type Context, Hono } from "hono";
import { type AccessSubject, accessKey, hasMembersAccess, viewerOf as viewerOfSubject } from "../core/access/access";
import { calendarFeedIcs, meetingIcs } from "../core/meetings/meetings.calendar";
import { isAppError } from "../lib/errors";
import { encodingEtags, ifNoneMatchNames } from "../lib/etag";
import { viewerOf } from "./api/http";
import type { AppEnv, Runtime } from "./env";
import { encodeStored, type StoredBody } from "./middleware/compress";

/**
 * A feed is the same file for every reader of a kind (visitors; members), and writing one for a
 * thousand meetings takes a few hundred milliseconds: each is made once per content version (and
 * at least every minute, as "the last 12 months" moves), and readers arriving while it is made
 * wait for that one. So is each encoding of it: a feed of ten thousand meetings is about 850 KB,
 * which brotli made per request took milliseconds to compress, for every poll.
 */
const FEED_TTL_MS = 60_000;
/** Members' feeds kept at once (one per set of working groups in use). */
const MEMBERS_FEEDS = 100;

type Feed = StoredBody & { etags: ReturnType<typeof encodingEtags> };

function feedCache(contentVersion: () => Promise<number>, make: () => Promise<string>) {
  let entry: { version: number; at: number; feed: Promise<Feed> } | null = null;
  return async (): Promise<Feed> => {
    const version = await contentVersion();
    if (!entry || entry.version !== version || Date.now() - entry.at > FEED_TTL_MS) {
      const feed = make().then((text): Feed => {
        const body = Buffer.from(text);
        return { body, encoded: {}, etags: encodingEtags(createHash("sha1").update(body).digest("base64url")) };
      });
      entry = { version, at: Date.now(), feed };
      // A failed make is not kept: the next reader tries again.
      feed.catch(() => {
        if (entry?.feed === feed) entry = null;
      });
    }
    return entry.feed;
  };
}

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
  const version = () => services.contentVersion.current();
  const publicFeed = feedCache(version, async () =>
    calendarFeedIcs(await services.meetings.feedEntries({ signedIn: false }, origin), {
      host,
      calendarName: `${await siteName()} events`,
    }),
  );
  /**
   * The members' feeds: one per set of working groups (accessKey: 'member', 'member:3.7', 'admin'
   * …), since a group's meetings are in its members' feeds only (issue 36). The sets in use are
   * few; the oldest made is dropped past MEMBERS_FEEDS.
   */
  const membersFeeds = new Map<string, () => Promise<Feed>>();
  function membersFeed(subject: AccessSubject): Promise<Feed> {
    const key = accessKey(subject);
    let feed = membersFeeds.get(key);
    if (!feed) {
      const viewer = viewerOfSubject(subject);
      feed = feedCache(version, async () =>
        calendarFeedIcs(await services.meetings.feedEntries({ signedIn: true, groups: viewer.groups }, origin), {
          host,
          calendarName: `${await siteName()} meetings (members)`,
        }),
      );
      membersFeeds.set(key, feed);
      if (membersFeeds.size > MEMBERS_FEEDS) membersFeeds.delete(membersFeeds.keys().next().value as string);
    }
    return feed();
  }

  /**
   * The feed in the encoding the calendar app takes, or 304 when it has the feed already. Each
   * encoding has its own ETag (the bytes differ); any of them revalidates, since the feed is the same.
   */
  async function answer(c: Context<AppEnv>, feed: Feed, headers: Record<string, string>) {
    const { body, encoding, varies } = await encodeStored(feed, c.req.header("accept-encoding"));
    const common: Record<string, string> = { ETag: feed.etags[encoding ?? "identity"], ...headers };
    if (varies) common.Vary = "Accept-Encoding";
    if (ifNoneMatchNames(c.req.header("if-none-match"), Object.values(feed.etags))) {
      return c.body(null, 304, common);
    }
    if (encoding) common["Content-Encoding"] = encoding;
    return c.body(body as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": ICS_TYPE,
      "Content-Length": String(body.byteLength),
      ...common,
    });
  }

  app.get("/events.ics", async (c) => answer(c, await publicFeed(), { "Cache-Control": PUBLIC_CACHE }));

  app.get("/events/:file{[^/]+\\.ics}", async (c) => {
    const slug = c.req.param("file").slice(0, -".ics".length);
    try {
      const meeting = await services.meetings.getBySlug(slug, viewerOf(c));
      const area = meeting.visibility === "members" ? "members" : "public";
      const body = meetingIcs(services.meetings.calendarEntry(meeting, origin, area), {
        host,
        calendarName: meeting.title,
      });
      return c.body(body, 200, {
        "Content-Type": ICS_TYPE,
        "Content-Disposition": `attachment; filename="${meeting.slug}.ics"`,
        // A members-only meeting's file is personal to a signed-in reader (server/middleware/cache-control.ts says so too).
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
    // The address keeps working while the owner's company has lapsed, with what a visitor's feed holds.
    const subject = await services.members.accessOf(owner);
    return answer(c, await (hasMembersAccess(subject) ? membersFeed(subject) : publicFeed()), {
      "Cache-Control": "private, no-store",
      "Referrer-Policy": "no-referrer",
    });
  });

  return app;
}
