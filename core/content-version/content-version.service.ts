import type { ContentVersionRepository } from "./content-version.repository";

/** How stale another process's change may be seen where the stamp cannot be read synchronously (PostgreSQL). */
export const CONTENT_VERSION_POLL_MS = 200;

/**
 * The stamp that invalidates every process's cached public pages. Bumped after
 * any successful change made by an admin (server/middleware/page-cache.ts),
 * so no service can forget to.
 *
 * `known()` is what a page cache hit consults, without waiting. On SQLite it is
 * the stamp itself, read synchronously once per turn of the event loop and
 * shared by the requests handled in that turn: they had all arrived when the
 * turn's poll returned, before the read, so a change committed before any of
 * them was sent (another process's admin saw its answer, then asked here) is
 * seen. On PostgreSQL it is the value last read by a poll every
 * CONTENT_VERSION_POLL_MS, or written by this process's own change.
 * `current()` always asks the database.
 */
export function createContentVersionService(deps: { repository: ContentVersionRepository; pollMs?: number }) {
  const { repository } = deps;
  const pollMs = deps.pollMs ?? CONTENT_VERSION_POLL_MS;
  let seen: number | null = null;
  let thisTurn: number | null = null;
  const endTurn = () => {
    thisTurn = null;
  };
  let poller: NodeJS.Timeout | null = null;
  const refresh = () =>
    repository.current().then(
      (version) => {
        seen = Math.max(seen ?? 0, version);
      },
      // A failed poll keeps the last value; hits stay within the pages' own lifetime (PAGE_TTL_MS).
      () => {},
    );
  return {
    current: () => repository.current(),
    async changed(): Promise<void> {
      const version = await repository.bump();
      seen = Math.max(seen ?? 0, version);
      thisTurn = null;
    },
    known(): number | null {
      if (repository.currentSync) {
        if (thisTurn === null) {
          thisTurn = repository.currentSync();
          setImmediate(endTurn);
        }
        return thisTurn;
      }
      if (!poller) {
        poller = setInterval(refresh, pollMs);
        poller.unref();
        void refresh();
      }
      return seen;
    },
    /** Stops the poll (when the database closes). */
    stop(): void {
      if (poller) clearInterval(poller);
      poller = null;
    },
  };
}
export type ContentVersionService = ReturnType<typeof createContentVersionService>;
