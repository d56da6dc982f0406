import zlib from "node:zlib";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  BEST_BROTLI_MAX_WAITING,
  bestBrotli,
  compressBody,
  encodeStored,
  improveLater,
} from "../../server/middleware/compress";
import { BACKGROUND_BROTLI } from "../support/waits";

const page = (n: number) =>
  Buffer.from(
    `<!doctype html><main>${Array.from({ length: 400 }, (_, i) => `<li><a href="/events/m-${n}-${i}">Meeting ${i} on radar and ECDIS</a> ${(i * 7919) % 1000}</li>`).join("")}</main>`,
  );

describe("improveLater", () => {
  // The worker runs other files before this one (vitest.config.ts `isolate: false`): a body one of
  // them left to the background compressor finishes first, so that the counts below are ours.
  beforeEach(async () => {
    await vi.waitFor(() => expect([bestBrotli.busy, bestBrotli.waiting]).toEqual([0, 0]), BACKGROUND_BROTLI);
  });

  it("hands over the highest quality's smaller bytes, made in the background one body at a time", async () => {
    const pages = [1, 2, 3].map(page);
    const quick = await Promise.all(pages.map((body) => compressBody(body, "br", "request")));
    const improved: (Buffer | null)[] = [null, null, null];
    for (const [i, body] of pages.entries()) {
      improveLater(body, quick[i].length, {
        wanted: () => true,
        use: (best) => {
          improved[i] = best;
        },
      });
    }
    // Not yet: the work starts on a later turn, so that the caller can keep the body first.
    expect([bestBrotli.busy, bestBrotli.waiting]).toEqual([0, 0]);
    await new Promise((resolve) => setImmediate(resolve));
    expect([bestBrotli.busy, bestBrotli.waiting]).toEqual([1, 2]);
    await vi.waitFor(() => expect(improved.every(Boolean)).toBe(true), BACKGROUND_BROTLI);
    for (const [i, best] of improved.entries()) {
      expect(best?.equals(await compressBody(pages[i], "br", "stored"))).toBe(true);
      expect(best?.length).toBeLessThan(quick[i].length);
    }
    expect([bestBrotli.busy, bestBrotli.waiting]).toEqual([0, 0]);
  });

  it("skips a body no longer wanted, and keeps what was sent when the best is no smaller", async () => {
    const use = vi.fn();
    const wanted = vi.fn(() => false);
    improveLater(page(4), 100_000, { wanted, use });
    improveLater(page(5), 10, { wanted: () => true, use });
    await vi.waitFor(() => expect(wanted).toHaveBeenCalled());
    await vi.waitFor(() => expect(bestBrotli.busy).toBe(0), BACKGROUND_BROTLI);
    expect(use).not.toHaveBeenCalled();
  });

  it("holds at most BEST_BROTLI_MAX_WAITING bodies waiting: past that a body keeps its quick encoding", async () => {
    const count = BEST_BROTLI_MAX_WAITING + 4;
    const improved = new Set<number>();
    for (let n = 0; n < count; n++) {
      improveLater(page(100 + n), Number.POSITIVE_INFINITY, { wanted: () => true, use: () => improved.add(n) });
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect([bestBrotli.busy, bestBrotli.waiting]).toEqual([1, BEST_BROTLI_MAX_WAITING]);
    await vi.waitFor(() => expect(bestBrotli.busy).toBe(0), BACKGROUND_BROTLI);
    // The first runs at once, the next BEST_BROTLI_MAX_WAITING wait their turn, the last three are left.
    expect([...improved].sort((a, b) => a - b)).toEqual(
      Array.from({ length: BEST_BROTLI_MAX_WAITING + 1 }, (_, n) => n),
    );
  });
});

describe("encodeStored", () => {
  it("sends gzip at its highest level at once, brotli quick until its highest quality is ready", async () => {
    const stored = { body: page(6), encoded: {} };
    const gz = await encodeStored(stored, "gzip");
    expect(gz).toMatchObject({ encoding: "gzip", varies: true });
    expect(Buffer.from(gz.body).equals(await compressBody(stored.body, "gzip", "stored"))).toBe(true);
    const first = await encodeStored(stored, "br, gzip");
    expect(Buffer.from(first.body).equals(await compressBody(stored.body, "br", "request"))).toBe(true);
    const best = await compressBody(stored.body, "br", "stored");
    await vi.waitFor(
      async () => expect(Buffer.from((await encodeStored(stored, "br")).body).equals(best)).toBe(true),
      BACKGROUND_BROTLI,
    );
    expect(zlib.brotliDecompressSync(best).equals(stored.body)).toBe(true);
  });

  it("leaves the quick brotli of a body its holder no longer keeps", async () => {
    let kept = true;
    const stored = { body: page(7), encoded: {}, kept: () => kept };
    const first = await encodeStored(stored, "br");
    kept = false;
    await new Promise((resolve) => setImmediate(resolve));
    await vi.waitFor(() => expect(bestBrotli.busy + bestBrotli.waiting).toBe(0), BACKGROUND_BROTLI);
    expect(Buffer.from((await encodeStored(stored, "br")).body).equals(Buffer.from(first.body))).toBe(true);
  });
});
