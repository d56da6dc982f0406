import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TWO_FACTOR_EXPIRED } from "../../core/auth/auth.service";
import { CODE_WRONG, SETUP_CODE_WRONG } from "../../core/auth/two-factor.service";
import { ADMIN_TWO_FACTOR_REQUIRED } from "../../server/api/http";
import { call, createTestContext, type TestContext } from "../support/app";
import { createUser, signIn } from "../support/factories";

/**
 * Two-factor sign-in (issue 34, decision 0075): an authenticator app (TOTP), confirmed with a first
 * code, ten single-use recovery codes; the API's two steps; a code accepted once; a challenge of
 * five minutes, single use; wrong codes toward the lockout; the admins' requirement; resets.
 */
let t: TestContext;
let clock = new Date("2026-11-20T10:00:00Z");

beforeAll(async () => {
  t = await createTestContext({}, { clock: () => clock });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const codeAt = (secret: string, at = clock) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({
    timestamp: at.getTime(),
  });
const later = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};

/** A member with two-factor sign-in on: their password, secret and recovery codes. */
async function withTwoFactor(role: "member" | "admin" = "member") {
  const { user, password, token } = await signIn(t.runtime.services, role);
  const setup = await call(t.app, "POST", "/api/dashboard/user/two-factor/setup", { token });
  expect(setup.status).toBe(200);
  const { secret, uri, qr_svg } = setup.json as { secret: string; uri: string; qr_svg: string };
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  expect(qr_svg).toMatch(/^<svg/);
  const wrong = await call(t.app, "POST", "/api/dashboard/user/two-factor/confirm", {
    token,
    json: { code: "000000" },
  });
  expect(wrong.status).toBe(422);
  expect(wrong.json?.errors).toEqual({ code: [SETUP_CODE_WRONG] });
  const confirmed = await call(t.app, "POST", "/api/dashboard/user/two-factor/confirm", {
    token,
    json: { code: codeAt(secret) },
  });
  expect(confirmed.status).toBe(200);
  const codes = (confirmed.json as { recovery_codes: string[] }).recovery_codes;
  expect(codes).toHaveLength(10);
  later(31);
  return { user, password, token, secret, codes };
}

const login = (email: string, password: string) => call(t.app, "POST", "/api/login", { json: { email, password } });
const second = (challenge: string, code: string) =>
  call(t.app, "POST", "/api/login/two-factor", { json: { challenge, code } });

describe("two-factor sign-in with an authenticator app", () => {
  it("asks for the second step after a right password, and gives the session for a right code, accepted once", async () => {
    const { user, password, secret } = await withTwoFactor();
    const first = await login(user.email, password);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({
      status: "two_factor_required",
      challenge: expect.any(String),
      expires_at: expect.any(String),
      // No passkeys on this account: the code alone (passkeys: tests/integration/passkeys.test.ts).
      passkey_options: null,
    });
    expect(first.headers.get("set-cookie")).toBeNull();
    const { challenge } = first.json as { challenge: string };

    const wrong = await second(challenge, "123456");
    expect(wrong.status).toBe(401);
    expect(wrong.json?.message).toBe(CODE_WRONG);
    const code = codeAt(secret);
    const ok = await second(challenge, code);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ status: "success", access_token: expect.any(String), user: { id: user.id } });
    // The challenge is spent, and the same code is not taken twice, even with a new challenge.
    expect((await second(challenge, code)).json?.message).toBe(TWO_FACTOR_EXPIRED);
    const again = (await login(user.email, password)).json as { challenge: string };
    expect((await second(again.challenge, code)).json?.message).toBe(CODE_WRONG);
    // Password alone (tools, the invitation's flow) is refused for this account.
    await expect(t.runtime.services.auth.login({ email: user.email, password }, { ip: "192.0.2.1" })).rejects.toThrow(
      /second factor/,
    );
  });

  it("lets a challenge last five minutes, and a recovery code sign in once", async () => {
    const { user, password, secret, codes } = await withTwoFactor();
    const { challenge } = (await login(user.email, password)).json as { challenge: string };
    later(5 * 60 + 1);
    expect((await second(challenge, codeAt(secret))).json?.message).toBe(TWO_FACTOR_EXPIRED);

    const fresh = (await login(user.email, password)).json as { challenge: string };
    expect((await second(fresh.challenge, codes[0].toUpperCase())).status).toBe(200);
    const next = (await login(user.email, password)).json as { challenge: string };
    expect((await second(next.challenge, codes[0])).status).toBe(401);
    const status = await call(t.app, "GET", "/api/dashboard/user/two-factor", {
      token: (await second(next.challenge, codes[1])).json?.access_token as string,
    });
    expect(status.json).toMatchObject({ two_factor: { enabled: true, recovery_codes_left: 8 } });
  });

  it("counts wrong codes toward the same lockout as wrong passwords", async () => {
    const { user, password } = await withTwoFactor();
    const { challenge } = (await login(user.email, password)).json as { challenge: string };
    for (let i = 0; i < 5; i++) expect((await second(challenge, "000000")).status).toBe(401);
    const locked = await second(challenge, "000000");
    expect(locked.status).toBe(429);
    expect((await login(user.email, password)).status).toBe(429);
    later(16 * 60);
  });

  it("leaves users without it signing in exactly as before", async () => {
    const { user, password } = await createUser(t.runtime.services, { role: "member" });
    const answer = await login(user.email, password);
    expect(answer.json).toMatchObject({ status: "success", access_token: expect.any(String) });
  });

  it("turns off with the password and a current code, and new recovery codes replace the old", async () => {
    const { token, password, secret, codes } = await withTwoFactor();
    const renewed = await call(t.app, "POST", "/api/dashboard/user/two-factor/recovery-codes", {
      token,
      json: { code: codeAt(secret) },
    });
    const fresh = (renewed.json as { recovery_codes: string[] }).recovery_codes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(codes[0]);
    const wrongPassword = await call(t.app, "POST", "/api/dashboard/user/two-factor/disable", {
      token,
      json: { password: "not it at all", code: fresh[0] },
    });
    expect(wrongPassword.json?.errors).toEqual({ password: ["The password is not right."] });
    const oldCode = await call(t.app, "POST", "/api/dashboard/user/two-factor/disable", {
      token,
      json: { password, code: codes[0] },
    });
    expect(oldCode.json?.errors).toEqual({ code: [CODE_WRONG] });
    const off = await call(t.app, "POST", "/api/dashboard/user/two-factor/disable", {
      token,
      json: { password, code: fresh[0] },
    });
    expect(off.status).toBe(200);
    expect((await call(t.app, "GET", "/api/dashboard/user/two-factor", { token })).json).toMatchObject({
      two_factor: { enabled: false },
    });
  });
});

describe("the admins' requirement and resets", () => {
  it("sends an admin without two-factor to set it up when the site asks for it (403 for the API)", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    await t.runtime.services.settings.update({ "security.admin_two_factor": "1" });
    const refused = await call(t.app, "GET", "/api/dashboard/news", { token: admin.token });
    expect(refused.status).toBe(403);
    expect(refused.json?.message).toBe(ADMIN_TWO_FACTOR_REQUIRED);
    // Setting it up is open to them, and then the admin area is.
    const setup = await call(t.app, "POST", "/api/dashboard/user/two-factor/setup", { token: admin.token });
    const { secret } = setup.json as { secret: string };
    await call(t.app, "POST", "/api/dashboard/user/two-factor/confirm", {
      token: admin.token,
      json: { code: codeAt(secret) },
    });
    expect((await call(t.app, "GET", "/api/dashboard/news", { token: admin.token })).status).toBe(200);
    await t.runtime.services.settings.update({ "security.admin_two_factor": "0" });
  });

  it("lets an admin reset another user's two-factor: audited, and mailed to them", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const { user, password } = await withTwoFactor();
    const reset = await call(t.app, "POST", `/api/dashboard/users/${user.id}/two-factor/reset`, { token: admin.token });
    expect(reset.status).toBe(200);
    expect((await login(user.email, password)).json).toMatchObject({ status: "success" });
    expect(
      (await call(t.app, "POST", `/api/dashboard/users/${user.id}/two-factor/reset`, { token: admin.token })).status,
    ).toBe(409);
    const mail = await t.database.db
      .selectFrom("mail_queue")
      .select(["to_address", "subject"])
      .where("purpose", "=", "two_factor_reset")
      .execute();
    expect(mail).toEqual([
      { to_address: user.email, subject: expect.stringContaining("Two-factor sign-in was reset") },
    ]);
    const audit = await t.database.db
      .selectFrom("audit_log")
      .select(["action", "actor_id", "entity_id"])
      .where("action", "in", ["two_factor_enabled", "two_factor_reset"])
      .where("entity_id", "=", String(user.id))
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      { action: "two_factor_enabled", actor_id: user.id, entity_id: String(user.id) },
      { action: "two_factor_reset", actor_id: admin.user.id, entity_id: String(user.id) },
    ]);
    const member = await signIn(t.runtime.services, "member");
    expect(
      (await call(t.app, "POST", `/api/dashboard/users/${user.id}/two-factor/reset`, { token: member.token })).status,
    ).toBe(403);
  });
});
