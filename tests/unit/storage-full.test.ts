import { createStaticHandler, isRouteErrorResponse } from "react-router";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AppError, asStorageFull, isAppError, STORAGE_FULL_MESSAGE } from "../../lib/errors";
import { storeAvatar, storeImage } from "../../lib/images";
import type { FileStorage, StoredFile } from "../../lib/storage";

const errno = (code: string, message = code) => Object.assign(new Error(message), { code });

describe("a full disk or database is one 507", () => {
  it.each([
    ["ENOSPC", "the file system"],
    ["EDQUOT", "a disk quota"],
    ["SQLITE_FULL", "SQLite"],
    ["SQLITE_IOERR_SHMSIZE", "SQLite's shared-memory index"],
    ["53100", "PostgreSQL (disk_full)"],
  ])("%s (%s) becomes insufficient_storage with the message", (code) => {
    const original = errno(code);
    const mapped = asStorageFull(original);
    expect(isAppError(mapped)).toBe(true);
    expect(mapped).toMatchObject({ code: "insufficient_storage", status: 507, message: STORAGE_FULL_MESSAGE });
    expect((mapped as AppError).cause).toBe(original);
  });

  it("finds the code on a wrapped error's cause", () => {
    const wrapped = new Error("query failed", { cause: errno("53100", "could not extend file") });
    expect((asStorageFull(wrapped) as AppError).status).toBe(507);
  });

  it.each(["SQLITE_CONSTRAINT_UNIQUE", "23505", "EACCES", "ECONNREFUSED", "SQLITE_BUSY"])(
    "leaves %s as it was",
    (code) => {
      const original = errno(code);
      expect(asStorageFull(original)).toBe(original);
    },
  );

  it("leaves an AppError as it was", () => {
    const refused = new AppError("validation", "Bad input.");
    expect(asStorageFull(refused)).toBe(refused);
  });
});

describe("an AppError a page's loader or action lets through", () => {
  it("reaches React Router's error boundary as an error response with its status and message", async () => {
    const handler = createStaticHandler([
      {
        id: "root",
        path: "/",
        loader: () => null,
        action: () => {
          throw asStorageFull(errno("SQLITE_FULL", "database or disk is full"));
        },
      },
    ]);
    const context = await handler.query(new Request("http://localhost/", { method: "POST", body: new FormData() }));
    if (context instanceof Response) throw new Error("expected a render context");
    expect(context.statusCode).toBe(507);
    const error = context.errors?.root;
    expect(isRouteErrorResponse(error)).toBe(true);
    expect(isRouteErrorResponse(error) && error.data).toBe(STORAGE_FULL_MESSAGE);
  });
});

/** A storage whose disk fills after `room` files: the same interface as the local disk. */
function fillingStorage(room: number) {
  const files = new Map<string, Uint8Array>();
  const storage: FileStorage = {
    async put(key, data) {
      if (files.size >= room) throw asStorageFull(errno("ENOSPC", "no space left on device"));
      files.set(key, data);
    },
    async putFile() {
      throw asStorageFull(errno("ENOSPC", "no space left on device"));
    },
    async putStream() {
      throw asStorageFull(errno("ENOSPC", "no space left on device"));
    },
    async remove(key) {
      files.delete(key);
    },
    async *list(): AsyncGenerator<StoredFile> {
      for (const key of files.keys()) yield { key, modifiedAt: new Date() };
    },
  };
  return { storage, files };
}

describe("storing image variants on a disk that fills up", () => {
  it("storeImage: 507, not 415 'could not be read', and the variants already written are removed", async () => {
    const photo = await sharp({ create: { width: 2000, height: 1000, channels: 3, background: "#123456" } })
      .jpeg()
      .toBuffer();
    const { storage, files } = fillingStorage(2);
    await expect(storeImage(storage, "news", photo)).rejects.toMatchObject({
      status: 507,
      message: STORAGE_FULL_MESSAGE,
    });
    expect([...files.keys()]).toEqual([]);
  });

  it("storeAvatar: the same", async () => {
    const photo = await sharp({ create: { width: 400, height: 400, channels: 3, background: "#654321" } })
      .png()
      .toBuffer();
    const { storage, files } = fillingStorage(1);
    await expect(storeAvatar(storage, "avatars", photo)).rejects.toMatchObject({ status: 507 });
    expect(files.size).toBe(0);
  });

  it("an image that does not decode is still the client's 415", async () => {
    const { storage } = fillingStorage(10);
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
    await expect(storeImage(storage, "news", broken)).rejects.toMatchObject({ status: 415 });
  });
});
