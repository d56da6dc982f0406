import type { Clock } from "../../lib/clock";

/**
 * When the site's content changed by itself, with nobody saving anything: a scheduled news post's
 * time (decision 0071). A cached page or answer stored before the latest such moment lacks the post
 * and is not served, so a post appears at its time on every page and list, with no job to run and
 * nothing to miss.
 *
 * The caches ask synchronously, with the content version they serve under. The answer is known per
 * version, and read again after every change (a new version) and once the next scheduled moment has
 * come. While a read is under way the answer is "not known", and the caches answer from the
 * database (a few milliseconds after a change or a scheduled moment).
 */
export function createContentSchedule(deps: {
  /** The next scheduled moment (ISO) after now, or null. */
  next: () => Promise<string | null>;
  /** The latest moment (ISO) a post became visible, now or before, or null. */
  latest: () => Promise<string | null>;
  clock: Clock;
  onError?: (error: unknown) => void;
}) {
  let known: { version: number; next: number | null; latest: number | null } | null = null;
  let reading: Promise<void> | null = null;
  const now = () => deps.clock().getTime();
  const time = (iso: string | null) => (iso === null ? null : Date.parse(iso));

  /** Known for this version, and the next scheduled moment not come yet. */
  const current = (version: number) =>
    known !== null && known.version === version && (known.next === null || known.next > now());

  function read(version: number): void {
    reading ??= Promise.all([deps.next(), deps.latest()])
      .then(
        ([next, latest]) => {
          known = { version, next: time(next), latest: time(latest) };
        },
        (error: unknown) => deps.onError?.(error),
      )
      .finally(() => {
        reading = null;
      });
  }

  return {
    /** The clock the caches stamp their entries with: the one the schedule is read against. */
    now,
    /**
     * What a cache entry served under `version` must have been stored after (milliseconds since the
     * epoch): the latest moment a post became visible; null for no such moment; undefined while not
     * known (serve nothing from the cache meanwhile).
     */
    staleBefore(version: number): number | null | undefined {
      if (current(version)) return known?.latest ?? null;
      read(version);
      return undefined;
    },
    /**
     * Resolves once the schedule is known for `version` (read if needed): a cache awaits it before it
     * stores, so that the next request can be answered from the cache (a failed read resolves too).
     */
    async ready(version: number): Promise<void> {
      // A read under way may be for an earlier version: then once more for this one.
      for (let attempt = 0; attempt < 3 && !current(version); attempt++) {
        read(version);
        await reading;
      }
    },
  };
}
export type ContentSchedule = ReturnType<typeof createContentSchedule>;
