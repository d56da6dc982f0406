import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { sendForm } from "../../app/components/join/form-send";
import {
  ALREADY_REGISTERED_MAILED,
  ALREADY_REGISTERED_YOURS,
  captchaUnreachableText,
  KEPT_IN_FORM,
  SERVER_FAILED,
  sendFailed,
} from "../../core/join/join.values";

/**
 * What the public forms' modal says for each answer (decisions 0039, 0040), against a real HTTP
 * server answering as the site, or a proxy in front of it, would.
 */
type Answer = { status: number; headers?: Record<string, string>; body: string };
const ANSWERS: Record<string, Answer> = {
  "/captcha-down": {
    status: 503,
    headers: { "Retry-After": "60", "Content-Type": "application/json" },
    body: JSON.stringify({
      status: "error",
      message: captchaUnreachableText(),
      errors: { captcha_token: [captchaUnreachableText()] },
    }),
  },
  "/disk-full": {
    status: 507,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ status: "error", message: "The server has run out of storage space.", errors: {} }),
  },
  "/proxy-error": {
    status: 502,
    headers: { "Retry-After": "30", "Content-Type": "text/html" },
    body: "<h1>Bad gateway</h1>",
  },
  "/proxy-error-no-wait": { status: 504, headers: { "Content-Type": "text/html" }, body: "<h1>Timeout</h1>" },
  "/internal": {
    status: 500,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ status: "error", message: "Internal server error.", errors: {} }),
  },
  "/registered-mailed": {
    status: 422,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      status: "error",
      message: "The given data was invalid.",
      errors: { email: [ALREADY_REGISTERED_MAILED] },
    }),
  },
  "/registered-yours": {
    status: 422,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      status: "error",
      message: "The given data was invalid.",
      errors: { email: [ALREADY_REGISTERED_YOURS] },
    }),
  },
  "/limited": {
    status: 429,
    headers: { "Retry-After": "1800", "Content-Type": "application/json" },
    body: JSON.stringify({
      status: "error",
      message: "Too many requests from your network. Please try again in 30 minutes.",
      errors: {},
    }),
  },
};

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const answer =
        ANSWERS[request.url ?? ""] ??
        (request.url === "/waitlisted"
          ? { status: 200, body: '{"status":"success","registration":{"status":"waitlisted"}}' }
          : { status: 200, body: '{"status":"success"}' });
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => {
  // The form logs what the server said for whoever opens the console; not this test's output.
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("the modal's words for the server's answer", () => {
  it("says a registration exists already, with nothing to correct, and links the owner to My registrations (decision 0060)", async () => {
    expect(await sendForm(`${base}/registered-mailed`, {})).toEqual({
      sent: false,
      message: ALREADY_REGISTERED_MAILED,
      fields: {},
    });
    expect(await sendForm(`${base}/registered-yours`, {})).toEqual({
      sent: false,
      message: ALREADY_REGISTERED_YOURS,
      fields: {},
      link: { to: "/dashboard/registrations", label: "Open My registrations" },
    });
  });

  it("shows a 5xx's own message, with the wait it gives, not a generic failure", async () => {
    expect(await sendForm(`${base}/captcha-down`, {})).toEqual({
      sent: false,
      message: `The spam check could not be reached just now. Please try again in 1 minute. ${KEPT_IN_FORM}`,
      fields: {},
    });
    expect(await sendForm(`${base}/disk-full`, {})).toEqual({
      sent: false,
      message: `The server has run out of storage space. ${KEPT_IN_FORM}`,
      fields: {},
    });
    expect((await sendForm(`${base}/limited`, {})).sent).toBe(false);
    expect(await sendForm(`${base}/limited`, {})).toMatchObject({
      message: `Too many requests from your network. Please try again in 30 minutes. ${KEPT_IN_FORM}`,
    });
  });

  it("takes the wait from Retry-After when the answer has no message (a proxy's error page)", async () => {
    const proxied = await sendForm(`${base}/proxy-error`, {});
    expect(proxied).toEqual({ sent: false, message: sendFailed(30), fields: {} });
    expect(sendFailed(30)).toContain("please try again in 30 seconds.");
    expect(await sendForm(`${base}/proxy-error-no-wait`, {})).toMatchObject({ message: sendFailed() });
    expect(sendFailed()).toContain("please try again in a moment.");
  });

  it("says the server failed on a 500, and that the connection failed when there is no answer", async () => {
    expect(await sendForm(`${base}/internal`, {})).toMatchObject({ message: SERVER_FAILED });
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(await sendForm(`http://127.0.0.1:${port}/api/join`, {})).toMatchObject({ message: sendFailed() });
    expect(await sendForm(`${base}/accepted`, { company_name: "x" })).toEqual({ sent: true, registration: null });
    // A meeting's registration says the state it arrived in: the modal tells a waitlisted sender (decision 0052).
    expect(await sendForm(`${base}/waitlisted`, { company_name: "x" })).toEqual({
      sent: true,
      registration: { status: "waitlisted" },
    });
  });
});
