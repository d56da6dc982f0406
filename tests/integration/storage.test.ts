import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAll } from "../../core/library/library.service";
import { loadConfig } from "../../lib/env";
import { localStorage, type ReadableFileStorage } from "../../lib/storage";
import { createStorages } from "../../lib/storages";
import { fileChunks, fileSha256 } from "../support/multipart";
import { startS3, type TestS3 } from "../support/s3";

/**
 * The storage interface's promises (lib/storage.ts), the same cases on local disk and on a real
 * S3 protocol server (s3rver, in this process): round trips, no overwrite, whole file or nothing,
 * remove, list (paged on S3), stat and byte ranges. Files of 6 MB and more go through S3's
 * multipart upload (5 MiB parts).
 */
const MB = 1024 * 1024;
const BUCKET = "masthead-storage";
let work: string;
let s3: TestS3;
let fresh = 0;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-storage-"));
  s3 = await startS3([BUCKET]);
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Each case gets an empty storage of its own: a folder, or a key prefix in the bucket. */
const backends: [string, () => ReadableFileStorage][] = [
  ["local disk", () => localStorage(path.join(work, `root-${++fresh}`))],
  // Three keys a ListObjectsV2 page, so that listing a handful of files takes several pages.
  ["S3 (s3rver)", () => s3.connection.storage({ bucket: BUCKET, prefix: `case-${++fresh}/`, pageSize: 3 })],
];

const bytes = (size: number, seed = 7) => new Uint8Array(Buffer.concat([...fileChunks(size, seed)]));
const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");
const keysOf = async (storage: ReadableFileStorage) => {
  const keys: string[] = [];
  for await (const file of storage.list()) keys.push(file.key);
  return keys.sort();
};
function spooled(size: number, seed: number): string {
  const file = path.join(work, `spooled-${++fresh}.part`);
  fs.writeFileSync(file, bytes(size, seed));
  return file;
}
/** A stream that sends `size` bytes, then fails (a visitor who went away mid-upload). */
function failingStream(size: number): Readable {
  return Readable.from(
    (function* () {
      yield* fileChunks(size, 3);
      throw new Error("connection reset");
    })(),
  );
}

describe.each(backends)("storage on %s", (_name, make) => {
  it("put: stat, open and list give the file back", async () => {
    const storage = make();
    const data = bytes(1000);
    const before = Date.now();
    await storage.put("news/ab12-480.webp", data);
    const stat = await storage.stat("news/ab12-480.webp");
    expect(stat?.size).toBe(1000);
    // S3 keeps seconds.
    expect(stat?.modifiedAt.getTime()).toBeGreaterThan(before - 2000);
    expect(await readAll(storage.open("news/ab12-480.webp"))).toEqual(data);
    const listed = [];
    for await (const file of storage.list()) listed.push(file);
    expect(listed).toEqual([{ key: "news/ab12-480.webp", modifiedAt: expect.any(Date) }]);
  });

  it("putFile: moves a spooled file in (multipart on S3), the source gone", async () => {
    const storage = make();
    const source = spooled(6 * MB, 5);
    await storage.putFile("papers/a1-report.pdf", source);
    expect(fs.existsSync(source)).toBe(false);
    expect((await storage.stat("papers/a1-report.pdf"))?.size).toBe(6 * MB);
    expect(sha256(await readAll(storage.open("papers/a1-report.pdf")))).toBe(fileSha256(6 * MB, 5));
  });

  it("putStream: a stream of unknown length, small or in parts", async () => {
    const storage = make();
    await storage.putStream("files/small.bin", Readable.from(fileChunks(70_000, 2)));
    await storage.putStream("files/large.bin", Readable.from(fileChunks(11 * MB, 4)));
    expect(sha256(await readAll(storage.open("files/small.bin")))).toBe(fileSha256(70_000, 2));
    expect(sha256(await readAll(storage.open("files/large.bin")))).toBe(fileSha256(11 * MB, 4));
    expect(await keysOf(storage)).toEqual(["files/large.bin", "files/small.bin"]);
  });

  it("never overwrites: put, putFile and putStream on a taken key are EEXIST and change nothing", async () => {
    const storage = make();
    const original = bytes(2000, 1);
    await storage.put("avatars/x-64.webp", original);
    await expect(storage.put("avatars/x-64.webp", bytes(10, 2))).rejects.toMatchObject({ code: "EEXIST" });
    const source = spooled(1000, 3);
    await expect(storage.putFile("avatars/x-64.webp", source)).rejects.toMatchObject({ code: "EEXIST" });
    expect(fs.existsSync(source)).toBe(true);
    const refused = Readable.from(fileChunks(10, 4));
    await expect(storage.putStream("avatars/x-64.webp", refused)).rejects.toMatchObject({ code: "EEXIST" });
    // The refused stream is let go (a request's body, a file handle), as a pipeline does.
    expect(refused.destroyed).toBe(true);
    expect(await readAll(storage.open("avatars/x-64.webp"))).toEqual(original);
  });

  it("a stream that fails midway leaves nothing behind, small or past the first part", async () => {
    const storage = make();
    await expect(storage.putStream("papers/cut-short.pdf", failingStream(100_000))).rejects.toThrow("connection reset");
    await expect(storage.putStream("papers/cut-later.pdf", failingStream(7 * MB))).rejects.toThrow("connection reset");
    expect(await storage.stat("papers/cut-short.pdf")).toBeNull();
    expect(await storage.stat("papers/cut-later.pdf")).toBeNull();
    expect(await keysOf(storage)).toEqual([]);
  });

  it("remove: the file is gone (a missing one is no error)", async () => {
    const storage = make();
    await storage.put("news/gone.webp", bytes(10));
    await storage.remove("news/gone.webp");
    await storage.remove("news/never-there.webp");
    expect(await storage.stat("news/gone.webp")).toBeNull();
    expect(await keysOf(storage)).toEqual([]);
    await expect(readAll(storage.open("news/gone.webp"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("list: every file in every folder (several pages on S3)", async () => {
    const storage = make();
    const keys = Array.from({ length: 10 }, (_, i) => `${["news", "avatars", "meetings"][i % 3]}/f${i}-480.webp`);
    for (const key of keys) await storage.put(key, bytes(10 + keys.indexOf(key)));
    expect(await keysOf(storage)).toEqual([...keys].sort());
  });

  it("stat and open: a missing file is null, and a byte range is streamed alone", async () => {
    const storage = make();
    expect(await storage.stat("papers/missing.pdf")).toBeNull();
    const data = bytes(5000, 9);
    await storage.put("papers/ranged.pdf", data);
    expect(await readAll(storage.open("papers/ranged.pdf", { start: 10, end: 19 }))).toEqual(data.subarray(10, 20));
    expect(await readAll(storage.open("papers/ranged.pdf", { start: 4990, end: 4999 }))).toEqual(data.subarray(4990));
  });

  it("refuses unsafe keys", async () => {
    const storage = make();
    for (const key of ["../site.db", "News/X.png", "news/../../x", "/etc/passwd"]) {
      await expect(storage.put(key, bytes(1))).rejects.toThrow(/unsafe storage key/);
      expect(() => storage.open(key)).toThrow(/unsafe storage key/);
    }
  });
});

describe("S3 storage as configured", () => {
  it("keeps the private files under their own prefix, never listed or found among the uploads", async () => {
    const config = loadConfig({ DATA_DIR: work, ...s3.env(BUCKET, { S3_PREFIX: "site-a" }) });
    const storages = createStorages(config);
    expect(storages.kind).toBe("s3");
    await storages.private.put("papers/f00d-members-only.pdf", bytes(100));
    await storages.uploads.put("news/f00d-480.webp", bytes(50));
    expect(await storages.uploads.stat("papers/f00d-members-only.pdf")).toBeNull();
    expect(await keysOf(storages.uploads)).toEqual(["news/f00d-480.webp"]);
    expect(await keysOf(storages.private)).toEqual(["papers/f00d-members-only.pdf"]);
    const keys = await s3.keys(BUCKET);
    expect(keys).toContain("site-a/private/papers/f00d-members-only.pdf");
    expect(keys).toContain("site-a/uploads/news/f00d-480.webp");
  });

  it("checks the bucket at start: a missing bucket is a readable error", async () => {
    const storages = createStorages(loadConfig({ DATA_DIR: work, ...s3.env("no-such-bucket") }));
    await expect(storages.check()).rejects.toThrow("S3 storage: bucket no-such-bucket does not answer: no such bucket");
    await expect(createStorages(loadConfig({ DATA_DIR: work, ...s3.env(BUCKET) })).check()).resolves.toBeUndefined();
  });
});
