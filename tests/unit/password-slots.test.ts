import { beforeEach, describe, expect, it, vi } from "vitest";
import { hashPassword, PASSWORD_HASH_CONCURRENCY, passwordHashSlots, verifyPassword } from "../../lib/password";

// Issue 30 §5: Argon2 at most (cores − 1, at least 1) at a time, so that a burst of sign-ins
// leaves the event loop a core. The limit is what is tested; its effect on the event loop's delay
// is measured by scripts/measure-sign-in-stall.ts, not asserted on a clock.
describe("password hashing", () => {
  // Another file of the worker (vitest.config.ts `isolate: false`) may still be hashing: it
  // finishes first, so that the counts below are ours.
  beforeEach(async () => {
    await vi.waitFor(() => expect([passwordHashSlots.busy, passwordHashSlots.waiting]).toEqual([0, 0]), 10_000);
  });

  it("runs at most cores − 1 hashes at once (at least one); the rest wait and all finish", async () => {
    expect(PASSWORD_HASH_CONCURRENCY).toBeGreaterThanOrEqual(1);
    const stored = await hashPassword("harbour lights at dusk");
    let most = 0;
    let mostWaiting = 0;
    // Argon2 runs off the main thread: the event loop is free to look at the slots meanwhile.
    const watch = setInterval(() => {
      most = Math.max(most, passwordHashSlots.busy);
      mostWaiting = Math.max(mostWaiting, passwordHashSlots.waiting);
    }, 0);
    const checks = Array.from({ length: 12 }, (_, i) =>
      verifyPassword(stored, i % 2 === 0 ? "harbour lights at dusk" : "wrong"),
    );
    most = Math.max(most, passwordHashSlots.busy);
    mostWaiting = Math.max(mostWaiting, passwordHashSlots.waiting);
    const results = await Promise.all(checks);
    clearInterval(watch);
    expect(results).toEqual(Array.from({ length: 12 }, (_, i) => i % 2 === 0));
    expect(most).toBe(PASSWORD_HASH_CONCURRENCY);
    expect(mostWaiting).toBe(12 - PASSWORD_HASH_CONCURRENCY);
    expect([passwordHashSlots.busy, passwordHashSlots.waiting]).toEqual([0, 0]);
  });

  it("frees its slot when a stored hash is not a hash", async () => {
    expect(await verifyPassword("not a hash", "x")).toBe(false);
    expect([passwordHashSlots.busy, passwordHashSlots.waiting]).toEqual([0, 0]);
  });
});
