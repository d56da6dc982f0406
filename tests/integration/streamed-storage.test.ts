import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { STORAGE_FULL_MESSAGE } from "../../lib/errors";
import { parseBody } from "../../lib/request-body";
import { spooledPath, sweepSpooled } from "../../lib/spool";
import { localStorage } from "../../lib/storage";
import { fileChunks, fileSha256, multipart, streamOf } from "../support/multipart";
import { filesUnder, mountSmallDisk, type SmallDisk } from "../support/tmpfs";

/**
 * Storage's streaming writes (putFile for spooled uploads, putStream) and the spool itself, on
 * real file systems: the data directory's own (a move is a link), another one (a kernel copy),
 * and a small tmpfs filled up (507, nothing half-written left behind). Mounting needs root, as
 * for tests/integration/full-disk.test.ts.
 */
const MB = 1024 * 1024;
let work: string;
let disk: SmallDisk;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-streamed-"));
  disk = mountSmallDisk(4 * MB, "masthead-small-");
});
afterAll(() => {
  disk?.unmount();
  fs.rmSync(work, { recursive: true, force: true });
});
afterEach(() => disk.free());

function spooledFile(dir: string, size: number, seed = 7): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `upload-${seed}-${size}.part`);
  fs.writeFileSync(file, Buffer.concat([...fileChunks(size, seed)]));
  return file;
}
const sha256 = async (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

describe("putFile", () => {
  it("moves a file on the same file system with a link: same inode, source gone", async () => {
    const storage = localStorage(path.join(work, "private"));
    const source = spooledFile(path.join(work, "tmp"), 3 * MB);
    const inode = fs.statSync(source).ino;
    await storage.putFile("papers/a.pdf", source);
    const stored = path.join(work, "private/papers/a.pdf");
    expect(fs.statSync(stored).ino).toBe(inode);
    expect(fs.existsSync(source)).toBe(false);
    expect(await sha256(stored)).toBe(fileSha256(3 * MB));
  });

  it("never overwrites: a taken key is EEXIST, the stored file and the source stay as they were", async () => {
    const storage = localStorage(path.join(work, "private"));
    const source = spooledFile(path.join(work, "tmp"), MB, 9);
    await expect(storage.putFile("papers/a.pdf", source)).rejects.toMatchObject({ code: "EEXIST" });
    expect(await sha256(path.join(work, "private/papers/a.pdf"))).toBe(fileSha256(3 * MB));
    expect(fs.existsSync(source)).toBe(true);
  });

  it("copies across file systems, and on a full one answers 507 leaving no partial file", async () => {
    const storage = localStorage(disk.dir);
    const source = spooledFile(path.join(work, "tmp"), MB, 3);
    await storage.putFile("papers/b.pdf", source);
    expect(await sha256(path.join(disk.dir, "papers/b.pdf"))).toBe(fileSha256(MB, 3));
    expect(fs.existsSync(source)).toBe(false);

    disk.fill();
    const big = spooledFile(path.join(work, "tmp"), 2 * MB, 4);
    await expect(storage.putFile("papers/c.pdf", big)).rejects.toMatchObject({
      status: 507,
      message: STORAGE_FULL_MESSAGE,
    });
    expect(fs.existsSync(path.join(disk.dir, "papers/c.pdf"))).toBe(false);
    expect(fs.existsSync(big)).toBe(true);
  });
});

describe("putStream", () => {
  it("writes a stream as it comes; never overwrites; on a full disk 507 and no partial file", async () => {
    const storage = localStorage(disk.dir);
    await storage.putStream("files/s.bin", Readable.from(fileChunks(MB, 5)));
    expect(await sha256(path.join(disk.dir, "files/s.bin"))).toBe(fileSha256(MB, 5));
    await expect(storage.putStream("files/s.bin", Readable.from(fileChunks(10, 6)))).rejects.toMatchObject({
      code: "EEXIST",
    });
    expect(await sha256(path.join(disk.dir, "files/s.bin"))).toBe(fileSha256(MB, 5));

    disk.fill();
    await expect(storage.putStream("files/t.bin", Readable.from(fileChunks(2 * MB, 7)))).rejects.toMatchObject({
      status: 507,
    });
    expect(fs.existsSync(path.join(disk.dir, "files/t.bin"))).toBe(false);
  });
});

describe("the spool", () => {
  it("answers 507 on a full disk and leaves no temporary file", async () => {
    const dir = path.join(disk.dir, "tmp");
    fs.mkdirSync(dir, { recursive: true });
    disk.fill();
    const body = multipart([{ name: "file", filename: "big.pdf", type: "application/pdf", size: 2 * MB }]);
    const request = new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": body.contentType },
      body: streamOf(body).stream,
      // @ts-expect-error Node's fetch needs duplex for a streamed body
      duplex: "half",
    });
    await expect(parseBody(request, ["multipart"], { spool: { dir, maxFileBytes: 10 * MB } })).rejects.toMatchObject({
      status: 507,
    });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("gives standard Files in part order (slice, arrayBuffer, text) and a cleanup that removes them", async () => {
    const dir = path.join(work, "spool");
    fs.mkdirSync(dir, { recursive: true });
    const body = multipart([
      { name: "note", value: "hello" },
      { name: "files[]", filename: "a.xml", type: "application/xml", size: 1000, seed: 1 },
      { name: "files[]", filename: "b.zip", type: "application/zip", size: 3 * MB, seed: 2 },
    ]);
    const request = new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": body.contentType },
      body: streamOf(body).stream,
      // @ts-expect-error Node's fetch needs duplex for a streamed body
      duplex: "half",
    });
    const parsed = await parseBody(request, ["multipart"], { spool: { dir, maxFileBytes: 10 * MB } });
    expect(parsed.body.note).toBe("hello");
    const [a, b] = parsed.body.files as File[];
    expect(a).toBeInstanceOf(File);
    expect([a?.name, a?.type, a?.size, b?.name, b?.size]).toEqual(["a.xml", "application/xml", 1000, "b.zip", 3 * MB]);
    expect(Buffer.from(await (b as File).slice(MB, MB + 4).arrayBuffer())).toEqual(
      Buffer.concat([...fileChunks(3 * MB, 2)]).subarray(MB, MB + 4),
    );
    expect((await (a as File).text()).length).toBe(1000);
    const paths = [spooledPath(a as File), spooledPath(b as File)];
    expect(paths.every((file) => file && fs.existsSync(file))).toBe(true);
    await parsed.cleanup?.();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("sweeps only its own temporary files older than an hour", async () => {
    const dir = path.join(work, "sweep");
    fs.mkdirSync(dir, { recursive: true });
    const old = path.join(dir, "upload-old.part");
    const fresh = path.join(dir, "upload-fresh.part");
    const other = path.join(dir, "keep.txt");
    for (const file of [old, fresh, other]) fs.writeFileSync(file, "x");
    const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
    fs.utimesSync(old, twoHoursAgo, twoHoursAgo);
    fs.utimesSync(other, twoHoursAgo, twoHoursAgo);
    expect(await sweepSpooled(dir)).toEqual([old]);
    expect(filesUnder(dir).sort()).toEqual(["keep.txt", "upload-fresh.part"]);
    expect(await sweepSpooled(path.join(work, "missing"))).toEqual([]);
  });
});
