import { describe, expect, it } from "vitest";
import { createVersionedStore } from "../../server/cache/versioned-store";

describe("versioned store: holds", () => {
  const entry = (bytes = 10) => ({ bytes, storedAt: 0 });

  it("says whether an entry is still the one kept for its key: not once replaced, evicted or emptied by a newer version", () => {
    const store = createVersionedStore<{ bytes: number; storedAt: number }>({
      maxBytes: 100,
      ttlMs: 60_000,
      now: () => 0,
    });
    expect(store.get("a", 1)).toBeNull();
    const first = entry();
    expect(store.holds("a", first)).toBe(false);
    store.set("a", first, 1);
    expect(store.holds("a", first)).toBe(true);
    expect(store.holds("b", first)).toBe(false);

    const second = entry();
    store.set("a", second, 1);
    expect(store.holds("a", first)).toBe(false);
    expect(store.holds("a", second)).toBe(true);

    // Least recently used first once the budget is spent.
    for (const key of ["b", "c", "d", "e"]) store.set(key, entry(25), 1);
    expect(store.holds("a", second)).toBe(false);
    const kept = entry(25);
    store.set("f", kept, 1);
    expect(store.holds("f", kept)).toBe(true);

    // A newer content version empties the store.
    expect(store.get("f", 2)).toBeNull();
    expect(store.holds("f", kept)).toBe(false);
  });
});
