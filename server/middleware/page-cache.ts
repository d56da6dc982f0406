import type { MiddlewareHandler } from "hono";
import { isbot } from "isbot";
import { readCookie, SESSION_COOKIE } from "../../core/auth/auth.cookie";
import type { ContentVersionService } from "../../core/content-version/content-version.service";
import type { Logger } from "../../lib/logger";
import type { AppEnv } from "../env";

/**
 * Rendered pages for anonymous visitors, kept as bytes in memory.
 *
 * Server rendering costs two orders of magnitude more than sending bytes, and
 * an anonymous visitor sees the same page as every other anonymous visitor.
 * So a GET without a session is answered from memory when the same URL was
 * rendered less than a minute ago and the content version stamp in the
 * database has not moved since. Signed-in users, API calls, redirects, errors
 * and any response that sets a cookie or says private/no-store are never
 * cached. Each hit gets the CSP nonce of its own request.
 */

export type PageCacheOptions = {
  /** Memory budget for cached bodies; the least recently used go first. */
  maxBytes: number;
  /** How long a page may be served from memory, so time-dependent content (this month, upcoming) moves on. */
  ttlMs: number;
  now?: () => number;
};

type Entry = {
  status: number;
  headers: [string, string][];
  body: string;
  /** The nonce rendered into the body, replaced by each hit's own. */
  nonce: string;
  bytes: number;
  storedAt: number;
};

const CACHEABLE_TYPE = /^text\/(html|x-script)\b/;
const UNCACHEABLE_CONTROL = /\b(private|no-store|no-cache)\b/i;
const MAX_KEY_LENGTH = 2048;
export const PAGE_CACHE_HEADER = "X-Page-Cache";

function respond(entry: Entry, nonce: string, state: "hit" | "miss"): Response {
  const body = entry.nonce && nonce && entry.nonce !== nonce ? entry.body.replaceAll(entry.nonce, nonce) : entry.body;
  const headers = new Headers(entry.headers);
  headers.set(PAGE_CACHE_HEADER, state);
  return new Response(body, { status: entry.status, headers });
}

function storable(response: Response): boolean {
  return (
    response.status === 200 &&
    response.body !== null &&
    !response.headers.has("Set-Cookie") &&
    CACHEABLE_TYPE.test(response.headers.get("Content-Type") ?? "") &&
    !UNCACHEABLE_CONTROL.test(response.headers.get("Cache-Control") ?? "")
  );
}

export function pageCache(
  contentVersion: ContentVersionService,
  options: PageCacheOptions,
  logger: Logger,
): MiddlewareHandler<AppEnv> {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  // Concurrent misses for one URL share one render instead of all rendering it.
  const rendering = new Map<string, Promise<Entry | null>>();
  let version: number | null = null;
  let bytes = 0;

  function forget(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  }

  function store(key: string, entry: Entry) {
    forget(key);
    entries.set(key, entry);
    bytes += entry.bytes;
    // A Map iterates in insertion order and hits re-insert, so the first keys are the least recently used.
    for (const oldest of entries.keys()) {
      if (bytes <= options.maxBytes) break;
      forget(oldest);
    }
  }

  return async (c, next) => {
    if (c.req.method !== "GET" || c.var.auth || c.req.header("authorization")) return next();
    if (readCookie(c.req.header("cookie"), SESSION_COOKIE)) return next();
    const url = new URL(c.req.url);
    if (url.pathname.startsWith("/api/")) return next();
    const key = `${isbot(c.req.header("user-agent") ?? "") ? "bot" : "browser"} ${url.pathname}${url.search}`;
    if (key.length > MAX_KEY_LENGTH) return next();

    let current: number;
    try {
      current = await contentVersion.current();
    } catch (error) {
      logger.warn({ err: error }, "content version unreadable; page rendered without the cache");
      return next();
    }
    if (current !== version) {
      entries.clear();
      bytes = 0;
      version = current;
    }
    const nonce = c.var.secureHeadersNonce ?? "";

    const cached = entries.get(key);
    if (cached && now() - cached.storedAt < options.ttlMs) {
      store(key, cached);
      return respond(cached, nonce, "hit");
    }
    const shared = rendering.get(key);
    if (shared) {
      const entry = await shared;
      if (entry) return respond(entry, nonce, "hit");
      return next();
    }

    let settle: (entry: Entry | null) => void = () => {};
    rendering.set(
      key,
      new Promise<Entry | null>((resolve) => {
        settle = resolve;
      }),
    );
    try {
      await next();
      if (!storable(c.res)) {
        settle(null);
        return;
      }
      const body = await c.res.text();
      const entry: Entry = {
        status: c.res.status,
        headers: [...c.res.headers.entries()],
        body,
        nonce,
        bytes: Buffer.byteLength(body),
        storedAt: now(),
      };
      // A render that started before a change must not be kept under the new version.
      if (version === current && entry.bytes <= options.maxBytes / 4) store(key, entry);
      settle(entry);
      c.res = respond(entry, nonce, "miss");
    } catch (error) {
      settle(null);
      throw error;
    } finally {
      rendering.delete(key);
    }
  };
}

/**
 * Moves the content version after every successful change by an admin (only
 * admins edit content; members' and anonymous posts publish nothing).
 */
export function contentChanges(contentVersion: ContentVersionService, logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const method = c.req.method;
    if (method === "GET" || method === "HEAD" || method === "OPTIONS") return;
    // Only admins change what visitors see; a member's profile, picture or logout leaves the cache alone.
    if (c.var.auth?.user.role.name !== "admin" || c.res.status >= 400) return;
    try {
      await contentVersion.changed();
    } catch (error) {
      // The change itself is saved; cached pages catch up when they expire.
      logger.error({ err: error }, "content version not moved after a change");
    }
  };
}
