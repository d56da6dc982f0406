import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./server";

/**
 * Refused uploads reach the client as answers (issue 30 point 1): the server answers, half-closes
 * and reads and discards what the client still sends for a bounded time (lingering close), so the
 * client's write never meets a reset before it has read the 401 or 413; a client that asks first
 * (`Expect: 100-continue`) gets the refusal without sending the body. Measured with Node's fetch
 * (undici) and node:http against the built server.
 */
const MB = 1024 * 1024;
const ADMIN = { email: "admin@example.org", password: "a long admin password" };
let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
});
afterAll(async () => {
  await server?.stop();
  server?.cleanup();
});

const BOUNDARY = "----masthead-refused";
/** A multipart body of `size` bytes carrying one file part named `field`. */
function multipartOf(
  size: number,
  field: string,
  filename: string,
  type: string,
  head = Buffer.alloc(0),
): Uint8Array<ArrayBuffer> {
  const open = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const close = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const filler = Math.max(0, size - open.byteLength - close.byteLength - head.byteLength);
  return new Uint8Array(Buffer.concat([open, head, Buffer.alloc(filler, 0x41), close]));
}
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
/** The PNG signature and an IHDR chunk: an 80-byte "avatar". */
const PNG_HEAD = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");

type Outcome = { status: number; message: unknown } | { error: string };

/** One POST with Node's fetch: the status and the answer's message as the client read them, or the socket error. */
async function postWithFetch(path: string, body: Uint8Array<ArrayBuffer> | FormData): Promise<Outcome> {
  try {
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      // A FormData says its own type (and boundary), as a browser's upload does.
      headers: body instanceof FormData ? {} : { "content-type": MULTIPART },
      body,
    });
    const answer = (await response.json()) as { message?: unknown };
    return { status: response.status, message: answer.message };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { error: cause?.code ?? cause?.message ?? String(error) };
  }
}

/** `count` tries, `concurrency` at a time. */
async function tries(count: number, concurrency: number, one: () => Promise<Outcome>): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let done = 0; done < count; done += concurrency) {
    outcomes.push(...(await Promise.all(Array.from({ length: Math.min(concurrency, count - done) }, one))));
  }
  return outcomes;
}

function summary(outcomes: Outcome[]) {
  const errors = outcomes.filter((outcome) => "error" in outcome);
  return { errors: errors.length, codes: [...new Set(errors.map((outcome) => (outcome as { error: string }).error))] };
}

describe("refused uploads are answered, never reset, on the built server", () => {
  it("answers 50 anonymous avatar uploads (80 bytes) with a 401 the client reads", async () => {
    const png = new Uint8Array(80);
    png.set(PNG_HEAD);
    const outcomes = await tries(50, 1, () => {
      // As a page's script sends it: a FormData with the file, which fetch streams part by part.
      const body = new FormData();
      body.append("avatar", new Blob([png], { type: "image/png" }), "me.png");
      return postWithFetch("/api/settings/profile/updateAvatar", body);
    });
    const { errors, codes } = summary(outcomes);
    console.log(`anonymous small avatar upload: ${errors} socket errors of 50 ${codes.join(", ")}`);
    expect(outcomes).toEqual(Array.from({ length: 50 }, () => ({ status: 401, message: "Unauthenticated." })));
  });

  it("answers 50 anonymous 10 MB uploads to a signed-in route with a 401 the client reads", async () => {
    const file = new Blob([new Uint8Array(10 * MB - 1024)], { type: "image/jpeg" });
    const outcomes = await tries(50, 1, () => {
      const body = new FormData();
      body.append("image", file, "big.jpg");
      return postWithFetch("/api/dashboard/news", body);
    });
    const { errors, codes } = summary(outcomes);
    console.log(`anonymous 10 MB upload: ${errors} socket errors of 50 ${codes.join(", ")}`);
    expect(outcomes).toEqual(Array.from({ length: 50 }, () => ({ status: 401, message: "Unauthenticated." })));
  });

  it("answers 50 uploads of 50 MB, past the limit, with a 413 the client reads", async () => {
    const file = new Blob([new Uint8Array(50 * MB)], { type: "image/jpeg" });
    const outcomes = await tries(50, 1, () => {
      const body = new FormData();
      body.append("image", file, "huge.jpg");
      return postWithFetch("/api/dashboard/news", body);
    });
    const { errors, codes } = summary(outcomes);
    console.log(`50 MB upload past the limit: ${errors} socket errors of 50 ${codes.join(", ")}`);
    expect(outcomes).toEqual(
      Array.from({ length: 50 }, () => ({
        status: 413,
        message: `The request body is larger than the limit of ${10 * MB} bytes.`,
      })),
    );
  });
});

type Asked = { status: number; continued: boolean; body: string };

/**
 * A POST with `Expect: 100-continue` through node:http: the body (`size` bytes) is sent only once
 * the server says 100 Continue; a final answer before that ends the request unsent.
 */
function askFirst(path: string, size: number, headers: Record<string, string>): Promise<Asked> {
  return new Promise((resolve, reject) => {
    let continued = false;
    const request = http.request(`${server.url}${path}`, {
      method: "POST",
      headers: { ...headers, "content-length": String(size), expect: "100-continue" },
    });
    request.on("continue", () => {
      continued = true;
      request.end(Buffer.alloc(size, 0x20));
    });
    request.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () => {
        if (!continued) request.destroy();
        resolve({ status: response.statusCode ?? 0, continued, body });
      });
    });
    request.on("error", reject);
    request.flushHeaders();
  });
}

describe("Expect: 100-continue on the built server", () => {
  it("refuses an anonymous 10 MB upload before its body is sent, and lets a signed-in caller send", async () => {
    const refused = await askFirst("/api/dashboard/news", 10 * MB - 1024, { "content-type": MULTIPART });
    expect(refused).toMatchObject({ status: 401, continued: false });
    expect(JSON.parse(refused.body)).toMatchObject({ message: "Unauthenticated." });

    const tooLarge = await askFirst("/api/dashboard/news", 50 * MB, { "content-type": MULTIPART });
    expect(tooLarge).toMatchObject({ status: 413, continued: false });

    const login = await fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const json = JSON.stringify({ name: "Asked first" });
    const allowed = await new Promise<Asked>((resolve, reject) => {
      let continued = false;
      const request = http.request(`${server.url}/api/dashboard/papers-categories`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(json)),
          expect: "100-continue",
        },
      });
      request.on("continue", () => {
        continued = true;
        request.end(json);
      });
      request.on("response", (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, continued, body }));
      });
      request.on("error", reject);
      request.flushHeaders();
    });
    expect(allowed).toMatchObject({ status: 201, continued: true });
    expect(JSON.parse(allowed.body)).toMatchObject({ category: { name: "Asked first" } });
  });
});

describe("a refused upload is answered and logged like any other answer", () => {
  const logged = async (requestId: string) => {
    // pino writes asynchronously: give the line a moment to reach stdout.
    for (let wait = 0; wait < 40 && !server.logs().some((line) => line.req_id === requestId); wait++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return server.logs().filter((line) => line.req_id === requestId);
  };

  it("sends the 413 of a declared size with the security headers, Cache-Control, a log line and an upload_rejected event", async () => {
    const body = multipartOf(11 * MB, "image", "big.jpg", "image/jpeg");
    const response = await fetch(`${server.url}/api/dashboard/news`, {
      method: "POST",
      headers: { "content-type": MULTIPART },
      body,
    });
    expect(response.status).toBe(413);
    await response.arrayBuffer();
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const requestId = response.headers.get("x-request-id") ?? "";
    expect(requestId).not.toBe("");
    const lines = await logged(requestId);
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: "request", method: "POST", path: "/api/dashboard/news", status: 413 }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        event: "upload_rejected",
        reason: "too_large",
        status: 413,
        path: "/api/dashboard/news",
        bytes: 11 * MB,
        ip: "127.0.0.1",
      }),
    );
  });

  it("logs upload_rejected for an anonymous upload (unauthenticated) and a body the file route does not take (type)", async () => {
    const anonymous = await fetch(`${server.url}/api/settings/profile/updateAvatar`, {
      method: "POST",
      headers: { "content-type": MULTIPART },
      body: multipartOf(280, "avatar", "me.png", "image/png", PNG_HEAD),
    });
    expect(anonymous.status).toBe(401);
    const anonymousLines = await logged(anonymous.headers.get("x-request-id") ?? "");
    expect(anonymousLines).toContainEqual(
      expect.objectContaining({ event: "upload_rejected", reason: "unauthenticated", status: 401, bytes: 280 }),
    );

    const login = await fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const notMultipart = await fetch(`${server.url}/api/settings/profile/updateAvatar`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ avatar: "me.png" }),
    });
    expect(notMultipart.status).toBe(415);
    const typeLines = await logged(notMultipart.headers.get("x-request-id") ?? "");
    const event = typeLines.find((line) => line.event === "upload_rejected");
    expect(event).toMatchObject({ reason: "type", status: 415, path: "/api/settings/profile/updateAvatar" });
    expect(typeof event?.user).toBe("number");

    const notAnImage = await fetch(`${server.url}/api/settings/profile/updateAvatar`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": MULTIPART },
      body: multipartOf(300, "avatar", "me.png", "image/png"),
    });
    expect(notAnImage.status).toBe(415);
    const imageLines = await logged(notAnImage.headers.get("x-request-id") ?? "");
    expect(imageLines).toContainEqual(
      expect.objectContaining({ event: "upload_rejected", reason: "type", status: 415, fields: ["avatar"] }),
    );

    const untitled = await fetch(`${server.url}/api/dashboard/news`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": MULTIPART },
      body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\n\r\n--${BOUNDARY}--\r\n`,
    });
    expect(untitled.status).toBe(422);
    const invalidLines = await logged(untitled.headers.get("x-request-id") ?? "");
    const invalid = invalidLines.find((line) => line.event === "upload_rejected");
    expect(invalid).toMatchObject({ reason: "invalid", status: 422 });
    expect(invalid?.fields).toContain("title");
  });
});

describe("an upload a page's guard turns away", () => {
  it("is logged as upload_rejected (unauthenticated) when an anonymous visitor posts a multipart form to a members' page", async () => {
    const body = new FormData();
    body.append("intent", "avatar");
    body.append("avatar", new Blob([PNG_HEAD], { type: "image/png" }), "me.png");
    const response = await fetch(`${server.url}/dashboard/user-settings`, {
      method: "POST",
      headers: { origin: server.url },
      body,
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toContain("/login?redirect=");
    const requestId = response.headers.get("x-request-id") ?? "";
    for (let wait = 0; wait < 40 && !server.logs().some((line) => line.req_id === requestId); wait++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(server.logs().filter((line) => line.req_id === requestId)).toContainEqual(
      expect.objectContaining({
        event: "upload_rejected",
        reason: "unauthenticated",
        status: 401,
        method: "POST",
        path: "/dashboard/user-settings",
      }),
    );
  });
});
