import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSKEY_SIGN_IN_FAILED, TWO_FACTOR_EXPIRED } from "../../core/auth/auth.values";
import { PASSKEY_NEEDS_APP, PASSKEY_NOT_CHECKED, PASSKEY_TAKEN, PASSKEYS_MAX } from "../../core/auth/passkeys.service";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { softAuthenticator } from "../support/passkey-authenticator";

/**
 * Passkeys as a second factor (issue 34, decision 0076), through the API with a software
 * authenticator that builds real WebAuthn answers: added beside the app, checked against their
 * challenge, origin and site; used at the sign-in's second step, once per challenge; wrong ones
 * toward the lockout; gone with two-factor.
 */
let t: TestContext;
let clock = new Date("2026-11-21T09:00:00Z");

beforeAll(async () => {
  t = await createTestContext({}, { clock: () => clock });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const later = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};
type Options = { challenge: string; allowCredentials?: { id: string }[]; rp?: { id: string } };

/** A member (or admin) with the authenticator app on, signed in. */
async function withApp(role: "member" | "admin" = "member") {
  const signedIn = await signIn(t.runtime.services, role);
  const { secret } = await t.runtime.services.twoFactor.beginSetup(signedIn.user);
  const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.getTime() });
  await t.runtime.services.twoFactor.confirmSetup(signedIn.user, code);
  later(31);
  return { ...signedIn, secret };
}

async function options(token: string) {
  const answer = await call(t.app, "POST", "/api/dashboard/user/passkeys/options", { token });
  expect(answer.status).toBe(200);
  return (answer.json as { options: Options }).options;
}

/** Adds a passkey with a new software authenticator. */
async function addPasskey(token: string, name?: string) {
  const key = softAuthenticator(ORIGIN, "localhost");
  const added = await call(t.app, "POST", "/api/dashboard/user/passkeys", {
    token,
    json: { name, response: key.register(await options(token)) },
  });
  expect(added.status).toBe(200);
  return { key, passkey: (added.json as { passkey: { id: number; name: string } }).passkey };
}

const login = (email: string, password: string) => call(t.app, "POST", "/api/login", { json: { email, password } });
const withPasskey = (challenge: string, passkey: unknown) =>
  call(t.app, "POST", "/api/login/two-factor", { json: { challenge, passkey } });

describe("adding passkeys", () => {
  it("refuses a passkey added already, to this account or another, with 409 (the unique index decides)", async () => {
    const { token } = await withApp();
    const key = softAuthenticator(ORIGIN, "localhost");
    const first = await call(t.app, "POST", "/api/dashboard/user/passkeys", {
      token,
      json: { response: key.register(await options(token)) },
    });
    expect(first.status).toBe(200);
    const again = await call(t.app, "POST", "/api/dashboard/user/passkeys", {
      token,
      json: { response: key.register(await options(token)) },
    });
    expect(again.status).toBe(409);
    expect(again.json?.message).toBe(PASSKEY_TAKEN);
    const other = await withApp();
    const elsewhere = await call(t.app, "POST", "/api/dashboard/user/passkeys", {
      token: other.token,
      json: { response: key.register(await options(other.token)) },
    });
    expect(elsewhere.status).toBe(409);
  });

  it("is refused until the authenticator app is on", async () => {
    const { token } = await signIn(t.runtime.services, "member");
    const answer = await call(t.app, "POST", "/api/dashboard/user/passkeys/options", { token });
    expect(answer.status).toBe(409);
    expect(answer.json?.message).toBe(PASSKEY_NEEDS_APP);
  });

  it("keeps a passkey whose answer checks against its options, named, listed and audited", async () => {
    const { token, user } = await withApp();
    const listed = await call(t.app, "GET", "/api/dashboard/user/passkeys", { token });
    expect(listed.json).toEqual({ status: "success", available: true, passkeys: [] });
    const given = await options(token);
    expect(given.rp).toMatchObject({ id: "localhost" });
    const key = softAuthenticator(ORIGIN, "localhost");
    const added = await call(t.app, "POST", "/api/dashboard/user/passkeys", {
      token,
      json: { name: " Laptop ", response: key.register(given) },
    });
    expect(added.status).toBe(200);
    expect(added.json).toMatchObject({ passkey: { name: "Laptop", last_used_at: null } });
    // The same answer again: its challenge is spent.
    const replayed = await call(t.app, "POST", "/api/dashboard/user/passkeys", {
      token,
      json: { response: key.register(given) },
    });
    expect(replayed.status).toBe(422);
    expect(replayed.json?.errors).toEqual({ response: [PASSKEY_NOT_CHECKED] });
    // Unnamed, it is numbered; the options now exclude the keys already added.
    const second = await addPasskey(token);
    expect(second.passkey.name).toBe("Passkey 2");
    const third = (await options(token)) as Options & { excludeCredentials: { id: string }[] };
    expect(third.excludeCredentials.map((c) => c.id)).toEqual([key.id, second.key.id]);
    const after = await call(t.app, "GET", "/api/dashboard/user/passkeys", { token });
    expect((after.json as { passkeys: { name: string }[] }).passkeys.map((p) => p.name)).toEqual([
      "Laptop",
      "Passkey 2",
    ]);
    const audit = await t.runtime.services.audit.history("user", user.id);
    expect(audit.map((row) => row.summary)).toEqual(
      expect.arrayContaining(['Added the passkey "Laptop"', 'Added the passkey "Passkey 2"']),
    );
  });

  it("refuses an answer made for another site, another origin or another challenge, and one given late", async () => {
    const { token } = await withApp();
    const key = softAuthenticator(ORIGIN, "localhost");
    for (const response of [
      key.register(await options(token), { origin: "https://evil.example" }),
      key.register(await options(token), { rpID: "evil.example" }),
      key.register({ challenge: "c29tZXRoaW5nLWVsc2U" }),
    ]) {
      const refused = await call(t.app, "POST", "/api/dashboard/user/passkeys", { token, json: { response } });
      expect(refused.status).toBe(422);
      expect(refused.json?.errors).toEqual({ response: [PASSKEY_NOT_CHECKED] });
    }
    const given = await options(token);
    later(5 * 60 + 1);
    const late = await call(t.app, "POST", "/api/dashboard/user/passkeys", {
      token,
      json: { response: key.register(given) },
    });
    expect(late.status).toBe(422);
    const garbled = await call(t.app, "POST", "/api/dashboard/user/passkeys", {
      token,
      json: { response: { id: "not base64url!", type: "public-key" } },
    });
    expect(garbled.status).toBe(422);
    const listed = await call(t.app, "GET", "/api/dashboard/user/passkeys", { token });
    expect((listed.json as { passkeys: unknown[] }).passkeys).toEqual([]);
  });

  it(`stops at ${PASSKEYS_MAX} passkeys, and removes one of one's own only`, async () => {
    const { token } = await withApp();
    const added = [];
    for (let i = 0; i < PASSKEYS_MAX; i++) added.push(await addPasskey(token, `Key ${i + 1}`));
    const more = await call(t.app, "POST", "/api/dashboard/user/passkeys/options", { token });
    expect(more.status).toBe(409);
    expect(more.json?.message).toBe(`You have ${PASSKEYS_MAX} passkeys already: remove one first.`);
    const other = await withApp();
    const notTheirs = await call(t.app, "DELETE", `/api/dashboard/user/passkeys/${added[0].passkey.id}`, {
      token: other.token,
    });
    expect(notTheirs.status).toBe(404);
    const removed = await call(t.app, "DELETE", `/api/dashboard/user/passkeys/${added[0].passkey.id}`, { token });
    expect(removed.status).toBe(200);
    expect((await call(t.app, "POST", "/api/dashboard/user/passkeys/options", { token })).status).toBe(200);
  });
});

describe("signing in with a passkey", () => {
  it("offers the account's passkeys at the second step and opens the session for a right answer, once", async () => {
    // With the app only, the step has no passkey options.
    const appOnly = await withApp();
    const codeOnly = (await login(appOnly.user.email, appOnly.password)).json as Record<string, unknown>;
    expect(codeOnly).toMatchObject({ status: "two_factor_required", passkey_options: null });
    const person = await withApp();
    const { key } = await addPasskey(person.token, "Phone");
    const first = await login(person.user.email, person.password);
    const step = first.json as { status: string; challenge: string; passkey_options: Options };
    expect(step.status).toBe("two_factor_required");
    expect(step.passkey_options.allowCredentials?.map((c) => c.id)).toEqual([key.id]);

    // Signed for another challenge, or by a key that is not this account's: refused, the step stays.
    const stranger = softAuthenticator(ORIGIN, "localhost");
    for (const wrong of [
      key.authenticate({ challenge: "YW5vdGhlci1jaGFsbGVuZ2U" }),
      stranger.authenticate(step.passkey_options),
      key.authenticate(step.passkey_options, { origin: "https://evil.example" }),
    ]) {
      const refused = await withPasskey(step.challenge, wrong);
      expect(refused.status).toBe(401);
      expect(refused.json?.message).toBe(PASSKEY_SIGN_IN_FAILED);
    }
    const answer = key.authenticate(step.passkey_options);
    const opened = await withPasskey(step.challenge, answer);
    expect(opened.status).toBe(200);
    expect(opened.json).toMatchObject({ access_token: expect.any(String), user: { id: person.user.id } });
    // The step is spent: the same answer opens nothing again.
    expect((await withPasskey(step.challenge, answer)).json?.message).toBe(TWO_FACTOR_EXPIRED);
    const listed = await call(t.app, "GET", "/api/dashboard/user/passkeys", { token: person.token });
    expect((listed.json as { passkeys: { last_used_at: string | null }[] }).passkeys[0].last_used_at).not.toBeNull();
    const sessions = await t.runtime.services.audit.history("session", person.user.id);
    expect(sessions.map((row) => [row.action, row.summary])).toEqual(
      expect.arrayContaining([
        ["sign_in", "Signed in with a passkey"],
        ["sign_in_failed", "Failed sign-in: passkey not accepted"],
      ]),
    );
  });

  it("refuses a key whose counter went backwards (a cloned key)", async () => {
    const person = await withApp();
    const { key } = await addPasskey(person.token);
    const step = (await login(person.user.email, person.password)).json as {
      challenge: string;
      passkey_options: Options;
    };
    expect((await withPasskey(step.challenge, key.authenticate(step.passkey_options, { counter: 7 }))).status).toBe(
      200,
    );
    const next = (await login(person.user.email, person.password)).json as {
      challenge: string;
      passkey_options: Options;
    };
    const cloned = await withPasskey(next.challenge, key.authenticate(next.passkey_options, { counter: 3 }));
    expect(cloned.status).toBe(401);
  });

  it("counts refused passkeys toward the lockout, and asks for a code or a passkey", async () => {
    const person = await withApp();
    const { key } = await addPasskey(person.token);
    const step = (await login(person.user.email, person.password)).json as {
      challenge: string;
      passkey_options: Options;
    };
    const neither = await call(t.app, "POST", "/api/login/two-factor", { json: { challenge: step.challenge } });
    expect(neither.status).toBe(422);
    expect(neither.json?.errors).toEqual({ code: ["Type the code."] });
    for (let i = 0; i < 5; i++) {
      expect((await withPasskey(step.challenge, key.authenticate({ challenge: "d3Jvbmc" }))).status).toBe(401);
    }
    expect((await withPasskey(step.challenge, key.authenticate(step.passkey_options))).status).toBe(429);
    later(16 * 60);
  });

  it("goes with two-factor: turned off, the passkeys are removed", async () => {
    const person = await withApp();
    await addPasskey(person.token);
    const code = new TOTP({ secret: Secret.fromBase32(person.secret) }).generate({ timestamp: clock.getTime() });
    await t.runtime.services.twoFactor.disable(person.user.id, person.password, code);
    const listed = await call(t.app, "GET", "/api/dashboard/user/passkeys", { token: person.token });
    expect((listed.json as { passkeys: unknown[] }).passkeys).toEqual([]);
    const answer = await login(person.user.email, person.password);
    expect(answer.json).toMatchObject({ status: "success" });
  });
});
