/**
 * Entries kept in memory for one content version at a time: a newer version
 * empties the store, an entry older than `ttlMs` is not served, and the least
 * recently used go first once `maxBytes` is spent. Shared by the page cache
 * and the API's answer cache.
 */
export type Stored = { bytes: number; storedAt: number };

export type VersionedStore<T extends Stored> = {
  /** A fresh entry for `key` under `version` (touched for the LRU), or null. */
  get: (key: string, version: number) => T | null;
  /** Keeps `entry` if it was made under the version the store holds and fits a quarter of the budget. */
  set: (key: string, entry: T, version: number) => void;
};

export function createVersionedStore<T extends Stored>(options: {
  maxBytes: number;
  ttlMs: number;
  now: () => number;
}): VersionedStore<T> {
  const entries = new Map<string, T>();
  let version: number | null = null;
  let bytes = 0;

  function forget(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
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
      const entry = entries.get(key);
      if (!entry || options.now() - entry.storedAt >= options.ttlMs) return null;
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    },
    set(key, entry, made) {
      // Something made before a change must not be kept under the new version.
      if (made !== version || entry.bytes > options.maxBytes / 4) return;
      forget(key);
      entries.set(key, entry);
      bytes += entry.bytes;
      // A Map iterates in insertion order and hits re-insert, so the first keys are the least recently used.
      for (const oldest of entries.keys()) {
        if (bytes <= options.maxBytes) break;
        forget(oldest);
      }
    },
  };
}
