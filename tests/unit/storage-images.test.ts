import { describe, expect, it } from "vitest";
import { imageFiles, imageSrcSet } from "../../lib/image-variants";
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
