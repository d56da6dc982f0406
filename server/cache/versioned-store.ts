/**
 * Entries kept in memory for one content version at a time: a newer version
 * empties the store, an entry older than its lifetime (`ttlMs`, less up to
 * EXPIRY_SPREAD of it) is not served, and the least recently used go first
 * once `maxBytes` is spent. Shared by the page cache and the API's answer cache.
 */
export type Stored = { bytes: number; storedAt: number };

/**
 * Each entry lives between (1 - EXPIRY_SPREAD) × ttlMs and ttlMs, at random. Pages stored together
 * (a process's first minute, or just after a change) would otherwise expire together, and their
 * renders and stored-quality compressions all run at once: in the soak, a spike of some 40 MiB
 * every minute (decision 0029).
 */
export const EXPIRY_SPREAD = 0.25;

export type VersionedStore<T extends Stored> = {
  /** A fresh entry for `key` under `version` (touched for the LRU), or null. */
  get: (key: string, version: number) => T | null;
  /** Keeps `entry` if it was made under the version the store holds and fits a quarter of the budget. */
  set: (key: string, entry: T, version: number) => void;
  /** Whether `entry` is still the one kept for `key` (not replaced, dropped or emptied out); no LRU touch. */
  holds: (key: string, entry: T) => boolean;
};

export function createVersionedStore<T extends Stored>(options: {
  maxBytes: number;
  ttlMs: number;
  now: () => number;
  /**
   * An entry served under a version must have been stored after this moment (a scheduled post's time
   * that has come, decision 0071; content-schedule.ts): null for none, undefined while not known (no hits then).
   */
  staleBefore?: (version: number) => number | null | undefined;
}): VersionedStore<T> {
  const entries = new Map<string, { entry: T; expiresAt: number }>();
  let version: number | null = null;
  let bytes = 0;

  function forget(key: string) {
    const kept = entries.get(key);
    if (!kept) return;
    entries.delete(key);
    bytes -= kept.entry.bytes;
  }

  return {
    get(key, current) {
      if (version === null || current > version) {
        entries.clear();
        bytes = 0;
        version = current;
        return null;
      }
      // A view older than one already seen (a lagging poll): no hit, nothing cleared.
      if (current < version) return null;
      const kept = entries.get(key);
      if (!kept || options.now() >= kept.expiresAt) return null;
      if (options.staleBefore) {
        const since = options.staleBefore(current);
        // Stored before a scheduled post appeared (it lacks it), or not known yet: not served.
        if (since === undefined || (since !== null && kept.entry.storedAt < since)) return null;
      }
      entries.delete(key);
      entries.set(key, kept);
      return kept.entry;
    },
    set(key, entry, made) {
      // Something made before a change must not be kept under the new version.
      if (made !== version || entry.bytes > options.maxBytes / 4) return;
      forget(key);
      const lifetime = options.ttlMs * (1 - EXPIRY_SPREAD * Math.random());
      entries.set(key, { entry, expiresAt: entry.storedAt + lifetime });
      bytes += entry.bytes;
      // A Map iterates in insertion order and hits re-insert, so the first keys are the least recently used.
      for (const oldest of entries.keys()) {
        if (bytes <= options.maxBytes) break;
        forget(oldest);
      }
    },
    holds(key, entry) {
      return entries.get(key)?.entry === entry;
    },
  };
}
