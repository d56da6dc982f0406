import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../../scripts/bench/http";
import { NUMBER_MARK, resolveTarget, TARGETS } from "../../scripts/bench/targets";
import { luaScript } from "../../scripts/bench/wrk";

/**
 * The bench's registration row (issue 32) sends a registration per request, each with an address
 * of its own (a second one of the same address is refused): the checks' requests through
 * rawRequest, and wrk's through the Lua script that numbers the body.
 */
const received: string[] = [];
let server: http.Server;
let origin: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      received.push(body);
      // The Content-Length sent must be the numbered body's.
      res.end(String(Number(req.headers["content-length"]) === Buffer.byteLength(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const registration = TARGETS.find((t) => t.path === "/api/join" && t.numbered);

describe("the bench's numbered registration row", () => {
  it("is measured with '5 000 registrations' and numbers each body it sends", async () => {
    expect(registration?.name).toContain("5 000 registrations");
    const request = resolveTarget(registration as NonNullable<typeof registration>, { token: "t" });
    expect(request.body).toContain(NUMBER_MARK);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await rawRequest(origin, request)).body.toString("utf8"));
    expect(answers).toEqual(["true", "true", "true"]);
    const emails = received.map((body) => (JSON.parse(body) as { email: string }).email);
    expect(new Set(emails).size).toBe(3);
    for (const email of emails) expect(email).toMatch(/^bench-[a-z0-9]+-\d+@registrations\.example$/);
  });

  it("gives wrk a script that builds each request's body with a new number", () => {
    const request = resolveTarget(registration as NonNullable<typeof registration>, { token: "t" });
    const script = luaScript([request]);
    expect(script).toContain("function request()");
    expect(script).toContain("wrk.format(nil, nil, nil, numbered(template))");
    expect(script).not.toContain("wrk.body =");
    // A fixed body stays prebuilt, as before.
    const fixed = luaScript([{ ...request, numbered: false }]);
    expect(fixed).toContain("wrk.body =");
    expect(fixed).not.toContain("function request()");
    // A new tag for every script, so that a second run on the same data sends new addresses.
    const tag = (s: string) => /local tag = "([^"]+)"/.exec(s)?.[1];
    expect(tag(script)).toBeTruthy();
    expect(tag(luaScript([request]))).not.toBe(tag(script));
  });
});
