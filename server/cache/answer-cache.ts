import type { ContentVersionService } from "../../core/content-version/content-version.service";
import { encodeStored, type StoredBody } from "../middleware/compress";
import { createVersionedStore } from "./versioned-store";

/**
 * Answers of the API's read routes that depend only on the request and the
 * caller's role (`cache: "content"` in a route's contract: the news list,
 * the meetings, a category's papers, the site search), kept in memory per
 * content version for ANSWER_TTL_MS. The access check, the session and the
 * input validation still run for every request; only the reading, the
 * serializing and the compressing are saved: each encoding a client asks for
 * is made once per stored answer, like a cached page's (decision 0026). An
 * admin's change empties it in every process, as it does the page cache.
 */
export const ANSWER_CACHE_HEADER = "X-Answer-Cache";

type Answer = StoredBody & { contentType: string; bytes: number; storedAt: number };

export type AnswerCache = {
  /**
   * The stored answer for `key`, else `make()`'s, kept when it is a 200 without cookies; encoded for a
   * client whose Accept-Encoding is `acceptEncoding`.
   */
  answer: (key: string, make: () => Promise<Response>, acceptEncoding?: string) => Promise<Response>;
};

async function respond(answer: Answer, state: "hit" | "miss", acceptEncoding: string | undefined): Promise<Response> {
  const { body, encoding, varies } = await encodeStored(answer, acceptEncoding);
  const headers: Record<string, string> = {
    "Content-Type": answer.contentType,
    "Content-Length": String(body.byteLength),
    [ANSWER_CACHE_HEADER]: state,
  };
  if (varies) headers.Vary = "Accept-Encoding";
  if (encoding) headers["Content-Encoding"] = encoding;
  return new Response(body as BodyInit, { status: 200, headers });
}

export function createAnswerCache(
  contentVersion: ContentVersionService,
  options: {
    maxBytes: number;
    ttlMs: number;
    now?: () => number;
    /** What an answer served under a version must have been stored after: a scheduled post's time that has come (decision 0071). */
    staleBefore?: (version: number) => number | null | undefined;
    /** Resolves once `staleBefore` is known for the version (content-schedule.ts `ready`). */
    scheduleReady?: (version: number) => Promise<void>;
  },
): AnswerCache {
  const now = options.now ?? Date.now;
  const store = createVersionedStore<Answer>({
    maxBytes: options.maxBytes,
    ttlMs: options.ttlMs,
    now,
    staleBefore: options.staleBefore,
  });
  return {
    async answer(key, make, acceptEncoding) {
      // Until PostgreSQL's first poll has answered, the database itself.
      const version = contentVersion.known() ?? (await contentVersion.current());
      const stored = store.get(key, version);
      if (stored) return respond(stored, "hit", acceptEncoding);
      // As old as the data it read: a scheduled post that appears while it is made is not in it (decision 0071).
      const startedAt = now();
      const response = await make();
      const contentType = response.headers.get("Content-Type") ?? "";
      if (response.status !== 200 || response.headers.has("Set-Cookie") || !contentType.includes("json")) {
        return response;
      }
      const body = new Uint8Array(await response.arrayBuffer());
      // The budget counts the encodings too: together they are at most about the body's size again.
      const answer: Answer = {
        body,
        contentType,
        bytes: 2 * body.byteLength + key.length,
        storedAt: startedAt,
        encoded: {},
        // An answer dropped before its turn for brotli's highest quality is not encoded again.
        kept: () => store.holds(key, answer),
      };
      await options.scheduleReady?.(version);
      store.set(key, answer, version);
      return respond(answer, "miss", acceptEncoding);
    },
  };
}
