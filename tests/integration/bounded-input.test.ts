import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORM_LIMITS } from "../../lib/request-body";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";

/**
 * Nothing is read before we know the caller may send it (ARCHITECTURE rule 10):
 * a route that refuses the caller answers without pulling the body, the method
 * override decides from the route table before it reads, and forms have limits
 * on parts, fields, files and field names.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const MB = 1024 * 1024;

/** A multipart body of `size` bytes produced on demand, counting what the server pulled. */
function countingMultipart(size = 9 * MB, fields: Record<string, string> = {}) {
  const boundary = "----masthead-bounded-input";
  const head = `${Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join(
      "",
    )}--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`;
  const chunk = new Uint8Array(64 * 1024).fill(120);
  let sent = 0;
  const pulled = { bytes: 0 };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const bytes = new TextEncoder().encode(head);
      pulled.bytes += bytes.byteLength;
      controller.enqueue(bytes);
    },
    pull(controller) {
      if (sent >= size) {
        controller.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
        controller.close();
        return;
      }
      sent += chunk.byteLength;
      pulled.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { body, pulled, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function post(url: string, upload: ReturnType<typeof countingMultipart>, headers: Record<string, string> = {}) {
  const response = await t.app.request(url, {
    method: "POST",
    headers: { "content-type": upload.contentType, ...headers },
    body: upload.body,
    // @ts-expect-error Node's fetch needs duplex for a streamed body
    duplex: "half",
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe("a caller the route refuses", () => {
  it("gets 401 for an anonymous 9 MB upload without its body being read", async () => {
    const upload = countingMultipart();
    const answer = await post("/api/dashboard/news", upload);
    expect(answer.status).toBe(401);
    expect(upload.pulled.bytes).toBeLessThan(MB);
  });

  it("gets 401 when _method is in the body of a POST to a path with only PATCH/DELETE routes", async () => {
    const upload = countingMultipart(undefined, { _method: "PATCH", title: "Hijack" });
    const answer = await post("/api/dashboard/news/1", upload);
    expect(answer.status).toBe(401);
    expect(upload.pulled.bytes).toBeLessThan(MB);
  });

  it("gets 403 as a member, also when the override is named in the header", async () => {
    const member = await signIn(t.runtime.services, "member");
    const bearer = { authorization: `Bearer ${member.token}` };
    const inBody = countingMultipart(undefined, { _method: "PATCH" });
    expect((await post("/api/dashboard/news/1", inBody, bearer)).status).toBe(403);
    expect(inBody.pulled.bytes).toBeLessThan(MB);
    const inHeader = countingMultipart();
    expect(
      (await post("/api/dashboard/news/1", inHeader, { ...bearer, "x-http-method-override": "PATCH" })).status,
    ).toBe(403);
    expect(inHeader.pulled.bytes).toBeLessThan(MB);
    const inQuery = countingMultipart();
    expect((await post("/api/dashboard/news/1?_method=DELETE", inQuery, bearer)).status).toBe(403);
    expect(inQuery.pulled.bytes).toBeLessThan(MB);
  });
});

describe("the method override", () => {
  it("still turns an admin's POST with _method (body, header or query) into the route's method", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const created = await call(t.app, "POST", "/api/dashboard/news", {
      token: admin.token,
      json: { title: "Override me", content: "<p>One</p>" },
    });
    expect(created.status).toBe(201);
    const id = (created.json as { post: { id: number } }).post.id;
    const viaBody = await call(t.app, "POST", `/api/dashboard/news/${id}`, {
      token: admin.token,
      form: { title: "Overridden in the body", content: "<p>Two</p>", _method: "PATCH" },
      multipart: true,
    });
    expect(viaBody.status).toBe(200);
    expect((viaBody.json as { post: { title: string } }).post.title).toBe("Overridden in the body");
    const viaHeader = await call(t.app, "POST", `/api/dashboard/news/${id}`, {
      token: admin.token,
      json: { title: "Overridden in the header", content: "<p>Three</p>" },
      headers: { "x-http-method-override": "PATCH" },
    });
    expect((viaHeader.json as { post: { title: string } }).post.title).toBe("Overridden in the header");
    const viaQuery = await call(t.app, "POST", `/api/dashboard/news/${id}?_method=DELETE`, { token: admin.token });
    expect(viaQuery.status).toBe(200);
    expect(
      (await call(t.app, "GET", `/api/getPostBySlug/${(created.json as { post: { slug: string } }).post.slug}`)).status,
    ).toBe(404);
  });

  it("refuses a _method that no route at the path answers to with 405, never doing the POST instead", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const answer = await call(t.app, "POST", "/api/dashboard/news", {
      token: admin.token,
      json: { _method: "DELETE", title: "Must not be created", content: "<p>x</p>" },
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toContain("POST");
    const list = await call(t.app, "GET", "/api/dashboard/news?search=created", { token: admin.token });
    expect(JSON.stringify(list.json)).not.toContain("Must not be created");
  });
});

describe("encodings", () => {
  it("refuses JSON where the route takes only a file upload (415), and still takes JSON elsewhere", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const image = await call(t.app, "POST", "/api/dashboard/images", { token: admin.token, json: { image: "x" } });
    expect(image.status).toBe(415);
    expect(image.json?.message).toBe("Send the body as multipart form data.");
    const member = await signIn(t.runtime.services, "member");
    const avatar = await call(t.app, "POST", "/api/settings/profile/updateAvatar", {
      token: member.token,
      form: { avatar: "x" },
    });
    expect(avatar.status).toBe(415);
    const login = await call(t.app, "POST", "/api/login", { json: { email: "", password: "" } });
    expect(login.status).toBe(422);
  });
});

describe("form limits", () => {
  it("stops a chunked upload at UPLOAD_MAX_BYTES with 413, without holding it in memory first", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const upload = countingMultipart(11 * MB);
    const answer = await post("/api/dashboard/images", upload, { authorization: `Bearer ${admin.token}` });
    expect(answer.status).toBe(413);
    expect(upload.pulled.bytes).toBeLessThan(10 * MB + 256 * 1024);
  });

  it("refuses 150 000 empty parts with 413 before storing anything", async () => {
    const boundary = "----many-parts";
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\n\r\n`;
    const body = `${part.repeat(150_000)}--${boundary}--\r\n`;
    const response = await t.app.request("/api/join", {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { message: string }).message).toMatch(
      /^The form has more than \d+ (parts|fields)\.$/,
    );
    const stored = await t.runtime.database.db
      .selectFrom("join_requests")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(0);
  });

  it("refuses too many urlencoded fields and an over-long field name with 413", async () => {
    const fields = new URLSearchParams();
    for (let i = 0; i <= FORM_LIMITS.fields; i++) fields.append(`f${i}`, "1");
    const many = await t.app.request("/api/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: fields.toString(),
    });
    expect(many.status).toBe(413);
    const form = new FormData();
    form.append("e".repeat(5000), "x");
    const long = await t.app.request("/api/join", { method: "POST", body: form });
    expect(long.status).toBe(413);
  });
});
