import type { ContentVersionService } from "../../core/content-version/content-version.service";
import { createVersionedStore } from "./versioned-store";

/**
 * Answers of the API's read routes that depend only on the request and the
 * caller's role (`cache: "content"` in a route's contract: the news list,
 * the meetings, a category's papers, the site search), kept in memory per
 * content version for ANSWER_TTL_MS. The access check, the session and the
 * input validation still run for every request; only the reading and the
 * serializing are saved. An admin's change empties it in every process, as
 * it does the page cache (decision 0026).
 */
export const ANSWER_CACHE_HEADER = "X-Answer-Cache";

type Answer = { body: Uint8Array; contentType: string; bytes: number; storedAt: number };

export type AnswerCache = {
  /** The stored answer for `key`, else `make()`'s, kept when it is a 200 without cookies. */
  answer: (key: string, make: () => Promise<Response>) => Promise<Response>;
};

function respond(answer: Answer, state: "hit" | "miss"): Response {
  return new Response(answer.body as BodyInit, {
    status: 200,
    headers: { "Content-Type": answer.contentType, [ANSWER_CACHE_HEADER]: state },
  });
}

export function createAnswerCache(
  contentVersion: ContentVersionService,
  options: { maxBytes: number; ttlMs: number; now?: () => number },
): AnswerCache {
  const now = options.now ?? Date.now;
  const store = createVersionedStore<Answer>({ maxBytes: options.maxBytes, ttlMs: options.ttlMs, now });
  return {
    async answer(key, make) {
      // Until PostgreSQL's first poll has answered, the database itself.
      const version = contentVersion.known() ?? (await contentVersion.current());
      const stored = store.get(key, version);
      if (stored) return respond(stored, "hit");
      const response = await make();
      const contentType = response.headers.get("Content-Type") ?? "";
      if (response.status !== 200 || response.headers.has("Set-Cookie") || !contentType.includes("json")) {
        return response;
      }
      const body = new Uint8Array(await response.arrayBuffer());
      const answer: Answer = { body, contentType, bytes: body.byteLength + key.length, storedAt: now() };
      store.set(key, answer, version);
      return respond(answer, "miss");
    },
  };
}
