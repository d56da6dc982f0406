import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { DeleteObjectCommand, GetObjectCommand } from "@aws-sdk/client-s3";
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepUploads } from "../../core/media/upload-sweep";
import { loadConfig } from "../../lib/env";
import { FILE_STORE_UNAVAILABLE_MESSAGE } from "../../lib/errors";
import { createApp } from "../../server/app";
import { createRuntime } from "../../server/runtime";
import { buildRuntime, call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { startS3, type TestS3 } from "../support/s3";

/**
 * Issue 16, S3-compatible storage: the site with STORAGE=s3 against a real S3 protocol server
 * (s3rver, in this process). Two apps over one database and one bucket, each with a data
 * directory of its own (two processes behind a load balancer): what one stores, the other serves.
 */
const BUCKET = "masthead-site";
let s3: TestS3;
let t: TestContext;
let otherDir: string;
let other: ReturnType<typeof createApp>;
let admin: string;
let member: string;

const configFor = (dataDir: string, extra: Record<string, string> = {}) =>
  loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: dataDir,
    BASE_URL: ORIGIN,
    ...s3.env(BUCKET, extra),
  });

/** Files on a data directory's disk (the tmp spool aside): none, when the storage is the bucket. */
function filesOnDisk(dataDir: string): string[] {
  return fs
    .readdirSync(dataDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.includes(`${path.sep}tmp`))
    .map((entry) => path.relative(dataDir, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith("site.db"));
}

beforeAll(async () => {
  s3 = await startS3([BUCKET]);
  t = await createTestContext(s3.env(BUCKET));
  otherDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-other-"));
  other = createApp(buildRuntime(configFor(otherDir), t.database));
  admin = (await signIn(t.runtime.services, "admin")).token;
  member = (await signIn(t.runtime.services, "member")).token;
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(otherDir, { recursive: true, force: true });
  await s3?.close();
});

describe("public uploads on S3", () => {
  let avatar: string;

  it("are stored in the bucket under uploads/ and served by the other app, with the uploads' headers", async () => {
    const photo = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#2a6f97" } })
      .jpeg()
      .toBuffer();
    const res = await call(t.app, "POST", "/api/settings/profile/updateAvatar", {
      token: member,
      form: { avatar: new File([new Uint8Array(photo)], "me.jpg", { type: "image/jpeg" }) },
      multipart: true,
    });
    expect(res.status, res.text).toBe(200);
    avatar = (res.json as { avatar: string }).avatar;
    const key = avatar.slice("/uploads/".length);
    expect(await s3.keys(BUCKET)).toContain(`uploads/${key}`);
    expect(filesOnDisk(t.dataDir)).toEqual([]);

    const served = await other.request(avatar);
    expect(served.status).toBe(200);
    const body = new Uint8Array(await served.arrayBuffer());
    const meta = await sharp(body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 256, 256]);
    const object = await s3.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: `uploads/${key}` }));
    expect(body).toEqual(await object.Body?.transformToByteArray());
    expect(object.ContentType).toBe("image/webp");
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect(served.headers.get("content-length")).toBe(String(body.length));
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("content-security-policy")).toContain("sandbox");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("last-modified")).toBeTruthy();
    expect(filesOnDisk(otherDir)).toEqual([]);

    const etag = served.headers.get("etag") as string;
    expect((await other.request(avatar, { headers: { "if-none-match": etag } })).status).toBe(304);
    const range = await other.request(avatar, { headers: { range: "bytes=0-11" } });
    expect(range.status).toBe(206);
    expect(range.headers.get("content-range")).toBe(`bytes 0-11/${body.length}`);
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(body.subarray(0, 12));
  });

  it("answer 404 for a missing file and anything that is not a storage key", async () => {
    for (const url of ["/uploads/avatars/0000-256.webp", "/uploads/..%2Fprivate%2Fx.pdf", "/uploads/AVATARS/x.webp"]) {
      expect((await other.request(url)).status, url).toBe(404);
    }
  });

  it("are redirected to S3_PUBLIC_URL when set, which the pages' CSP allows as an image source", async () => {
    const cdn = createApp(
      buildRuntime(configFor(otherDir, { S3_PUBLIC_URL: "https://cdn.example.org/up/" }), t.database),
    );
    const res = await cdn.request(avatar);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`https://cdn.example.org/up/${avatar.slice("/uploads/".length)}`);
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expect((await cdn.request("/uploads/..%2Fprivate%2Fx.pdf")).status).toBe(404);
    const page = await cdn.request("/healthz");
    expect(page.headers.get("content-security-policy")).toMatch(
      /img-src 'self' data: blob: https:\/\/cdn\.example\.org[; ]/,
    );
  });

  it("are swept through list(): an old orphan goes, referenced files stay", async () => {
    await t.runtime.storage.uploads.put("news/0ff0-480.webp", new Uint8Array(10));
    const result = await sweepUploads({ db: t.database.db, storage: t.runtime.storage.uploads }, { minAgeMs: 0 });
    expect(result.orphans).toEqual(["news/0ff0-480.webp"]);
    const keys = await s3.keys(BUCKET);
    expect(keys).not.toContain("uploads/news/0ff0-480.webp");
    expect(keys).toContain(`uploads/${avatar.slice("/uploads/".length)}`);
  });
});

describe("private paper files on S3", () => {
  async function pdf(text: string): Promise<Uint8Array> {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage().drawText(text, { x: 50, y: 700, font });
    return doc.save();
  }
  const paperForm = (fields: Record<string, string>, data: Uint8Array, method?: string) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append("uploaded_file", new File([data as Uint8Array<ArrayBuffer>], "study.pdf", { type: "application/pdf" }));
    if (method) form.append("_method", method);
    return form;
  };

  it("are stored under private/, and served by the other app only after the access check, ranges too", async () => {
    const category = await call(t.app, "POST", "/api/dashboard/papers-categories", {
      token: admin,
      json: { name: "Members papers", is_public: "false" },
    });
    expect(category.status, category.text).toBe(201);
    const categoryId = String((category.json as { category: { id: number } }).category.id);
    const first = await pdf("Radar clutter, first edition");
    const created = await call(t.app, "POST", "/api/dashboard/papers", {
      token: admin,
      body: paperForm(
        { papers_category_id: categoryId, name: "Clutter study", number: "TP-7", revision: "Rev. 1" },
        first,
      ),
    });
    expect(created.status, created.text).toBe(201);
    const id = (created.json as { paper: { id: number } }).paper.id;
    const row = await t.database.db
      .selectFrom("papers")
      .select("uploaded_file")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const key = row.uploaded_file as string;
    const keys = await s3.keys(BUCKET);
    expect(keys).toContain(`private/${key}`);
    expect(keys).not.toContain(`uploads/${key}`);
    expect(filesOnDisk(t.dataDir)).toEqual([]);

    // The access check: a visitor gets the 404 of a paper that does not exist; the uploads never have it.
    for (const url of [
      `/papers/${id}/download`,
      `/papers/${id}/view`,
      `/uploads/${key}`,
      `/uploads/..%2Fprivate%2F${key}`,
    ])
      expect((await other.request(url)).status, url).toBe(404);

    const asMember = { authorization: `Bearer ${member}` };
    const whole = await other.request(`/papers/${id}/download`, { headers: asMember });
    expect(whole.status).toBe(200);
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(first);
    expect(whole.headers.get("content-type")).toBe("application/pdf");
    expect(whole.headers.get("content-disposition")).toMatch(/^attachment; filename="TP-7 Clutter study.pdf"/);
    expect(whole.headers.get("cache-control")).toBe("private, max-age=0, must-revalidate");
    // Streamed through the app: no address of the bucket is handed out.
    expect(whole.headers.get("location")).toBeNull();
    const part = await other.request(`/papers/${id}/view`, { headers: { ...asMember, range: "bytes=-16" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes ${first.length - 16}-${first.length - 1}/${first.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(first.subarray(first.length - 16));

    // A new file: the old one stays in the bucket as a revision, served by its own address.
    const second = await pdf("Radar clutter, second edition");
    const replaced = await call(t.app, "POST", `/api/dashboard/papers/${id}`, {
      token: admin,
      body: paperForm(
        { papers_category_id: categoryId, name: "Clutter study", number: "TP-7", revision: "Rev. 2" },
        second,
        "PATCH",
      ),
    });
    expect(replaced.status, replaced.text).toBe(200);
    const revision = (replaced.json as { paper: { revisions: { file: { url: string } }[] } }).paper.revisions[0];
    const current = await other.request(`/papers/${id}/download`, { headers: asMember });
    expect(new Uint8Array(await current.arrayBuffer())).toEqual(second);
    const old = await other.request(revision.file.url, { headers: asMember });
    expect(old.status).toBe(200);
    expect(new Uint8Array(await old.arrayBuffer())).toEqual(first);
    expect((await other.request(revision.file.url)).status).toBe(404);

    // Deleting the paper removes its files, the revision's too.
    expect((await call(t.app, "DELETE", `/api/dashboard/papers/${id}`, { token: admin })).status).toBe(200);
    expect((await s3.keys(BUCKET)).filter((k) => k.startsWith("private/"))).toEqual([]);
  });
});

describe("a bucket that fails", () => {
  it("is a 503 that says so for uploads and papers, after the access check, not a 404 or a 500", async () => {
    // An S3 endpoint that answers every request as S3 does when it is failing.
    const failing = http.createServer((_req, res) => {
      res.writeHead(503, { "Content-Type": "application/xml" });
      res.end('<?xml version="1.0"?><Error><Code>ServiceUnavailable</Code><Message>Down</Message></Error>');
    });
    await new Promise<void>((resolve) => failing.listen(0, "127.0.0.1", resolve));
    const { port } = failing.address() as AddressInfo;
    try {
      const brokenDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-broken-"));
      const broken = createApp(
        buildRuntime(configFor(brokenDir, { S3_ENDPOINT: `http://127.0.0.1:${port}` }), t.database),
      );
      const upload = await broken.request("/uploads/avatars/0000-256.webp");
      expect(upload.status).toBe(503);
      expect(await upload.text()).toBe(FILE_STORE_UNAVAILABLE_MESSAGE);
      expect(upload.headers.get("retry-after")).toBe("30");

      const category = await call(t.app, "POST", "/api/dashboard/papers-categories", {
        token: admin,
        json: { name: "Outage papers", is_public: "false" },
      });
      const categoryId = String((category.json as { category: { id: number } }).category.id);
      const form = new FormData();
      form.append("papers_category_id", categoryId);
      form.append("name", "Outage study");
      const doc = await PDFDocument.create();
      doc.addPage();
      form.append("uploaded_file", new File([(await doc.save()) as Uint8Array<ArrayBuffer>], "o.pdf"));
      const created = await call(t.app, "POST", "/api/dashboard/papers", { token: admin, body: form });
      expect(created.status, created.text).toBe(201);
      const id = (created.json as { paper: { id: number } }).paper.id;
      // A visitor learns nothing (the access check comes first); a member is told the files cannot be read.
      expect((await broken.request(`/papers/${id}/download`)).status).toBe(404);
      const paper = await broken.request(`/papers/${id}/download`, { headers: { authorization: `Bearer ${member}` } });
      expect(paper.status).toBe(503);
      expect(await paper.text()).toBe(FILE_STORE_UNAVAILABLE_MESSAGE);
      fs.rmSync(brokenDir, { recursive: true, force: true });
    } finally {
      failing.close();
    }
  });
});

describe("a file deleted while it is being served", () => {
  it("is a 404 when it goes between the HEAD and the GET, not a 200 that its body falls short of", async () => {
    const key = "news/dead-480.webp";
    await t.runtime.storage.uploads.put(key, new Uint8Array(4096).fill(7));
    // In front of the bucket: once the file's HEAD is answered, an admin's delete gets there first.
    const proxy = http.createServer((req, res) => {
      const upstream = http.request(
        new URL(req.url ?? "/", s3.endpoint),
        { method: req.method, headers: req.headers },
        async (answer) => {
          if (req.method === "HEAD" && req.url?.includes("dead-480")) {
            await s3.client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `uploads/${key}` }));
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-racing-"));
    try {
      const { port } = proxy.address() as AddressInfo;
      const racing = createApp(buildRuntime(configFor(dir, { S3_ENDPOINT: `http://127.0.0.1:${port}` }), t.database));
      const res = await racing.request(`/uploads/${key}`);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe("Not found");
    } finally {
      proxy.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a paper stored before its type was recorded", () => {
  it("is a 404 when its file goes between the HEAD and the sniffing read, and a 503 when that read fails", async () => {
    const category = await call(t.app, "POST", "/api/dashboard/papers-categories", {
      token: admin,
      json: { name: "Old papers", is_public: "false" },
    });
    const categoryId = String((category.json as { category: { id: number } }).category.id);
    const paperId = async (name: string) => {
      const form = new FormData();
      form.append("papers_category_id", categoryId);
      form.append("name", name);
      const doc = await PDFDocument.create();
      doc.addPage();
      form.append("uploaded_file", new File([(await doc.save()) as Uint8Array<ArrayBuffer>], "old.pdf"));
      const created = await call(t.app, "POST", "/api/dashboard/papers", { token: admin, body: form });
      expect(created.status, created.text).toBe(201);
      const id = (created.json as { paper: { id: number } }).paper.id;
      // As a paper from before migration 0009: no recorded type, so the download sniffs its first bytes.
      await t.database.db.updateTable("papers").set({ file_type: null }).where("id", "=", id).execute();
      return id;
    };
    // In front of the bucket: the HEAD is answered, then the read of the file's bytes meets
    // a delete (`gone`) or a failing store (`failing`).
    let mode: "gone" | "failing" = "gone";
    const proxy = http.createServer((req, res) => {
      const objectKey = decodeURIComponent(new URL(req.url ?? "/", s3.endpoint).pathname).replace(`/${BUCKET}/`, "");
      const paperRead = req.method === "GET" && objectKey.startsWith("private/");
      if (paperRead && mode === "failing") {
        res.writeHead(503, { "Content-Type": "application/xml" });
        res.end('<?xml version="1.0"?><Error><Code>ServiceUnavailable</Code><Message>Down</Message></Error>');
        return;
      }
      const forward = () => {
        const upstream = http.request(
          new URL(req.url ?? "/", s3.endpoint),
          { method: req.method, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        req.pipe(upstream);
      };
      if (paperRead && mode === "gone") {
        void s3.client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: objectKey })).then(forward);
        return;
      }
      forward();
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-sniffing-"));
    try {
      const { port } = proxy.address() as AddressInfo;
      const racing = createApp(buildRuntime(configFor(dir, { S3_ENDPOINT: `http://127.0.0.1:${port}` }), t.database));
      const asMember = { headers: { authorization: `Bearer ${member}` } };
      const gone = await racing.request(`/papers/${await paperId("Gone while read")}/download`, asMember);
      expect(gone.status).toBe(404);
      mode = "failing";
      const failing = await racing.request(`/papers/${await paperId("Read while failing")}/download`, asMember);
      expect(failing.status).toBe(503);
      expect(await failing.text()).toBe(FILE_STORE_UNAVAILABLE_MESSAGE);
      expect(failing.headers.get("retry-after")).toBe("30");
    } finally {
      proxy.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("start-up with STORAGE=s3", () => {
  it("stops with a readable message when the bucket does not answer", async () => {
    await expect(createRuntime(configFor(otherDir, { S3_BUCKET: "absent-bucket" }))).rejects.toThrow(
      "S3 storage: bucket absent-bucket does not answer: no such bucket",
    );
  });
});
