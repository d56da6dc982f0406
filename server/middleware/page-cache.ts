import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { isbot } from "isbot";
import { accessKey, editsAnything, editsFor, managesContent, sharedCompany } from "../../core/access/access";
import { carriesSessionCookie } from "../../core/auth/auth.cookie";
import type { Authenticated } from "../../core/auth/auth.service";
import type { ContentVersionService } from "../../core/content-version/content-version.service";
import { encodingEtags, ifNoneMatchNames } from "../../lib/etag";
import { loggedPath } from "../../lib/logged-path";
import type { Logger } from "../../lib/logger";
import { ANSWER_CACHE_HEADER } from "../cache/answer-cache";
import { createVersionedStore } from "../cache/versioned-store";
import type { AppEnv } from "../env";
import { clientIp } from "./client";
import { compressBody, encodeResponse, improveLater, negotiateEncoding } from "./compress";
import { crossSite } from "./csrf";
import { replaceResponse } from "./replace-response";
import { acceptedRequestId, CLIENT_CLOSED_REQUEST } from "./request-log";

/**
 * Rendered pages for anonymous visitors, kept in memory as the bytes each
 * encoding sends.
 *
 * Server rendering costs two orders of magnitude more than sending bytes, and
 * an anonymous visitor sees the same page as every other anonymous visitor.
 * So a GET without a session or token is answered from memory when the same
 * URL was rendered less than PAGE_TTL_MS ago and the content version stamp has
 * not moved since. Redirects, errors and any response that sets a cookie or
 * says private/no-store are never cached; signed-in users, see below. Of the
 * API, only the anonymous GETs of routes whose answer is the same for every
 * caller of a role (`cache: "content"`: the meetings, the site search) are
 * kept, with their headers as the chain wrote them (no-store for browsers
 * included): an API client asking for the meetings costs what a cached page does.
 *
 * Two doors lead to the same entries. `serveHit` sits in front of everything
 * on the node:http server (server/index.ts) and answers a hit without the
 * middleware chain: the stored headers are the ones the chain wrote when the
 * page was rendered (security headers included), so a hit only adds its
 * request id and writes its log line. `middleware`, the outermost middleware
 * of the app, answers the hits the front door passed on (in-process requests,
 * unusual URLs) and renders, encodes and stores the misses.
 *
 * Signed-in users get the pages whose routes opt in (server/shared-pages.ts)
 * from the same store, one entry per role (decision 0032). `signedIn` sits
 * in the chain after the session: a hit is answered there, and a miss is
 * rendered with a user who has the role alone, then stored by `middleware`
 * once the chain has written every header (CSP included). Nothing of a person
 * reaches such an entry, because nothing of a person reaches its render.
 *
 * Each entry keeps the CSP nonce of the render that made it, in its body and in
 * its header alike (decision 0026): the body never changes, so a visitor who
 * reads the nonce cannot write it into that page, and every render, hence every
 * URL and every new version, gets a new one.
 */

export type PageCacheOptions = {
  /** Memory budget for the stored bodies (all encodings); the least recently used go first. */
  maxBytes: number;
  /** How long a page may be served from memory, so time-dependent content (this month, upcoming) moves on. */
  ttlMs: number;
  /** TRUST_PROXY: whose address the log line records. */
  trustProxy: boolean;
  /** The site's own origins (BASE_URL's), for the CSRF check an anonymous POST passes at the front door (csrf.ts). */
  allowedOrigins?: readonly string[];
  /**
   * The session check (core/auth), for API clients' Bearer tokens at the front door; without it a request
   * that carries one always goes through the app.
   */
  authenticate?: (token: string) => Promise<Authenticated | null>;
  /**
   * Whether an API route at this method and path (`/api/…`) declares its answer content; only those
   * requests are keyed, read ahead or looked up. Absent: every API request may be.
   */
  contentRoute?: (method: string, pathname: string) => boolean;
  now?: () => number;
  /** What a page served under a version must have been stored after: a scheduled post's time that has come (decision 0071). */
  staleBefore?: (version: number) => number | null | undefined;
  /** Resolves once `staleBefore` is known for the version (content-schedule.ts `ready`). */
  scheduleReady?: (version: number) => Promise<void>;
};

export type PageCache = {
  middleware: MiddlewareHandler<AppEnv>;
  /** Answers a fresh hit on a node:http request; false when the request must go through the app. */
  serveHit: (request: IncomingMessage, response: ServerResponse) => boolean;
  /**
   * Answers a fresh hit of the API's content answers that needs more than the request line: an API
   * client's Bearer token, a POST's body. Resolves false when the request must go through the app (with
   * the body it has read kept as `rawBody`, which @hono/node-server hands on).
   */
  serveApiHit: (request: IncomingMessage & { rawBody?: Buffer }, response: ServerResponse) => Promise<boolean>;
  /**
   * The door for signed-in users, in the chain after the session: pages whose path `shared` accepts
   * come from the entry of the user's role, or are rendered for that role alone and stored.
   */
  signedIn: (shared: (pathname: string) => boolean | Promise<boolean>) => MiddlewareHandler<AppEnv>;
};

type Encoding = "br" | "gzip" | "identity";

type Variant = {
  body: Buffer;
  etag: string;
  /** Every response header but X-Request-Id, flat ([name, value, name, value…]) as writeHead takes them. */
  headers: string[];
  /** A 304's headers: the validator and caching headers only, so the browser keeps the CSP stored with its copy. */
  notModified: string[];
};

type Entry = {
  variants: Record<Encoding, Variant>;
  /** The validators of every encoding: a page revalidated in one encoding is unchanged in the others too. */
  etags: string[];
  bytes: number;
  storedAt: number;
};

const CACHEABLE_TYPE = /^text\/(html|x-script)\b/;
const JSON_TYPE = /^application\/json\b/;
/** The bodies of API reads the cache keys on: small, and in a form whose bytes are the whole input. */
const API_BODY_LIMIT = 4096;
const API_BODY_TYPE = /^application\/(json|x-www-form-urlencoded)\s*(;\s*charset=utf-8\s*)?$/i;
const BEARER = /^Bearer\s+(\S+)$/i;
const UNCACHEABLE_CONTROL = /\b(private|no-store|no-cache)\b/i;
const MAX_KEY_LENGTH = 2048;
/** Headers that belong to one response, not to the page: each hit writes its own. */
const PER_RESPONSE = new Set([
  "content-length",
  "content-encoding",
  "x-request-id",
  "etag",
  "vary",
  "date",
  ANSWER_CACHE_HEADER.toLowerCase(),
]);
/**
 * Request targets the front door keys as they come: characters URL parsing
 * leaves alone and no dot segments, so that the key is the one the app's
 * parsed URL gives. Anything else takes the middleware's door.
 */
const PLAIN_TARGET = /^\/(?!.*(?:\/\.|%2e))[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*$/i;
export const PAGE_CACHE_HEADER = "X-Page-Cache";

/** A header node:http may give as a list, as one text (the first). */
function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Bounded memo for per-header and per-path decisions (user agents, Accept-Encoding values, paths repeat endlessly). */
export function memo<T>(decide: (value: string) => T, limit = 512): (value: string) => T {
  const known = new Map<string, T>();
  return (value) => {
    let decided = known.get(value);
    if (decided === undefined) {
      decided = decide(value);
      if (known.size >= limit) known.clear();
      known.set(value, decided);
    }
    return decided;
  };
}
const audienceOf = memo((userAgent: string) => (isbot(userAgent) ? "bot" : "browser"));
const encodingOf = memo((accept: string): Encoding => negotiateEncoding(accept) ?? "identity", 64);

/** The cache key of a request, or null when the request may not be answered from the cache. */
function keyOf(request: {
  method: string;
  target: string;
  cookie: string | undefined;
  authorization: string | undefined;
  userAgent: string | undefined;
}): string | null {
  if (request.method !== "GET" || request.authorization) return null;
  if (request.cookie && carriesSessionCookie(request.cookie)) return null;
  if (request.target.length > MAX_KEY_LENGTH) return null;
  // Whether an API answer may be kept is known once its route has answered (`storable`); bots get the same JSON.
  if (request.target.startsWith("/api/")) return apiKey("visitor", "GET", request.target);
  return `${audienceOf(request.userAgent ?? "")} ${request.target}`;
}

/**
 * The key of an API content answer: the caller's access key (what such a route's answer may depend on,
 * besides the request), the method, the target and, for a POST, its content type and bytes.
 */
function apiKey(role: string, method: string, target: string, body?: { type: string; bytes: Buffer }): string {
  const base = `api ${role} ${method} ${target}`;
  // Line breaks apart: a header value cannot hold one, so no type and body can pass for another pair.
  return body ? `${base}\n${body.type.toLowerCase()}\n${body.bytes.toString("latin1")}` : base;
}

/**
 * An API request that may be answered from a stored content answer once its caller's role is known:
 * a GET, or a POST with a small body of a known type and length; from an API client (a Bearer token) or
 * anonymous, never a browser's session, whose answers go through the app.
 */
function apiCandidate(request: {
  method: string;
  target: string;
  cookie: string | undefined;
  authorization: string | undefined;
  contentType: string | undefined;
  contentLength: string | undefined;
  transferEncoding: string | undefined;
  methodOverride: string | undefined;
}): { bearer: string | null; bodyLength: number } | null {
  const { method, target } = request;
  if ((method !== "GET" && method !== "POST") || !target.startsWith("/api/") || target.length > MAX_KEY_LENGTH) {
    return null;
  }
  // A POST that asks to be another method is the method override's to dispatch (or refuse).
  if (request.methodOverride !== undefined) return null;
  if (request.cookie && carriesSessionCookie(request.cookie)) return null;
  let bearer: string | null = null;
  if (request.authorization !== undefined) {
    bearer = BEARER.exec(request.authorization)?.[1] ?? null;
    if (bearer === null) return null;
  }
  if (method === "GET") return { bearer, bodyLength: 0 };
  const length = request.contentLength;
  if (request.transferEncoding !== undefined || length === undefined || !/^\d{1,4}$/.test(length)) return null;
  const bodyLength = Number(length);
  if (bodyLength > API_BODY_LIMIT || !API_BODY_TYPE.test(request.contentType ?? "")) return null;
  return { bearer, bodyLength };
}

/** Headers the key, the session or the CSRF check reads; node:http keeps the first of a repeat, the app joins them. */
const DECIDING_HEADERS = [
  "authorization",
  "content-type",
  "content-length",
  "origin",
  "sec-fetch-site",
  "host",
  "cookie",
  "x-http-method-override",
];

/** Whether the request repeats a header the two doors would read differently: such a request is the app's. */
function repeatsDecidingHeader(request: IncomingMessage): boolean {
  const distinct = request.headersDistinct;
  return DECIDING_HEADERS.some((name) => (distinct[name]?.length ?? 0) > 1);
}

/** A request body of known, small length, read whole; null when the client went away first. */
function readBody(request: IncomingMessage, length: number): Promise<Buffer | null> {
  // The client may have gone while the token was checked: its events have fired already.
  if (request.destroyed || request.readableEnded || request.errored) return Promise.resolve(null);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (body: Buffer | null) => {
      if (settled) return;
      settled = true;
      resolve(body);
    };
    request.on("data", (chunk: Buffer) => {
      received += chunk.length;
      chunks.push(chunk);
    });
    request.once("end", () => settle(received === length ? Buffer.concat(chunks, received) : null));
    request.once("error", () => settle(null));
    // After "end" this changes nothing; before it, the connection went away mid-body.
    request.once("close", () => settle(null));
  });
}

function storable(response: Response, how: { signedIn?: boolean; contentAnswer?: boolean; api?: boolean }): boolean {
  if (
    response.status !== 200 ||
    response.body === null ||
    response.headers.has("Set-Cookie") ||
    response.headers.has("Content-Encoding")
  ) {
    return false;
  }
  const type = response.headers.get("Content-Type") ?? "";
  // An API answer says no-store to browsers (cache-control.ts); kept here only when its route says it is content.
  if (how.api) return how.contentAnswer === true && JSON_TYPE.test(type);
  return (
    CACHEABLE_TYPE.test(type) &&
    // Every answer to a signed-in user says private, no-store (cache-control.ts): the entry keeps saying it.
    (how.signedIn === true || !UNCACHEABLE_CONTROL.test(response.headers.get("Cache-Control") ?? ""))
  );
}

/**
 * The signed-in user as a page shared by their access is rendered: the role, whether their company
 * has lapsed, and nothing that names or reaches the person or the company (id 0 is no user's; GET
 * renders write nothing).
 */
function roleOnly(auth: Authenticated): Authenticated {
  return {
    ...auth,
    sessionId: 0,
    user: { id: 0, first_name: "", last_name: "", email: "", phone_number: null, avatar: null, role: auth.user.role },
    company: sharedCompany(auth),
  };
}

/**
 * Encodes a rendered page once in each encoding, off the main thread, and lays out its headers.
 * Its brotli is replaced by a smaller one later (improveLater) while `kept(entry)` says the cache
 * still holds it; the ETag names the content in that encoding, not the compressor's bytes.
 */
async function makeEntry(
  response: Response,
  nonce: string,
  storedAt: number,
  kept: (entry: Entry) => boolean,
): Promise<Entry> {
  const identity = Buffer.from(await response.arrayBuffer());
  const [br, gz] = await Promise.all([
    compressBody(identity, "br", "request"),
    compressBody(identity, "gzip", "stored"),
  ]);
  // The validator ignores the nonce, so a page rendered again unchanged (another process, a later render) still matches.
  const hashed = nonce ? identity.toString("latin1").replaceAll(nonce, "") : identity;
  const etags = encodingEtags(createHash("sha256").update(hashed).digest("base64url").slice(0, 27));
  const vary = ["Accept-Encoding"];
  const common: string[] = [];
  let cacheControl: string | null = null;
  for (const [name, value] of response.headers) {
    const lower = name.toLowerCase();
    if (lower === "vary") {
      for (const part of value.split(",")) {
        const item = part.trim();
        if (item && item.toLowerCase() !== "accept-encoding") vary.push(item);
      }
    } else if (lower === "cache-control") {
      // Written once, with the validators (a 304 carries it too).
      cacheControl = value;
    } else if (!PER_RESPONSE.has(lower)) {
      common.push(name, value);
    }
  }
  const variant = (body: Buffer, encoding: Encoding, etag: string): Variant => {
    const validators = [
      "ETag",
      etag,
      "Vary",
      vary.join(", "),
      ...(cacheControl ? ["Cache-Control", cacheControl] : []),
    ];
    return {
      body,
      etag,
      headers: [
        ...common,
        ...validators,
        ...(encoding === "identity" ? [] : ["Content-Encoding", encoding]),
        "Content-Length",
        String(body.length),
        PAGE_CACHE_HEADER,
        "hit",
      ],
      notModified: [...validators, PAGE_CACHE_HEADER, "hit"],
    };
  };
  const variants = {
    identity: variant(identity, "identity", etags.identity),
    br: variant(br, "br", etags.br),
    gzip: variant(gz, "gzip", etags.gzip),
  };
  const entry: Entry = {
    variants,
    etags: Object.values(etags),
    // The quick brotli's length: the smaller one that replaces it leaves the budget counted high, not low.
    bytes: identity.length + br.length + gz.length,
    storedAt,
  };
  improveLater(identity, br.length, {
    wanted: () => kept(entry),
    use: (best) => {
      variants.br = variant(best, "br", etags.br);
    },
  });
  return entry;
}

/** The entry as a fetch Response (the middleware's door). */
function asResponse(entry: Entry, c: Context<AppEnv>, requestId: string, state: "hit" | "miss"): Response {
  const variant = entry.variants[encodingOf(c.req.header("accept-encoding") ?? "")];
  const notModified = c.req.method === "GET" && ifNoneMatchNames(c.req.header("if-none-match"), entry.etags);
  const flat = notModified ? variant.notModified : variant.headers;
  const headers = new Headers();
  for (let i = 0; i < flat.length; i += 2) headers.append(flat[i], flat[i + 1]);
  headers.set(PAGE_CACHE_HEADER, state);
  headers.set("X-Request-Id", requestId);
  if (notModified) return new Response(null, { status: 304, headers });
  return new Response(variant.body as BodyInit, { status: 200, headers });
}

export function createPageCache(
  contentVersion: ContentVersionService,
  options: PageCacheOptions,
  logger: Logger,
): PageCache {
  const now = options.now ?? Date.now;
  const store = createVersionedStore<Entry>({
    maxBytes: options.maxBytes,
    ttlMs: options.ttlMs,
    now,
    staleBefore: options.staleBefore,
  });

  /** The response the chain made for `key`, as an entry kept under `version`. */
  async function keep(c: Context<AppEnv>, key: string, version: number): Promise<Entry> {
    const renderedAt = c.get("renderStartedAt") ?? now();
    const entry = await makeEntry(c.res, c.get("secureHeadersNonce") ?? "", renderedAt, (kept) =>
      store.holds(key, kept),
    );
    // The schedule known for this version first, so that the next request is answered from here (decision 0071).
    await options.scheduleReady?.(version);
    store.set(key, entry, version);
    return entry;
  }
  // Concurrent misses for one URL share one render instead of all rendering it.
  const rendering = new Map<string, Promise<Entry | null>>();

  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const contentRoute = options.contentRoute ?? (() => true);

  function logHit(line: {
    req_id: string;
    method: string;
    path: string;
    status: number;
    started: number;
    ip: string;
    user?: number;
  }) {
    logger.info(
      {
        req_id: line.req_id,
        method: line.method,
        path: loggedPath(line.path),
        status: line.status,
        ms: Math.round((performance.now() - line.started) * 10) / 10,
        user: line.user,
        ip: line.ip,
        cache: "hit",
      },
      "request",
    );
  }

  /** Writes a stored entry on a node:http response (a 304 when the client holds it) and logs the line. */
  function writeHit(request: IncomingMessage, response: ServerResponse, entry: Entry, started: number, user?: number) {
    const headers = request.headers;
    const requestId = acceptedRequestId(headers["x-request-id"]);
    const variant = entry.variants[encodingOf(headers["accept-encoding"] ?? "")];
    let status = 200;
    // Validators answer GETs; a POST read always gets its answer (a 304 to a POST would mean nothing to it).
    if (request.method === "GET" && ifNoneMatchNames(headers["if-none-match"], entry.etags)) {
      status = 304;
      response.writeHead(304, [...variant.notModified, "X-Request-Id", requestId]);
      response.end();
    } else {
      response.writeHead(200, [...variant.headers, "X-Request-Id", requestId]);
      response.end(variant.body);
    }
    if (!logger.isLevelEnabled("info")) return;
    const target = request.url ?? "";
    const forwarded = options.trustProxy ? headers["x-forwarded-for"] : undefined;
    const ip = (typeof forwarded === "string" && forwarded.split(",").pop()?.trim().slice(0, 64)) || "";
    const queryAt = target.indexOf("?");
    logHit({
      req_id: requestId,
      method: request.method ?? "GET",
      path: queryAt < 0 ? target : target.slice(0, queryAt),
      status,
      started,
      ip: ip || (request.socket.remoteAddress ?? "unknown"),
      user,
    });
  }

  /** The content version; null (logged) when it cannot be read, and the page is rendered without the cache. */
  async function currentVersion(): Promise<number | null> {
    try {
      return await contentVersion.current();
    } catch (error) {
      logger.warn({ err: error }, "content version unreadable; page rendered without the cache");
      return null;
    }
  }

  function serveHit(request: IncomingMessage, response: ServerResponse): boolean {
    const target = request.url;
    if (target === undefined || !PLAIN_TARGET.test(target)) return false;
    const headers = request.headers;
    const key = keyOf({
      method: request.method ?? "",
      target,
      cookie: headers.cookie,
      authorization: headers.authorization,
      userAgent: headers["user-agent"],
    });
    if (key === null) return false;
    const current = contentVersion.known();
    if (current === null) return false;
    const entry = store.get(key, current);
    if (!entry) return false;
    writeHit(request, response, entry, performance.now());
    return true;
  }

  async function serveApiHit(request: IncomingMessage & { rawBody?: Buffer }, response: ServerResponse) {
    const target = request.url;
    const method = request.method ?? "";
    if (target === undefined || !PLAIN_TARGET.test(target)) return false;
    const headers = request.headers;
    const candidate = apiCandidate({
      method,
      target,
      cookie: headers.cookie,
      authorization: headers.authorization,
      contentType: headers["content-type"],
      contentLength: headers["content-length"],
      transferEncoding: headers["transfer-encoding"],
      methodOverride: headerText(headers["x-http-method-override"]),
    });
    if (candidate === null || repeatsDecidingHeader(request)) return false;
    const queryAt = target.indexOf("?");
    if (!contentRoute(method, queryAt < 0 ? target : target.slice(0, queryAt))) return false;
    if (candidate.bearer !== null && !options.authenticate) return false;
    // An anonymous POST passes the CSRF check first, as it would in the app (csrf.ts); a refusal is the app's to give.
    const provenance = {
      origin: headers.origin,
      fetchSite: headerText(headers["sec-fetch-site"]),
      host: headers.host,
      cookie: headers.cookie,
    };
    if (method === "POST" && candidate.bearer === null && crossSite(provenance, allowedOrigins)) return false;
    const started = performance.now();
    let role = "visitor";
    let user: number | undefined;
    // The token first: nothing of the body is read for a caller the app would turn away.
    if (candidate.bearer !== null && options.authenticate) {
      const auth = await options.authenticate(candidate.bearer);
      // An unknown or ended token: the app answers it as it answers such a token.
      if (auth === null) return false;
      role = accessKey(auth);
      user = auth.user.id;
    }
    let body: { type: string; bytes: Buffer } | undefined;
    if (method === "POST") {
      const bytes = await readBody(request, candidate.bodyLength);
      if (bytes === null) {
        // The client went away while sending (or sent other than it said): nobody is left to answer.
        response.destroy();
        logger.info(
          {
            req_id: acceptedRequestId(headers["x-request-id"]),
            method,
            path: loggedPath(queryAt < 0 ? target : target.slice(0, queryAt)),
            status: CLIENT_CLOSED_REQUEST,
            ms: Math.round((performance.now() - started) * 10) / 10,
            user,
            ip: request.socket.remoteAddress ?? "unknown",
          },
          "request",
        );
        return true;
      }
      // On a miss the app reads the body from here (@hono/node-server's rawBody).
      request.rawBody = bytes;
      body = { type: headers["content-type"] ?? "", bytes };
    }
    const current = contentVersion.known();
    if (current === null) return false;
    const entry = store.get(apiKey(role, method, target, body), current);
    if (!entry) return false;
    writeHit(request, response, entry, started, user);
    return true;
  }

  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    // An entry is as old as the data its render read: a scheduled post that appears mid-render is not in it.
    c.set("renderStartedAt", now());
    const url = new URL(c.req.url);
    // Of the API, only routes that declare their answer content are the cache's business.
    if (url.pathname.startsWith("/api/") && !contentRoute(c.req.method, url.pathname)) return next();
    const target = `${url.pathname}${url.search}`;
    const request = {
      method: c.req.method,
      target,
      cookie: c.req.header("cookie"),
      authorization: c.req.header("authorization"),
    };
    const key = keyOf({ ...request, userAgent: c.req.header("user-agent") });
    if (key === null) {
      const candidate = apiCandidate({
        ...request,
        contentType: c.req.header("content-type"),
        contentLength: c.req.header("content-length"),
        transferEncoding: c.req.header("transfer-encoding"),
        methodOverride: c.req.header("x-http-method-override"),
      });
      if (candidate) return storeApiAnswer(c, next, target);
      await next();
      return storeShared(c);
    }
    const started = performance.now();

    const current = await currentVersion();
    if (current === null) return next();
    const hit = (entry: Entry) => {
      const requestId = acceptedRequestId(c.req.header("x-request-id"));
      c.res = asResponse(entry, c, requestId, "hit");
      logHit({
        req_id: requestId,
        method: "GET",
        path: url.pathname,
        status: c.res.status,
        started,
        ip: clientIp(c, options.trustProxy),
      });
    };

    const cached = store.get(key, current);
    if (cached) return hit(cached);
    const shared = rendering.get(key);
    if (shared) {
      const entry = await shared;
      if (entry) return hit(entry);
      return next();
    }

    let settle: (entry: Entry | null) => void = () => {};
    rendering.set(
      key,
      new Promise<Entry | null>((resolve) => {
        settle = resolve;
      }),
    );
    // The cache encodes what it stores itself, once (server/middleware/compress.ts leaves this response alone).
    c.set("pageCacheEncodes", true);
    try {
      await next();
      if (!storable(c.res, { api: key.startsWith("api "), contentAnswer: c.get("contentAnswer") })) {
        settle(null);
        const encoded = await encodeResponse(c.res, c.req.method, c.req.header("accept-encoding"));
        if (encoded !== c.res) replaceResponse(c, encoded);
        return;
      }
      const entry = await keep(c, key, current);
      settle(entry);
      replaceResponse(c, asResponse(entry, c, c.get("requestId"), "miss"));
    } catch (error) {
      settle(null);
      throw error;
    } finally {
      rendering.delete(key);
    }
  };

  /**
   * An API client's read, or an anonymous POST read: answered by the app, and kept when its route says
   * it is content, under the role the session gave the caller (the front door answers the next one).
   */
  async function storeApiAnswer(c: Context<AppEnv>, next: () => Promise<void>, target: string) {
    const current = await currentVersion();
    if (current === null) return next();
    const method = c.req.method;
    let body: { type: string; bytes: Buffer } | undefined;
    if (method === "POST") {
      // The bytes the front door read, else a copy (the app reads the request as it came); at most the
      // limit checked before. Read before the app runs: @hono/node-server may read the body past a clone.
      const read = (c.env as { incoming?: { rawBody?: unknown } } | undefined)?.incoming?.rawBody;
      const bytes = Buffer.isBuffer(read) ? read : Buffer.from(await c.req.raw.clone().arrayBuffer());
      if (bytes.length > API_BODY_LIMIT) return next();
      body = { type: c.req.header("content-type") ?? "", bytes };
    }
    c.set("pageCacheEncodes", true);
    await next();
    const auth = c.get("auth");
    const byToken = c.get("authVia") === "bearer";
    if ((auth && !byToken) || !storable(c.res, { api: true, contentAnswer: c.get("contentAnswer") })) {
      const encoded = await encodeResponse(c.res, method, c.req.header("accept-encoding"));
      if (encoded !== c.res) replaceResponse(c, encoded);
      return;
    }
    const entry = await keep(c, apiKey(accessKey(auth), method, target, body), current);
    replaceResponse(c, asResponse(entry, c, c.get("requestId"), "miss"));
  }

  /** A signed-in page rendered for its role (`signedIn`), stored now that the chain has written its headers. */
  async function storeShared(c: Context<AppEnv>) {
    const shared = c.get("sharedPage");
    if (!shared) return;
    if (!storable(c.res, { signedIn: true })) {
      const encoded = await encodeResponse(c.res, c.req.method, c.req.header("accept-encoding"));
      if (encoded !== c.res) replaceResponse(c, encoded);
      return;
    }
    const entry = await keep(c, shared.key, shared.version);
    replaceResponse(c, asResponse(entry, c, c.get("requestId"), "miss"));
  }

  const signedIn: PageCache["signedIn"] = (shared) => async (c, next) => {
    const auth = c.get("auth");
    if (!auth || c.req.method !== "GET") return next();
    const url = new URL(c.req.url);
    const target = `${url.pathname}${url.search}`;
    if (target.length > MAX_KEY_LENGTH || !(await shared(url.pathname))) return next();
    const current = await currentVersion();
    if (current === null) return next();
    // One entry per access (admin, member, lapsed: core/access/access.ts), never "bot" or "browser", so
    // these keys never meet an anonymous visitor's; a member whose company lapses or is renewed changes key.
    const key = `${accessKey(auth)} ${audienceOf(c.req.header("user-agent") ?? "")} ${target}`;
    c.set("pageCacheEncodes", true);
    const cached = store.get(key, current);
    if (cached) return asResponse(cached, c, c.get("requestId"), "hit");
    c.set("sharedPage", { key, version: current });
    const sessionToken = c.get("sessionToken");
    c.set("auth", roleOnly(auth));
    c.set("sessionToken", null);
    try {
      await next();
    } finally {
      // What follows in the chain (cache headers, the logs) is about the person again.
      c.set("auth", auth);
      c.set("sessionToken", sessionToken);
    }
  };

  return { middleware, serveHit, serveApiHit, signedIn };
}

/**
 * Moves the content version after every successful change by an admin, and after a member's
 * change that a route says publishes (`publishes`: a primary contact's company profile, which
 * the directory shows); other members' and anonymous posts publish nothing.
 */
export function contentChanges(contentVersion: ContentVersionService, logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const method = c.req.method;
    if (method === "GET" || method === "HEAD" || method === "OPTIONS") return;
    // Admins, editors and working groups' chairs (their group's meetings and papers, from the pages
    // as from the API) change what others see; a member's profile, picture or logout leaves the cache alone.
    const auth = c.get("auth");
    const role = auth?.user.role.name;
    const publisher =
      (role !== undefined && managesContent(role)) || c.get("publishes") === true || editsAnything(editsFor(auth));
    if (!publisher || c.res.status >= 400 || c.get("readOnly")) return;
    try {
      await contentVersion.changed();
    } catch (error) {
      // The change itself is saved; cached pages catch up when they expire.
      logger.error({ err: error }, "content version not moved after a change");
    }
  };
}
