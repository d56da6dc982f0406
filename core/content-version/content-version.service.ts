import type { ContentVersionRepository } from "./content-version.repository";

/**
 * PostgreSQL: how often the stamp is read as well, in case an announcement was
 * lost (the LISTEN connection dropped): the most a change can lag then.
 */
export const CONTENT_VERSION_POLL_MS = 200;
/**
 * PostgreSQL: how long a change waits, before it is answered, for every
 * listening process to say it heard it. Only a process that is stuck or gone
 * makes it wait that long; the poll then catches that one up.
 */
export const CONTENT_VERSION_HEARD_MS = 500;

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
 * seen. On PostgreSQL it is the highest value this process has heard of:
 * every bump is pushed to every process as it commits (LISTEN/NOTIFY), and
 * `changed()` returns only once every listening process has said it heard it
 * (or CONTENT_VERSION_HEARD_MS has passed), so a request sent after the
 * admin's answer, to any process, finds it (decision 0031). A poll every
 * CONTENT_VERSION_POLL_MS catches up should an announcement be lost.
 * `current()` always asks the database.
 */
export function createContentVersionService(deps: {
  repository: ContentVersionRepository;
  pollMs?: number;
  heardMs?: number;
  onError?: (error: unknown) => void;
}) {
  const { repository } = deps;
  const pollMs = deps.pollMs ?? CONTENT_VERSION_POLL_MS;
  const heardMs = deps.heardMs ?? CONTENT_VERSION_HEARD_MS;
  let seen: number | null = null;
  let thisTurn: number | null = null;
  const endTurn = () => {
    thisTurn = null;
  };
  let poller: NodeJS.Timeout | null = null;
  const heard = (version: number) => {
    seen = Math.max(seen ?? 0, version);
  };
  const refresh = () =>
    repository.current().then(
      heard,
      // A failed poll keeps the last value; hits stay within the pages' own lifetime (PAGE_TTL_MS).
      () => {},
    );
  /** PostgreSQL: the poll, and listening to the other processes. */
  const listen = () => {
    if (repository.currentSync || poller) return;
    poller = setInterval(refresh, pollMs);
    poller.unref();
    repository.push?.start({ onVersion: heard, onListening: refresh, onError: deps.onError });
    void refresh();
  };
  return {
    current: () => repository.current(),
    /** Starts listening for other processes' changes now rather than at the first page served (the server). */
    listen,
    async changed(): Promise<void> {
      listen();
      const version = await repository.bump();
      heard(version);
      thisTurn = null;
      await repository.push?.heardEverywhere(version, heardMs);
    },
    known(): number | null {
      if (repository.currentSync) {
        if (thisTurn === null) {
          thisTurn = repository.currentSync();
          setImmediate(endTurn);
        }
        return thisTurn;
      }
      listen();
      return seen;
    },
    /** Stops the poll and the listening (when the database closes). */
    async stop(): Promise<void> {
      if (poller) clearInterval(poller);
      poller = null;
      await repository.push?.stop();
    },
  };
}
export type ContentVersionService = ReturnType<typeof createContentVersionService>;
