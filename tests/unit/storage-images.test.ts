import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";
import { imageFiles, imageSrcSet } from "../../lib/image-variants";
import { storeImage } from "../../lib/images";
import { isSafeStorageKey, localStorage } from "../../lib/storage";

describe("storage keys", () => {
  it.each(["news/3fa9c1-1600.webp", "members/10ddbd-nordhavn.png", "papers/a/b.pdf"])("accepts %s", (key) => {
    expect(isSafeStorageKey(key)).toBe(true);
  });
  it.each([
    "../site.db",
    "news/../../etc/passwd",
    "/etc/passwd",
    "news//x",
    "News/X.png",
    "news/.hidden",
    "",
    "news/a b.png",
    "news\\x",
  ])("refuses %s", async (key) => {
    expect(isSafeStorageKey(key)).toBe(false);
    await expect(localStorage("/tmp/never").put(key, new Uint8Array(1))).rejects.toThrow(/unsafe storage key/);
  });
});

describe("image variants", () => {
  it("lists the files and the srcset of a stored image", () => {
    expect(imageFiles("news/ab12-1600.webp")).toEqual([
      "news/ab12-480.webp",
      "news/ab12-960.webp",
      "news/ab12-1600.webp",
    ]);
    expect(imageFiles("news/ab12-700.webp")).toEqual(["news/ab12-480.webp", "news/ab12-700.webp"]);
    expect(imageSrcSet("news/ab12-960.webp")).toBe(
      "/uploads/news/ab12-480.webp 480w, /uploads/news/ab12-960.webp 960w",
    );
    expect(imageSrcSet("news/seeded-photo.jpg")).toBeNull();
    expect(imageFiles("news/seeded-photo.jpg")).toEqual(["news/seeded-photo.jpg"]);
  });
});

describe("storeImage", () => {
  it("reads the file's header once: its size for the pixel limit and its orientation for the widths", async () => {
    // 600 × 400 pixels stored with EXIF orientation 6: shown turned a quarter, 400 wide.
    const turned = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#336699" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-images-"));
    const reads = vi.spyOn(sharp.prototype, "metadata");
    try {
      const stored = await storeImage(localStorage(dir), "news", new Uint8Array(turned));
      expect(reads).toHaveBeenCalledTimes(1);
      expect(stored).toMatchObject({ width: 400, height: 600 });
      expect(stored.keys.map((key) => /-(\d+)\.webp$/.exec(key)?.[1])).toEqual(["400"]);
    } finally {
      reads.mockRestore();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
