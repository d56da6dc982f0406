import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paperDownloadUrl } from "../../core/library/library.schema";
import { movePublicPaperFiles } from "../../core/library/paper-files";
import { loadConfig } from "../../lib/env";
import { createRuntime } from "../../server/runtime";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { createPaper, createPaperCategory, putPrivateFile } from "../support/papers";

/**
 * Issue 14 'Files that stay private': paper files live in the private root and
 * are served by /papers/{id}/download to those who may have them (members for
 * a members-only category, as these are), 404 to everyone else.
 */
let t: TestContext;
let member: string;
let pdf: Uint8Array;
let paperId: number;
let categoryId: number;
const KEY = "papers/a1b2c3-radar-performance.pdf";

async function makePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < 3; i++) doc.addPage().drawText(`Radar performance, page ${i + 1}`, { x: 50, y: 700, font });
  return doc.save();
}

const insertPaper = (fields: { name: string; number?: string | null; uploaded_file: string | null }) =>
  createPaper(t.database.db, categoryId, fields);
const putPrivate = (key: string, data: Uint8Array) => putPrivateFile(t.runtime.config.privateDir, key, data);

beforeAll(async () => {
  t = await createTestContext();
  member = (await signIn(t.runtime.services, "member")).cookie;
  pdf = await makePdf();
  categoryId = await createPaperCategory(t.database.db, "technical-papers", "Technical papers");
  putPrivate(KEY, pdf);
  paperId = await insertPaper({ name: "Radar performance", number: "TP-2026-01", uploaded_file: KEY });
});
afterAll(async () => t.close());

const download = (id: number | string, headers: Record<string, string> = {}, method = "GET") =>
  call(t.app, method, `/papers/${id}/download`, { cookie: member, headers });

describe("a paper's file", () => {
  it("has one address, its download route", () => {
    expect(paperDownloadUrl(paperId)).toBe(`/papers/${paperId}/download`);
  });

  it("is 404 for an anonymous visitor, as for an id that is no paper", async () => {
    const anonymous = await t.app.request(paperDownloadUrl(paperId));
    const missing = await t.app.request("/papers/999999/download");
    expect(anonymous.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(await anonymous.text()).toBe(await missing.text());
  });

  it("is sent whole to a member, with its name, type and private caching", async () => {
    const res = await t.app.request(paperDownloadUrl(paperId), { headers: { cookie: member } });
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(pdf);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-length")).toBe(String(pdf.length));
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="TP-2026-01 Radar performance.pdf"; filename*=UTF-8''TP-2026-01%20Radar%20performance.pdf`,
    );
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("private, max-age=0, must-revalidate");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(res.headers.get("content-encoding")).toBeNull();
  });

  it("answers a byte range with 206 and the slice", async () => {
    const res = await t.app.request(paperDownloadUrl(paperId), { headers: { cookie: member, range: "bytes=10-19" } });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 10-19/${pdf.length}`);
    expect(res.headers.get("content-length")).toBe("10");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(pdf.slice(10, 20));

    const open = await t.app.request(paperDownloadUrl(paperId), { headers: { cookie: member, range: "bytes=100-" } });
    expect(open.status).toBe(206);
    expect(new Uint8Array(await open.arrayBuffer())).toEqual(pdf.slice(100));
    expect(open.headers.get("content-range")).toBe(`bytes 100-${pdf.length - 1}/${pdf.length}`);
  });

  it("answers a suffix range with the file's last bytes", async () => {
    const res = await t.app.request(paperDownloadUrl(paperId), { headers: { cookie: member, range: "bytes=-16" } });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes ${pdf.length - 16}-${pdf.length - 1}/${pdf.length}`);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(pdf.slice(-16));
  });

  it("refuses a range past the end with 416 and the size", async () => {
    const res = await download(paperId, { range: `bytes=${pdf.length}-` });
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe(`bytes */${pdf.length}`);
  });

  it("answers several ranges, or a malformed one, with the whole file", async () => {
    for (const range of ["bytes=0-1,5-6", "bytes=abc", "items=0-1"]) {
      const res = await t.app.request(paperDownloadUrl(paperId), { headers: { cookie: member, range } });
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(pdf.length);
    }
  });

  it("revalidates: If-None-Match with its ETag is 304, without a body", async () => {
    const first = await download(paperId);
    const etag = first.headers.get("etag") as string;
    const again = await download(paperId, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect((await download(paperId, { "if-none-match": '"other"' })).status).toBe(200);
  });

  it("answers HEAD with the headers and no body", async () => {
    const res = await t.app.request(paperDownloadUrl(paperId), { method: "HEAD", headers: { cookie: member } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(pdf.length));
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(await res.text()).toBe("");
  });

  it("is 404 for a paper without a file, or whose file is gone", async () => {
    const noFile = await insertPaper({ name: "Draft", uploaded_file: null });
    const gone = await insertPaper({ name: "Lost", uploaded_file: "papers/000000-lost.pdf" });
    expect((await download(noFile)).status).toBe(404);
    expect((await download(gone)).status).toBe(404);
  });

  it.each([
    "abc",
    "0",
    "01",
    "1.5",
    "-1",
    "99999999999",
    "2147483648",
    "123456789012345678901234567890",
    "..%2F..%2Fetc%2Fpasswd",
    "1%00",
    "%2e%2e",
  ])("is 404 for guessed or hostile ids: %s", async (id) => {
    const res = await call(t.app, "GET", `/papers/${id}/download`, { cookie: member });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain("root:");
  });

  it("gets a safe Content-Disposition whatever the paper's name holds", async () => {
    const key = "papers/d4e5f6-hostile.pdf";
    putPrivate(key, pdf);
    const id = await insertPaper({
      name: 'Évaluation "radar"\r\nSet-Cookie: x=1; façade ⚓',
      number: "N°7",
      uploaded_file: key,
    });
    const res = await download(id);
    expect(res.status).toBe(200);
    const disposition = res.headers.get("content-disposition") as string;
    expect(disposition).not.toMatch(/[\r\n]/);
    expect(res.headers.get("set-cookie")).toBeNull();
    const [, ascii] = /filename="([^"]*)"/.exec(disposition) ?? [];
    expect(ascii).toMatch(/^[\x20-\x7e]+\.pdf$/);
    expect(ascii).not.toContain('"');
    const [, encoded] = /filename\*=UTF-8''(\S+)$/.exec(disposition) ?? [];
    expect(encoded).toMatch(/^[A-Za-z0-9%._~!-]+$/);
    expect(decodeURIComponent(encoded)).toBe("N°7 Évaluation radar Set-Cookie x=1; façade ⚓.pdf");
  });

  it("is served by its content's type, not its key's extension", async () => {
    const key = "papers/0f0f0f-not-really.pdf";
    putPrivate(key, new TextEncoder().encode("MZ just some bytes, no PDF at all"));
    const id = await insertPaper({ name: "Mislabelled", uploaded_file: key });
    const res = await download(id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
  });
});

describe("paper files under the old public uploads", () => {
  it("move to the private root at start, and their old address is 404", async () => {
    const key = "papers/9a8b7c-annual-report.pdf";
    const publicFile = path.join(t.runtime.config.uploadsDir, key);
    fs.mkdirSync(path.dirname(publicFile), { recursive: true });
    fs.writeFileSync(publicFile, pdf);
    const id = await insertPaper({ name: "Annual report", uploaded_file: key });
    expect((await t.app.request(`/uploads/${key}`)).status).toBe(200);
    // A file taken for a folder is simply not there (the file system says ENOTDIR).
    expect((await t.app.request(`/uploads/${key}/x.webp`)).status).toBe(404);

    const first = await movePublicPaperFiles(t.database.db, t.runtime.config.uploadsDir, t.runtime.config.privateDir);
    expect(first.moved).toEqual([key]);
    expect(fs.existsSync(publicFile)).toBe(false);
    expect(fs.readFileSync(path.join(t.runtime.config.privateDir, key))).toEqual(Buffer.from(pdf));
    expect((await t.app.request(`/uploads/${key}`)).status).toBe(404);
    expect((await t.app.request(`/uploads/..%2Fprivate%2F${key.replace("/", "%2F")}`)).status).toBe(404);
    const res = await download(id);
    expect(res.status).toBe(200);

    const second = await movePublicPaperFiles(t.database.db, t.runtime.config.uploadsDir, t.runtime.config.privateDir);
    expect(second).toEqual({ moved: [], removedPublicCopies: [] });
    expect(fs.existsSync(path.join(t.runtime.config.privateDir, key))).toBe(true);

    // A public copy left beside the private file (a restore of old uploads) is removed, the private file kept.
    fs.writeFileSync(publicFile, "stale");
    const third = await movePublicPaperFiles(t.database.db, t.runtime.config.uploadsDir, t.runtime.config.privateDir);
    expect(third.removedPublicCopies).toEqual([key]);
    expect(fs.existsSync(publicFile)).toBe(false);
    expect(fs.readFileSync(path.join(t.runtime.config.privateDir, key))).toEqual(Buffer.from(pdf));
  });
});

describe("server start", () => {
  it("moves the paper files out of the public uploads before serving", async () => {
    // A site of its own (SQLite in its DATA_DIR), as the server starts it; the move itself is tested on both dialects above.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-start-"));
    try {
      const config = loadConfig({
        NODE_ENV: "test",
        LOG_LEVEL: "silent",
        DATA_DIR: dataDir,
        BASE_URL: "http://localhost:3000",
      });
      const first = await createRuntime(config);
      const key = "papers/5e5e5e-old-public.pdf";
      const category = await createPaperCategory(first.database.db, "old", "Old");
      await createPaper(first.database.db, category, { name: "Old public", uploaded_file: key });
      await first.database.destroy();
      fs.mkdirSync(path.join(config.uploadsDir, "papers"), { recursive: true });
      fs.writeFileSync(path.join(config.uploadsDir, key), pdf);

      const second = await createRuntime(config);
      expect(fs.existsSync(path.join(config.uploadsDir, key))).toBe(false);
      expect(fs.readFileSync(path.join(config.privateDir, key))).toEqual(Buffer.from(pdf));
      // Its type, size and text, which rows from before migration 0009 lack, are recorded once (the start
      // runs this in the background; here it is awaited, and a second run finds nothing to do).
      await second.services.libraryAdmin.completeEarlierPapers();
      expect(await second.services.libraryAdmin.completeEarlierPapers()).toBe(0);
      const row = await second.database.db
        .selectFrom("papers")
        .select(["id", "file_type", "file_size"])
        .where("uploaded_file", "=", key)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ file_type: "application/pdf", file_size: pdf.length });
      const found = await second.services.search.search("performance", { signedIn: true });
      expect(found.map((r) => r.url)).toContain(`/papers/${row.id}/view#page=1`);
      await second.database.destroy();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
