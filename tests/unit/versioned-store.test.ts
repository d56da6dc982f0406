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

  it("serves no entry stored before a scheduled post appeared, nor any while the schedule is not known (decision 0071)", () => {
    let now = 1_000;
    let since: number | null | undefined = null;
    const store = createVersionedStore<{ bytes: number; storedAt: number }>({
      maxBytes: 100,
      ttlMs: 60_000,
      now: () => now,
      staleBefore: () => since,
    });
    expect(store.get("news", 1)).toBeNull();
    store.set("news", { bytes: 1, storedAt: 1_000 }, 1);
    expect(store.get("news", 1)).not.toBeNull();
    // Being read again (a scheduled moment came): no hit meanwhile.
    now = 5_000;
    since = undefined;
    expect(store.get("news", 1)).toBeNull();
    // A post appeared at 4 000: what was stored at 1 000 lacks it; what is stored from then on has it.
    since = 4_000;
    expect(store.get("news", 1)).toBeNull();
    store.set("news", { bytes: 1, storedAt: 5_000 }, 1);
    expect(store.get("news", 1)).toMatchObject({ storedAt: 5_000 });
  });
});
