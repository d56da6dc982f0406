import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3, type TestS3 } from "../support/s3";
import { type ServerProcess, startServer } from "./server";

/**
 * Two built servers, as behind a load balancer: one SQLite database file, one bucket on s3rver
 * (started in this test process), a data directory each. What is uploaded through one is served
 * by the other; nothing lands on either's disk.
 */
const BUCKET = "masthead-processes";
const ADMIN = { email: "s3-admin@masthead.test", password: "s3 admin long password" };
let s3: TestS3;
let shared: string;
let a: ServerProcess;
let b: ServerProcess;
let token: string;
let env: Record<string, string>;

/** Files on a server's disk other than its spool: none, when the storage is the bucket. */
const filesOf = (server: ServerProcess) =>
  fs
    .readdirSync(server.dataDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.includes(`${path.sep}tmp`))
    .map((entry) => entry.name);

beforeAll(async () => {
  s3 = await startS3([BUCKET]);
  shared = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-s3-processes-"));
  env = {
    ...s3.env(BUCKET),
    DATABASE_URL: `sqlite:${path.join(shared, "site.db")}`,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: "warn",
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  };
  a = await startServer({ env });
  b = await startServer({ env });
  const login = await fetch(`${a.url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  token = ((await login.json()) as { access_token: string }).access_token;
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  a?.cleanup();
  b?.cleanup();
  await s3?.close();
  fs.rmSync(shared, { recursive: true, force: true });
});

const post = (server: ServerProcess, url: string, body: FormData | string) =>
  fetch(`${server.url}${url}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      ...(typeof body === "string" ? { "content-type": "application/json" } : {}),
    },
    body,
  });

describe("two server processes on one bucket", () => {
  it("serve an image uploaded through the other, from the bucket", async () => {
    const photo = await sharp({ create: { width: 500, height: 300, channels: 3, background: "#13579b" } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append("avatar", new File([new Uint8Array(photo)], "me.jpg", { type: "image/jpeg" }));
    const uploaded = await post(a, "/api/settings/profile/updateAvatar", form);
    expect(uploaded.status).toBe(200);
    const avatar = ((await uploaded.json()) as { avatar: string }).avatar;

    const served = await fetch(`${b.url}${avatar}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const object = await s3.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: `uploads/${avatar.slice(9)}` }));
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(await object.Body?.transformToByteArray());
    expect((await fetch(`${b.url}/uploads/avatars/0000-256.webp`)).status).toBe(404);
    expect([...filesOf(a), ...filesOf(b)]).toEqual([]);
  });

  it("serve a members-only paper stored through the other only after the access check, ranges too", async () => {
    const category = await post(a, "/api/dashboard/papers-categories", JSON.stringify({ name: "Members" }));
    expect(category.status).toBe(201);
    const categoryId = ((await category.json()) as { category: { id: number } }).category.id;
    const doc = await PDFDocument.create();
    doc.addPage().drawText("Sonar trials", { x: 50, y: 700, font: await doc.embedFont(StandardFonts.Helvetica) });
    const pdf = await doc.save();
    const form = new FormData();
    form.append("papers_category_id", String(categoryId));
    form.append("name", "Sonar trials");
    form.append("uploaded_file", new File([pdf as Uint8Array<ArrayBuffer>], "sonar.pdf", { type: "application/pdf" }));
    const created = await post(a, "/api/dashboard/papers", form);
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { paper: { id: number } }).paper.id;
    expect((await s3.keys(BUCKET)).filter((key) => key.startsWith("private/papers/"))).toHaveLength(1);

    expect((await fetch(`${b.url}/papers/${id}/download`)).status).toBe(404);
    const whole = await fetch(`${b.url}/papers/${id}/download`, { headers: { authorization: `Bearer ${token}` } });
    expect(whole.status).toBe(200);
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(pdf);
    const part = await fetch(`${b.url}/papers/${id}/download`, {
      headers: { authorization: `Bearer ${token}`, range: "bytes=0-7" },
    });
    expect(part.status).toBe(206);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(pdf.subarray(0, 8));
    expect([...filesOf(a), ...filesOf(b)]).toEqual([]);
  });

  it("does not start on a bucket that does not answer: one line, no stack", async () => {
    const dataDir = fs.mkdtempSync(path.join(shared, "absent-"));
    const failed = startServer({ env: { ...env, S3_BUCKET: "absent-bucket" }, dataDir, readyTimeoutMs: 15_000 });
    await expect(failed).rejects.toThrow(/stderr:\nS3 storage: bucket absent-bucket does not answer: no such bucket$/);
  });
});
