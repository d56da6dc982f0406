import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setImmediate } from "node:timers/promises";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import SQLite from "better-sqlite3";
import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type DatabaseHandle, openPostgres, openSqlite } from "../../db/connect";
import { loadConfig } from "../../lib/env";
import { createBackup, restoreBackup } from "../../scripts/backup/index";
import { createApp } from "../../server/app";
import { buildRuntime, call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { createPaper, createPaperCategory, putPrivateFile } from "../support/papers";
import { startS3, type TestS3 } from "../support/s3";

/**
 * `npm run backup` / `npm run restore` on the dialect this run tests: the scripts run as
 * processes, as an operator runs them, while this process keeps writing posts through the
 * real news service.
 */
const postgresUrl = inject("postgresUrl");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-backup-test-"));
const createdDatabases: string[] = [];
let t: TestContext;
let schema = "";
/** A paper file in the private root (decision 0024), its row, and a member who may download it. */
const PAPER_KEY = "papers/b4c4b4-backup-policy.pdf";
const PAPER_BYTES = Buffer.from("%PDF-1.7\n% a private paper for the backup\n%%EOF\n");
let paperId = 0;
let member = "";

type Post = { slug: string; title: string; image: string | null };

beforeAll(async () => {
  t = await createTestContext();
  if (postgresUrl) schema = /schema (\S+)\)$/.exec(t.database.location)?.[1] ?? "";
  // Some content before the writers start, with images so that there are uploads to back up.
  for (let i = 0; i < 5; i++) await writePost(i % 2 === 0);
  putPrivateFile(t.runtime.config.privateDir, PAPER_KEY, PAPER_BYTES);
  const category = await createPaperCategory(t.database.db, "policies", "Policies");
  paperId = await createPaper(t.database.db, category, { name: "Backup policy", uploaded_file: PAPER_KEY });
  member = (await signIn(t.runtime.services, "member")).cookie;
});

afterAll(async () => {
  await t.close();
  if (postgresUrl) {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    for (const name of createdDatabases) await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
  fs.rmSync(scratch, { recursive: true, force: true });
});

let written = 0;
const image = sharp({ create: { width: 64, height: 48, channels: 3, background: "#0a6" } })
  .png()
  .toBuffer();

async function writePost(withImage: boolean): Promise<Post> {
  written += 1;
  const post = await t.runtime.services.news.create(
    {
      title: `Backup post ${written} ${randomBytes(3).toString("hex")}`,
      content: `<p>Body ${written}</p>`,
      author_name: null,
      image_alt: "A test picture",
      image_decorative: false,
    },
    withImage ? new Uint8Array(await image) : undefined,
  );
  return { slug: post.slug, title: post.title, image: post.image };
}

/** A PostgreSQL URL whose connections use `search_path`, as an operator would write it for a schema. */
function withSearchPath(url: string, searchPath: string): string {
  const separator = url.includes("?") ? "&" : "?";
  return `${url}${separator}options=-c%20search_path%3D${searchPath}`;
}

/** Environment for the scripts: the source site, or an empty DATA_DIR / new database. */
function sourceEnv(): Record<string, string> {
  return {
    DATA_DIR: t.dataDir,
    DATABASE_URL: postgresUrl ? withSearchPath(postgresUrl, schema) : `sqlite:${t.database.location}`,
  };
}

async function emptyTarget(): Promise<Record<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(scratch, "target-"));
  if (!postgresUrl) return { DATA_DIR: dataDir };
  const name = `${new URL(postgresUrl).pathname.slice(1)}_restore_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  createdDatabases.push(name);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return { DATA_DIR: dataDir, DATABASE_URL: withSearchPath(url.toString(), schema) };
}

function runScript(script: string, args: string[], env: Record<string, string>) {
  // Vite puts BASE_URL=/ into the test process's environment; a real shell has none.
  const { TEST_DATABASE_URL, DATABASE_URL, BASE_URL, DATA_DIR, ...base } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    env: { ...base, LOG_LEVEL: "silent", ...env },
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  child.stderr.on("data", (chunk) => {
    err += chunk;
  });
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, out, err })),
  );
}

/** The restored site: the real app over the restored database and DATA_DIR. */
function openSite(env: Record<string, string>) {
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", BASE_URL: "http://localhost:3000", ...env });
  const handle: DatabaseHandle =
    config.database.dialect === "postgres"
      ? openPostgres(config.database.url, { max: 2 })
      : openSqlite(config.database.file);
  return { app: createApp(buildRuntime(config, handle)), handle };
}

describe("npm run backup during writes, then npm run restore", () => {
  it("backs up every acknowledged row consistently and the restored site serves them", async () => {
    const acknowledged: Post[] = [];
    let stop = false;
    const writer = async (withImages: boolean) => {
      while (!stop) {
        acknowledged.push(await writePost(withImages));
        // better-sqlite3 answers without leaving the microtask queue: let the timers and child processes run.
        await setImmediate();
      }
    };
    const writers = [writer(false), writer(true)];
    // At least ten posts, one of them with an image, acknowledged before the backup starts.
    while (acknowledged.length < 10 || !acknowledged.some((post) => post.image)) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    const before = acknowledged.slice();
    const folder = path.join(scratch, "during-writes");
    const backup = await runScript("scripts/backup.ts", ["--out", folder], sourceEnv());
    const duringBackup = acknowledged.length - before.length;
    stop = true;
    await Promise.all(writers);

    expect(backup.err).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.out).toContain(`Backup written to ${folder}`);
    expect(duringBackup).toBeGreaterThan(0); // the writes went on while the backup ran
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ format: "masthead-backup", dialect: postgresUrl ? "postgres" : "sqlite" });
    expect(manifest.migrations).toContain("0001_initial");
    expect(manifest.private).toEqual([expect.objectContaining({ path: PAPER_KEY, bytes: PAPER_BYTES.length })]);
    expect(manifest.uploads.some((file: { path: string }) => file.path.startsWith("papers/"))).toBe(false);
    expect(manifest.tables.news_posts).toBeGreaterThanOrEqual(before.length + 5);
    // The snapshot fell inside the stream of writes: some acknowledged later are not in it.
    expect(manifest.tables.news_posts).toBeLessThan(5 + acknowledged.length);

    if (!postgresUrl) {
      const copy = new SQLite(path.join(folder, "site.db"), { readonly: true });
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      const slugs = new Set(copy.prepare("select slug from news_posts").pluck().all());
      expect(copy.prepare("select count(*) from news_posts").pluck().get()).toBe(manifest.tables.news_posts);
      copy.close();
      expect(before.filter((post) => !slugs.has(post.slug))).toEqual([]);
    }

    const target = await emptyTarget();
    const restore = await runScript("scripts/restore.ts", [folder], target);
    expect(restore.err).toBe("");
    expect(restore.code).toBe(0);
    expect(restore.out).toContain("checked against the manifest");

    const site = openSite(target);
    try {
      const restored = await site.handle.db.selectFrom("news_posts").select("slug").execute();
      expect(restored.length).toBe(manifest.tables.news_posts);
      for (const post of before) {
        const answer = await call(site.app, "GET", `/api/getPostBySlug/${post.slug}`);
        expect(answer.status, post.slug).toBe(200);
        expect(answer.json).toMatchObject({ data: { slug: post.slug, title: post.title, image: post.image } });
      }
      const pictures = before.filter((post) => post.image);
      expect(pictures.length).toBeGreaterThan(0);
      for (const post of pictures) {
        const file = await site.app.request(post.image as string);
        expect(file.status).toBe(200);
        expect(Buffer.from(await file.arrayBuffer())).toEqual(
          fs.readFileSync(path.join(t.dataDir, "uploads", (post.image as string).replace(/^\/uploads\//, ""))),
        );
      }
      // The private files come back to the private root, and members download them there.
      expect(fs.readFileSync(path.join(target.DATA_DIR, "private", PAPER_KEY))).toEqual(PAPER_BYTES);
      const paper = await site.app.request(`/papers/${paperId}/download`, { headers: { cookie: member } });
      expect(paper.status).toBe(200);
      expect(Buffer.from(await paper.arrayBuffer())).toEqual(PAPER_BYTES);
      expect((await site.app.request(`/uploads/${PAPER_KEY}`)).status).toBe(404);
    } finally {
      await site.handle.destroy();
    }
  });
});

describe("npm run restore refuses", () => {
  let folder: string;
  beforeAll(async () => {
    folder = path.join(scratch, "in-process");
    await createBackup(loadConfig(sourceEnv()), { out: folder });
  });

  it("a target that already holds a site, and leaves it as it was", async () => {
    const posts = await t.runtime.services.news.countPosts();
    const result = await runScript("scripts/restore.ts", [folder], sourceEnv());
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/not empty|already there/);
    expect(result.err).toContain("Restore only into an empty");
    expect(result.err).not.toMatch(/\n\s+at /);
    expect(await t.runtime.services.news.countPosts()).toBe(posts);
  });

  it("a DATA_DIR whose uploads folder holds files", async () => {
    const target = await emptyTarget();
    fs.mkdirSync(path.join(target.DATA_DIR, "uploads", "news"), { recursive: true });
    fs.writeFileSync(path.join(target.DATA_DIR, "uploads", "news", "left-over.webp"), "x");
    await expect(restoreBackup(loadConfig(target), folder)).rejects.toThrow(/already holds files/);
    expect(fs.existsSync(path.join(target.DATA_DIR, "site.db"))).toBe(false);
  });

  it("a DATA_DIR whose private folder holds files", async () => {
    const target = await emptyTarget();
    fs.mkdirSync(path.join(target.DATA_DIR, "private", "papers"), { recursive: true });
    fs.writeFileSync(path.join(target.DATA_DIR, "private", "papers", "left-over.pdf"), "x");
    await expect(restoreBackup(loadConfig(target), folder)).rejects.toThrow(/already holds files/);
    expect(fs.existsSync(path.join(target.DATA_DIR, "site.db"))).toBe(false);
  });

  it("a damaged backup, before writing anything", async () => {
    const damaged = path.join(scratch, "damaged");
    fs.cpSync(folder, damaged, { recursive: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(damaged, "manifest.json"), "utf8"));
    const file = path.join(damaged, manifest.database.path);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 100] ^= 0xff;
    fs.writeFileSync(file, bytes);
    const target = await emptyTarget();
    await expect(restoreBackup(loadConfig(target), damaged)).rejects.toThrow(/does not match the manifest/);
    expect(fs.readdirSync(target.DATA_DIR)).toEqual([]);
  });

  it("a folder without a manifest (not a backup, or an unfinished one)", async () => {
    const result = await runScript("scripts/restore.ts", [path.join(scratch, "nothing-here")], await emptyTarget());
    expect(result.code).toBe(1);
    expect(result.err).toContain("holds no manifest.json");
  });
});

describe("with STORAGE=s3 (s3rver in this process)", () => {
  const BUCKET = "masthead-backups";
  let s3: TestS3;
  let local: string;
  beforeAll(async () => {
    s3 = await startS3([BUCKET]);
    local = path.join(scratch, "for-s3");
    await createBackup(loadConfig(sourceEnv()), { out: local });
  });
  afterAll(async () => s3?.close());
  const inBucket = async (prefix: string) => ({ ...(await emptyTarget()), ...s3.env(BUCKET, { S3_PREFIX: prefix }) });

  it("restores a local backup into an empty bucket (a move to S3), serves it, and backs the bucket up file for file", async () => {
    const target = await inBucket("restored");
    const manifest = await restoreBackup(loadConfig(target), local);
    expect(manifest.uploads.length).toBeGreaterThan(0);
    const keys = await s3.keys(BUCKET);
    for (const file of manifest.uploads) expect(keys).toContain(`restored/uploads/${file.path}`);
    expect(keys).toContain(`restored/private/${PAPER_KEY}`);
    expect(fs.existsSync(path.join(target.DATA_DIR, "uploads"))).toBe(false);

    const site = openSite(target);
    try {
      const image = manifest.uploads[0].path;
      const served = await site.app.request(`/uploads/${image}`);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(fs.readFileSync(path.join(local, "uploads", image)));
      const paper = await site.app.request(`/papers/${paperId}/download`, { headers: { cookie: member } });
      expect(Buffer.from(await paper.arrayBuffer())).toEqual(PAPER_BYTES);
      expect((await site.app.request(`/papers/${paperId}/download`)).status).toBe(404);
    } finally {
      await site.handle.destroy();
    }

    const again = path.join(scratch, "from-s3");
    const { manifest: fromBucket } = await createBackup(loadConfig(target), { out: again });
    expect(fromBucket.uploads).toEqual(manifest.uploads);
    expect(fromBucket.private).toEqual(manifest.private);
    expect(fs.readFileSync(path.join(again, "private", PAPER_KEY))).toEqual(PAPER_BYTES);
  });

  it("refuses a bucket prefix that already holds files, and one that does not answer", async () => {
    const target = await inBucket("taken");
    await s3.client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: "taken/private/papers/left-over.pdf", Body: "x" }),
    );
    await expect(restoreBackup(loadConfig(target), local)).rejects.toThrow(/bucket's private files already hold files/);
    const absent = { ...(await emptyTarget()), ...s3.env("no-such-bucket") };
    await expect(restoreBackup(loadConfig(absent), local)).rejects.toThrow(
      "S3 storage: bucket no-such-bucket does not answer: no such bucket",
    );
    expect(fs.existsSync(path.join(absent.DATA_DIR, "site.db"))).toBe(false);
  });
});
