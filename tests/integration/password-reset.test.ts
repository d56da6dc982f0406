import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RESET_REQUESTED } from "../../core/accounts/password-reset.schema";
import { RESET_TOKEN_SECONDS } from "../../core/accounts/password-reset.service";
import { call, createTestContext, type TestContext } from "../support/app";
import { createUser, PASSWORD } from "../support/factories";
import { mailText, type ReceivedMail, startSmtpServer, tokenIn } from "../support/smtp";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestContext;
let now = new Date("2026-11-20T10:00:00Z");
const clock = () => now;
const NEW_PASSWORD = "harbour-light-7-knots";

const linkIn = (mail: ReceivedMail | undefined) => tokenIn(mail, "/reset-password");

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url }, { clock });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  now = new Date(now.getTime() + 2 * 3600_000);
  smtp.received.length = 0;
  await t.database.db.deleteFrom("rate_limits").execute();
});

async function requestLink(email: string) {
  const res = await call(t.app, "POST", "/api/forgot-password", { json: { email } });
  await t.runtime.services.mail.deliverDue();
  return res;
}

describe("forgotten password", () => {
  it("builds the link from BASE_URL whatever Host the request names, and mails no deactivated account", async () => {
    const { user } = await createUser(t.runtime.services);
    await call(t.app, "POST", "/api/forgot-password", {
      json: { email: user.email },
      headers: { host: "evil.example", "x-forwarded-host": "evil.example" },
    });
    await t.runtime.services.mail.deliverDue();
    const text = mailText(smtp.received[0]);
    expect(text).toContain(`${t.runtime.config.baseUrl.origin}/reset-password?token=`);
    expect(text).not.toContain("evil.example");

    const off = await createUser(t.runtime.services);
    await t.database.db.updateTable("users").set({ is_active: 0 }).where("id", "=", off.user.id).execute();
    const unknown = await requestLink("nobody-at-all@example.org");
    const deactivated = await requestLink(off.user.email);
    expect(deactivated.json).toEqual(unknown.json);
    expect(smtp.received).toHaveLength(1);
  });

  it("answers the same for a known and an unknown address, and mails a link only to the account", async () => {
    const { user } = await createUser(t.runtime.services);
    const known = await requestLink(user.email.toUpperCase());
    const unknown = await requestLink("nobody-here@example.org");
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.json).toEqual(unknown.json);
    expect(known.json).toEqual({ status: "success", message: RESET_REQUESTED });
    expect(smtp.received.map((m) => m.to[0])).toEqual([user.email]);
    expect(linkIn(smtp.received[0])).toBeTruthy();
  });

  it("resets once with a valid link, ends every session, and the old password stops working", async () => {
    const { user } = await createUser(t.runtime.services);
    const session = await t.runtime.services.auth.login({ email: user.email, password: PASSWORD }, { ip: "10.0.0.1" });
    await requestLink(user.email);
    const token = linkIn(smtp.received[0]);
    const res = await call(t.app, "POST", "/api/reset-password", {
      json: { token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(await t.runtime.services.auth.authenticate(session.token)).toBeNull();
    const oldLogin = await call(t.app, "POST", "/api/login", { json: { email: user.email, password: PASSWORD } });
    expect(oldLogin.status).toBe(401);
    const newLogin = await call(t.app, "POST", "/api/login", { json: { email: user.email, password: NEW_PASSWORD } });
    expect(newLogin.status).toBe(200);
    const again = await call(t.app, "POST", "/api/reset-password", {
      json: { token, password: "another-good-pass-99", password_confirmation: "another-good-pass-99" },
    });
    expect(again.status).toBe(422);
    expect(again.json?.errors).toEqual({ token: ["This link is not valid any more. Ask for a new one."] });
  });

  it("refuses an expired link, a wrong token, a superseded link and a deactivated account's link", async () => {
    const { user } = await createUser(t.runtime.services);
    await requestLink(user.email);
    const first = linkIn(smtp.received[0]);
    now = new Date(now.getTime() + 2 * 3600_000);
    await requestLink(user.email);
    const second = linkIn(smtp.received[1]);
    const attempt = (token: string | undefined) =>
      call(t.app, "POST", "/api/reset-password", {
        json: { token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      });
    expect((await attempt(first)).status).toBe(422); // superseded by the second link
    expect((await attempt("not-a-token")).status).toBe(422);
    expect((await attempt(undefined)).status).toBe(422);
    now = new Date(now.getTime() + (RESET_TOKEN_SECONDS + 1) * 1000);
    expect((await attempt(second)).status).toBe(422); // expired

    const other = await createUser(t.runtime.services);
    await requestLink(other.user.email);
    const token = linkIn(smtp.received.at(-1) as ReceivedMail);
    await t.database.db.updateTable("users").set({ is_active: 0 }).where("id", "=", other.user.id).execute();
    expect((await attempt(token)).status).toBe(422);
  });

  it("applies the password rules with field messages", async () => {
    const { user } = await createUser(t.runtime.services);
    await requestLink(user.email);
    const token = linkIn(smtp.received[0]);
    const attempt = (password: string, password_confirmation = password) =>
      call(t.app, "POST", "/api/reset-password", { json: { token, password, password_confirmation } });
    expect((await attempt("short")).json?.errors).toEqual({
      password: ["The new password must be at least 10 characters."],
    });
    expect((await attempt("qwertyuiop")).json?.errors).toEqual({
      password: ["This password is too common. Choose another one."],
    });
    expect((await attempt(user.email)).json?.errors).toEqual({
      password: ["The password must not be your e-mail address."],
    });
    expect((await attempt(NEW_PASSWORD, "something-else-1")).json?.errors).toEqual({
      password_confirmation: ["The passwords do not match."],
    });
    // The link survives refused attempts.
    expect((await attempt(NEW_PASSWORD)).status).toBe(200);
  });

  it("limits requests per address and per IP address, and checks the address", async () => {
    const { user } = await createUser(t.runtime.services);
    for (let i = 0; i < 3; i += 1) expect((await requestLink(user.email)).status).toBe(200);
    const limited = await requestLink(user.email);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeTruthy();
    // Per IP: ten an hour from one address, whatever e-mail addresses it tries.
    await t.database.db.deleteFrom("rate_limits").execute();
    for (let i = 0; i < 10; i += 1) expect((await requestLink(`someone-${i}@example.org`)).status).toBe(200);
    const fromIp = await requestLink("someone-else@example.org");
    expect(fromIp.status).toBe(429);
    expect(fromIp.headers.get("retry-after")).toBeTruthy();
    expect((await call(t.app, "POST", "/api/forgot-password", { json: {} })).json?.errors).toEqual({
      email: ["Email is required."],
    });
    expect((await call(t.app, "POST", "/api/forgot-password", { json: { email: "x@" } })).status).toBe(422);
  });
});
