import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openSqlite } from "../../db/connect";
import { loadConfig } from "../../lib/env";
import { STORAGE_FULL_MESSAGE } from "../../lib/errors";
import { createApp } from "../../server/app";
import { buildRuntime, call, ORIGIN } from "../support/app";
import type { TestDatabase } from "../support/database";
import { signIn } from "../support/factories";
import { capturedLogger } from "../support/logs";
import { filesUnder, mountSmallDisk, type SmallDisk } from "../support/tmpfs";

/**
 * Issue 11 point 5, on real full file systems: the uploads and the SQLite
 * database each live on their own small tmpfs, filled up in turn. (This file
 * always uses SQLite: the database's own disk has to be one we can fill.
 * PostgreSQL's disk_full, SQLSTATE 53100, goes through the same translation;
 * see tests/unit/storage-full.test.ts.)
 */
let uploadsDisk: SmallDisk;
let dbDisk: SmallDisk;
let database: TestDatabase;
let app: ReturnType<typeof createApp>;
let uploadsDir: string;
let token: string;
let photo: Buffer;
const { logger, lines } = capturedLogger();

beforeAll(async () => {
  uploadsDisk = mountSmallDisk(4 * 1024 * 1024, "masthead-uploads-");
  dbDisk = mountSmallDisk(4 * 1024 * 1024, "masthead-db-");
  const file = path.join(dbDisk.dir, "site.db");
  fs.copyFileSync(inject("sqliteTemplate"), file);
  const handle = openSqlite(file);
  database = { ...handle, location: file, cleanup: () => handle.destroy() };
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "info", DATA_DIR: uploadsDisk.dir, BASE_URL: ORIGIN });
  uploadsDir = config.uploadsDir;
  fs.mkdirSync(uploadsDir, { recursive: true });
  const runtime = buildRuntime(config, database);
  app = createApp({ ...runtime, logger });
  token = (await signIn(runtime.services, "admin")).token;
  photo = await sharp({ create: { width: 1800, height: 1000, channels: 3, background: "#1c4a7d" } })
    .jpeg()
    .toBuffer();
});

afterAll(async () => {
  await database?.cleanup();
  uploadsDisk?.unmount();
  dbDisk?.unmount();
});

const newPost = (title: string, withImage = true) =>
  call(app, "POST", "/api/dashboard/news", {
    token,
    multipart: true,
    form: {
      title,
      content: "<p>Text</p>",
      ...(withImage
        ? { image: new File([new Uint8Array(photo)], "harbour.jpg", { type: "image/jpeg" }), image_alt: "A harbour" }
        : {}),
    },
  });
const postCount = async () =>
  Number(
    (
      await database.db
        .selectFrom("news_posts")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const errorLines = () => lines.filter((line) => line.level === 50);

describe("a full uploads disk", () => {
  it("answers an image upload 507 with a clear message, leaves no file and no row, logs at error level", async () => {
    expect((await newPost("Before the disk fills")).status).toBe(201);
    const filesBefore = filesUnder(uploadsDir);
    const postsBefore = await postCount();
    uploadsDisk.fill();
    lines.length = 0;
    try {
      const res = await newPost("Harbour with a full disk");
      expect(res.status).toBe(507);
      expect(res.json).toMatchObject({ status: "error", message: STORAGE_FULL_MESSAGE });
      // No variant left behind (today: zero-byte files and a 415 'could not be read').
      expect(filesUnder(uploadsDir)).toEqual(filesBefore);
      expect(await postCount()).toBe(postsBefore);
      expect(errorLines().some((line) => line.msg === "out of storage space")).toBe(true);
      // Reads keep working.
      expect((await call(app, "POST", "/api/getPosts", { json: {} })).status).toBe(200);
      expect((await call(app, "GET", "/api/getContactData")).status).toBe(200);
    } finally {
      uploadsDisk.free();
    }
    const again = await newPost("Harbour once space is back");
    expect(again.status).toBe(201);
    expect(filesUnder(uploadsDir).length).toBeGreaterThan(filesBefore.length);
  });

  it("answers an editor image upload 507 too, without leftovers", async () => {
    const filesBefore = filesUnder(uploadsDir);
    uploadsDisk.fill();
    try {
      const res = await call(app, "POST", "/api/dashboard/images", {
        token,
        multipart: true,
        form: { image: new File([new Uint8Array(photo)], "x.jpg", { type: "image/jpeg" }) },
      });
      expect(res.status).toBe(507);
      expect(res.json?.message).toBe(STORAGE_FULL_MESSAGE);
      expect(filesUnder(uploadsDir)).toEqual(filesBefore);
    } finally {
      uploadsDisk.free();
    }
  });
});

describe("a full database disk", () => {
  it("answers writes 507 (not 500, not 415), removes the upload's files, logs at error level; /readyz 503; reads work", async () => {
    expect((await call(app, "GET", "/readyz")).status).toBe(200);
    const filesBefore = filesUnder(uploadsDir);
    const postsBefore = await postCount();
    // The session was last seen twenty minutes ago (an admin's ends after 30 idle minutes), so the next
    // signed-in request records its activity: a write that must not turn a signed-in read into an error
    // while the disk is full.
    await database.db
      .updateTable("sessions")
      .set({ last_seen_at: new Date(Date.now() - 20 * 60_000).toISOString() })
      .execute();
    dbDisk.fill();
    lines.length = 0;
    try {
      // A write with an image: its files are written (the uploads disk has room), the row is refused.
      const withImage = await newPost("Row refused by a full database");
      expect(withImage.status).toBe(507);
      expect(withImage.json).toMatchObject({ status: "error", message: STORAGE_FULL_MESSAGE });
      expect(filesUnder(uploadsDir)).toEqual(filesBefore);
      // A plain write.
      const plain = await call(app, "POST", "/api/dashboard/news", {
        token,
        json: { title: "No room for this row", content: "<p>Text</p>" },
      });
      expect(plain.status).toBe(507);
      expect(plain.json?.message).toBe(STORAGE_FULL_MESSAGE);
      const logged = errorLines().filter((line) => line.msg === "out of storage space");
      expect(logged.length).toBeGreaterThanOrEqual(2);
      expect(JSON.stringify(logged[0].err)).toContain("SQLITE_FULL");
      // Not ready while the database cannot write; reads keep working.
      const ready = await call(app, "GET", "/readyz");
      expect(ready.status).toBe(503);
      expect(ready.json?.message).toBe(STORAGE_FULL_MESSAGE);
      expect((await call(app, "GET", "/healthz")).status).toBe(200);
      expect((await call(app, "POST", "/api/getPosts", { json: {} })).status).toBe(200);
      expect((await call(app, "GET", "/api/dashboard/news", { token })).status).toBe(200);
      expect((await call(app, "GET", "/api/dashboard/user", { token })).status).toBe(200);
      expect(await postCount()).toBe(postsBefore);
    } finally {
      dbDisk.free();
    }
    expect((await call(app, "GET", "/readyz")).status).toBe(200);
    expect((await newPost("Saved once space is back")).status).toBe(201);
    expect(await postCount()).toBe(postsBefore + 1);
  });
});
