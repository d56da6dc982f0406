import { describe, expect, it } from "vitest";
import { CHUNK_RELOAD_GUARD_MS, isChunkLoadError, shouldReloadForChunkError } from "../../app/lib/chunk-reload";

describe("chunk reload guard (SPEC §4)", () => {
  const chunkError = new TypeError("Failed to fetch dynamically imported module: http://x/assets/news-abc.js");

  it("recognises failed code-chunk loads from the major browsers, and nothing else", () => {
    expect(isChunkLoadError(chunkError)).toBe(true);
    expect(isChunkLoadError(new TypeError("error loading dynamically imported module"))).toBe(true);
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
    expect(isChunkLoadError("Failed to fetch dynamically imported module")).toBe(false);
  });

  it("reloads at most once per 60 s", () => {
    const now = 1_000_000;
    expect(shouldReloadForChunkError(chunkError, now, null)).toBe(true);
    expect(shouldReloadForChunkError(chunkError, now, now - 5_000)).toBe(false);
    expect(shouldReloadForChunkError(chunkError, now, now - CHUNK_RELOAD_GUARD_MS)).toBe(true);
    expect(shouldReloadForChunkError(new Error("other"), now, null)).toBe(false);
  });
});
