import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SPOOL_FORM_BYTES } from "../../server/middleware/body-limit";
import { createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { fileSha256, type Multipart, type MultipartPart, multipart, streamOf } from "../support/multipart";
import {
  MEMORY_TEST_PATH,
  SPOOL_TEST_PATH,
  STORE_TEST_PATH,
  spooledLeft,
  spoolTestRoutes,
} from "../support/spool-routes";

/**
 * Large uploads streamed to disk (contract `body.spool`, lib/spool.ts): the route gets a File
 * backed by a temporary file, its own larger body limit, and no temporary file outlives the
 * request, whatever happens to it. Routes that do not spool keep UPLOAD_MAX_BYTES and memory.
 */
const MB = 1024 * 1024;
/** The test routes' largest file: above UPLOAD_MAX_BYTES (10 MB), below PAPER_MAX_BYTES. */
const MAX_FILE = 16 * MB;
let t: TestContext;
let token: string;

beforeAll(async () => {
  t = await createTestContext({}, { extraApi: (runtime) => spoolTestRoutes(runtime, MAX_FILE) });
  token = (await signIn(t.runtime.services, "admin")).token;
});
afterAll(async () => t.close());

type Sent = { status: number; json: Record<string, unknown>; pulled: number };

async function send(
  url: string,
  body: Multipart,
  options: { method?: string; contentLength?: boolean; failAfter?: number; headers?: Record<string, string> } = {},
): Promise<Sent> {
  const { stream, pulled } = streamOf(body, { failAfter: options.failAfter });
  const response = await t.app.request(url, {
    method: options.method ?? "POST",
    headers: {
      "content-type": body.contentType,
      authorization: `Bearer ${token}`,
      ...(options.contentLength ? { "content-length": String(body.length) } : {}),
      ...options.headers,
    },
    body: stream,
    // @ts-expect-error Node's fetch needs duplex for a streamed body
    duplex: "half",
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown>, pulled: pulled.bytes };
}

const paper = (size: number, extra: MultipartPart[] = []): Multipart =>
  multipart([
    { name: "title", value: "Annual report" },
    ...extra,
    { name: "file", filename: "report.pdf", type: "application/pdf", size },
  ]);

type Seen = {
  name: string;
  type: string;
  size: number;
  sha256: string;
  head: string;
  spooledPath: string | null;
  existedDuringHandler: boolean;
};
const seen = (answer: Sent) => answer.json.file as Seen;

describe("a route that spools its uploads", () => {
  it("gets a 12 MB file (above UPLOAD_MAX_BYTES) as a disk-backed File with the right bytes, removed after", async () => {
    const size = 12 * MB + 123;
    for (const contentLength of [true, false]) {
      const answer = await send(`/api${SPOOL_TEST_PATH}`, paper(size), { contentLength });
      expect(answer.status).toBe(200);
      const file = seen(answer);
      expect(file).toMatchObject({ name: "report.pdf", type: "application/pdf", size, sha256: fileSha256(size) });
      expect(file.head).toBe(Buffer.from([0, 31, 62, 93]).toString("hex"));
      expect(file.spooledPath).toMatch(new RegExp(`^${t.runtime.config.tmpDir}/upload-[0-9a-f]{32}\\.part$`));
      expect(file.existedDuringHandler).toBe(true);
      expect(fs.existsSync(file.spooledPath as string)).toBe(false);
      expect(spooledLeft(t.runtime)).toEqual([]);
    }
  });

  it("refuses a Content-Length above its limit with 413 at once, without reading the body", async () => {
    const answer = await send(`/api${SPOOL_TEST_PATH}`, paper(MAX_FILE + SPOOL_FORM_BYTES + 1), {
      contentLength: true,
    });
    expect(answer.status).toBe(413);
    expect(answer.json.message).toBe(
      `The request body is larger than the limit of ${MAX_FILE + SPOOL_FORM_BYTES} bytes.`,
    );
    expect(answer.pulled).toBeLessThan(MB);
    expect(spooledLeft(t.runtime)).toEqual([]);
  });

  it("stops a chunked body above its limit with 413 and removes the partial file", async () => {
    const answer = await send(`/api${SPOOL_TEST_PATH}`, paper(MAX_FILE + 2 * SPOOL_FORM_BYTES));
    expect(answer.status).toBe(413);
    expect(answer.pulled).toBeLessThan(MAX_FILE + SPOOL_FORM_BYTES + 256 * 1024);
    expect(spooledLeft(t.runtime)).toEqual([]);
  });

  it("takes a file of exactly the route's file limit, and refuses a larger one with 413 naming it", async () => {
    const exact = await send(`/api${SPOOL_TEST_PATH}`, paper(MAX_FILE), { contentLength: true });
    expect(exact.status).toBe(200);
    expect(seen(exact).size).toBe(MAX_FILE);
    const over = await send(`/api${SPOOL_TEST_PATH}`, paper(MAX_FILE + 1), { contentLength: true });
    expect(over.status).toBe(413);
    expect(spooledLeft(t.runtime)).toEqual([]);
    // Within the body's limit (the form's room for fields), over the file's.
    const answer = await send(`/api${SPOOL_TEST_PATH}`, paper(MAX_FILE + 1000), { contentLength: true });
    expect(answer.status).toBe(413);
    expect(answer.json.message).toBe(`The file "report.pdf" is larger than the limit of ${MAX_FILE} bytes (16 MB).`);
    expect(spooledLeft(t.runtime)).toEqual([]);
  });

  it("removes the files of a form that fails later (two files, then too many fields)", async () => {
    const fields = Array.from({ length: 201 }, (_, i) => ({ name: `f${i}`, value: "x" }));
    const body = multipart([
      { name: "file", filename: "a.pdf", type: "application/pdf", size: 2 * MB },
      { name: "other", filename: "b.pdf", type: "application/pdf", size: 2 * MB },
      ...fields,
    ]);
    const answer = await send(`/api${SPOOL_TEST_PATH}`, body);
    expect(answer.status).toBe(413);
    expect(spooledLeft(t.runtime)).toEqual([]);
  });

  it("removes its files when the body is invalid (422) or the handler fails", async () => {
    const invalid = await send(
      `/api${SPOOL_TEST_PATH}`,
      multipart([
        { name: "title", value: "" },
        { name: "file", filename: "a.pdf", type: "application/pdf", size: MB },
      ]),
    );
    expect(invalid.status).toBe(422);
    expect(spooledLeft(t.runtime)).toEqual([]);
    const failed = await send(
      `/api${SPOOL_TEST_PATH}`,
      multipart([
        { name: "title", value: "throw" },
        { name: "file", filename: "a.pdf", type: "application/pdf", size: MB },
      ]),
    );
    expect(failed.status).toBe(409);
    expect(spooledLeft(t.runtime)).toEqual([]);
  });

  it("removes the partial file of a body that breaks off", async () => {
    await expect(send(`/api${SPOOL_TEST_PATH}`, paper(8 * MB), { failAfter: 3 * MB })).resolves.toMatchObject({
      status: expect.any(Number),
    });
    expect(spooledLeft(t.runtime)).toEqual([]);
  });

  it("removes the partial file when the client aborts the upload mid-file on a real connection", async () => {
    const server = serve({ fetch: t.app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    const { port } = server.address() as AddressInfo;
    try {
      const body = paper(12 * MB);
      const request = http.request({
        host: "127.0.0.1",
        port,
        method: "POST",
        path: `/api${SPOOL_TEST_PATH}`,
        headers: {
          "content-type": body.contentType,
          "content-length": String(body.length),
          authorization: `Bearer ${token}`,
        },
      });
      request.on("error", () => {});
      let sent = 0;
      for (const chunk of body.chunks()) {
        if (sent > 4 * MB) break;
        sent += chunk.byteLength;
        if (!request.write(chunk)) await new Promise((resolve) => request.once("drain", resolve));
      }
      // The partial file is on disk while the upload runs...
      await waitFor(() => spooledLeft(t.runtime).length === 1);
      request.destroy();
      // ...and gone once the server notices the abort.
      await waitFor(() => spooledLeft(t.runtime).length === 0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(spooledLeft(t.runtime)).toEqual([]);
  });

  it("takes the larger limit through the method override too (body, header), spooling the files", async () => {
    const size = 11 * MB;
    const inBody = await send(`/api${SPOOL_TEST_PATH}/1`, paper(size, [{ name: "_method", value: "PATCH" }]), {
      contentLength: true,
    });
    expect(inBody.status).toBe(200);
    expect(inBody.json.method).toBe("PATCH");
    expect(seen(inBody)).toMatchObject({ size, sha256: fileSha256(size), existedDuringHandler: true });
    const inHeader = await send(`/api${SPOOL_TEST_PATH}/1`, paper(size), {
      headers: { "x-http-method-override": "PATCH" },
    });
    expect(inHeader.status).toBe(200);
    expect(seen(inHeader).spooledPath).not.toBeNull();
    expect(spooledLeft(t.runtime)).toEqual([]);
  });

  it("moves a spooled file into storage with putFile: the same inode, nothing left in the spool", async () => {
    const size = 3 * MB;
    const answer = await send(`/api${STORE_TEST_PATH}`, paper(size, [{ name: "key", value: "papers/stored.pdf" }]));
    expect(answer.status).toBe(200);
    const stored = path.join(t.runtime.config.privateDir, "papers/stored.pdf");
    expect(fs.statSync(stored).ino).toBe(answer.json.inode);
    expect(answer.json.existsAfterMove).toBe(false);
    expect(createHash("sha256").update(fs.readFileSync(stored)).digest("hex")).toBe(fileSha256(size));
    expect(spooledLeft(t.runtime)).toEqual([]);
  });
});

describe("the API document", () => {
  it("says how large a spooling route's files may be", async () => {
    const document = (await (await t.app.request("/api/openapi.json")).json()) as {
      paths: Record<string, { post?: { requestBody?: { description?: string } } }>;
    };
    expect(document.paths[`/api${SPOOL_TEST_PATH}`]?.post?.requestBody?.description).toBe(
      `Each file may be up to ${MAX_FILE} bytes.`,
    );
    expect(document.paths[`/api${MEMORY_TEST_PATH}`]?.post?.requestBody?.description).toBeUndefined();
  });
});

describe("routes that do not spool", () => {
  it("keep their files in memory, with the same File interface", async () => {
    const size = 2 * MB + 5;
    const answer = await send(`/api${MEMORY_TEST_PATH}`, paper(size));
    expect(answer.status).toBe(200);
    expect(seen(answer)).toMatchObject({ name: "report.pdf", size, sha256: fileSha256(size), spooledPath: null });
    expect(spooledLeft(t.runtime)).toEqual([]);
  });

  it("keep UPLOAD_MAX_BYTES, declared or counted", async () => {
    for (const url of [`/api${MEMORY_TEST_PATH}`, "/api/dashboard/images"]) {
      const declared = await send(url, paper(11 * MB), { contentLength: true });
      expect(declared.status).toBe(413);
      expect(declared.json.message).toBe(`The request body is larger than the limit of ${10 * MB} bytes.`);
      expect(declared.pulled).toBeLessThan(MB);
      const counted = await send(url, paper(11 * MB));
      expect(counted.status).toBe(413);
      expect(counted.pulled).toBeLessThan(10 * MB + 256 * 1024);
    }
  });

  it("a POST that names another method keeps UPLOAD_MAX_BYTES at a spooling route's path", async () => {
    const answer = await send(`/api${SPOOL_TEST_PATH}/1`, paper(11 * MB), {
      contentLength: true,
      headers: { "x-http-method-override": "DELETE" },
    });
    expect(answer.status).toBe(413);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
