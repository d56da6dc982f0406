import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TWO_FACTOR_SETUP_PATH } from "../../app/lib/guards";
import { SETUP_CODE_WRONG } from "../../core/auth/two-factor.service";
import { call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { pagesApp, pageText } from "../support/pages";
import { softAuthenticator } from "../support/passkey-authenticator";

/**
 * Two-factor sign-in's pages without JavaScript (decision 0075): the settings page's set-up (a
 * wrong first code keeps the QR code and says why), and the sign-in form's second step.
 */
let t: TestContext;
let pages: TestContext["app"];
let closePages: () => Promise<void>;

beforeAll(async () => {
  t = await createTestContext();
  ({ pages, close: closePages } = await pagesApp(t));
}, 120_000);
afterAll(async () => {
  await closePages?.();
  await t?.close();
});

const post = (path: string, form: Record<string, string>, cookie?: string) =>
  call(pages, "POST", `${ORIGIN}${path}`, { form, headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) } });

describe("two-factor sign-in's pages", () => {
  it("sets up from the settings page: the QR code stays after a wrong first code, the recovery codes show once", async () => {
    const { cookie, user, password } = await signIn(t.runtime.services, "member");
    const setup = await post("/dashboard/user-settings", { intent: "2fa-setup" }, cookie);
    expect(setup.status).toBe(200);
    expect(setup.text).toContain("QR code to scan with your authenticator app");
    const secret = /<code[^>]*>([A-Z2-7]+)<\/code>/.exec(setup.text)?.[1] ?? "";
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    const wrong = await post("/dashboard/user-settings", { intent: "2fa-confirm", code: "000000" }, cookie);
    expect(wrong.status).toBe(422);
    expect(pageText(wrong.text)).toContain(SETUP_CODE_WRONG);
    expect(wrong.text).toContain("QR code to scan with your authenticator app");

    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    const on = await post("/dashboard/user-settings", { intent: "2fa-confirm", code }, cookie);
    expect(on.status).toBe(200);
    expect(pageText(on.text)).toContain("Your recovery codes, shown this once");
    const list = /<ul aria-label="Recovery codes"[^>]*>([\s\S]*?)<\/ul>/.exec(on.text)?.[1] ?? "";
    expect(list.match(/<li[^>]*>[a-z2-9]{5}-[a-z2-9]{5}<\/li>/g)).toHaveLength(10);

    // The sign-in form: the password, then its second step.
    const first = await post("/login", { email: user.email, password });
    expect(first.status).toBe(200);
    expect(pageText(first.text)).toContain("Your password is right.");
    expect(first.headers.get("set-cookie")).toBeNull();
    const challenge = /name="challenge" value="([^"]+)"/.exec(first.text)?.[1] ?? "";
    const refused = await post("/login", { intent: "two-factor", challenge, code: "999999" });
    expect(refused.status).toBe(401);
    expect(pageText(refused.text)).toContain("That code is not right");
  });

  it("adds a passkey through the settings page and signs in with it through the login form (decision 0076)", async () => {
    const { cookie, user, password } = await signIn(t.runtime.services, "member");
    const { secret } = await t.runtime.services.twoFactor.beginSetup(user);
    await t.runtime.services.twoFactor.confirmSetup(user, new TOTP({ secret: Secret.fromBase32(secret) }).generate());
    const key = softAuthenticator(ORIGIN, "localhost");
    const options = await call(t.app, "POST", "/api/dashboard/user/passkeys/options", {
      headers: { cookie, origin: ORIGIN },
    });
    expect(options.status).toBe(200);
    const made = key.register((options.json as { options: { challenge: string } }).options);
    const broken = await post("/dashboard/user-settings", { intent: "passkey-add", response: "{not json" }, cookie);
    expect(broken.status).toBe(422);
    const added = await post(
      "/dashboard/user-settings",
      { intent: "passkey-add", name: "Desk key", response: JSON.stringify(made) },
      cookie,
    );
    expect(added.status).toBe(200);
    expect(pageText(added.text)).toContain('The passkey "Desk key" is added');
    expect(pageText(added.text)).toMatch(/Desk key Added \d{4}-\d{2}-\d{2} \d{2}:\d{2} · not used yet/);

    // The form's second step offers the passkey (its options go to the browser: the e2e test);
    // an answer to the step's options signs in.
    const first = await post("/login", { email: user.email, password });
    expect(pageText(first.text)).toContain("or use one of your passkeys");
    const challenge = /name="challenge" value="([^"]+)"/.exec(first.text)?.[1] ?? "";
    const stepOptions = await t.runtime.services.twoFactor.passkeyOptionsFor(challenge);
    expect(stepOptions?.allowCredentials?.map((c) => c.id)).toEqual([key.id]);
    const unreadable = await post("/login", { intent: "two-factor", challenge, passkey: "{}" });
    expect(unreadable.status).toBe(422);
    expect(pageText(unreadable.text)).toContain("That passkey did not sign you in");
    expect(unreadable.text).toContain(`value="${challenge}"`);
    const answer = key.authenticate(stepOptions ?? { challenge: "" });
    const opened = await post("/login", {
      intent: "two-factor",
      challenge,
      passkey: JSON.stringify(answer),
      redirect: "/dashboard",
    });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe("/dashboard");
    expect(opened.headers.get("set-cookie")).toMatch(/auth\.session=/);
  });

  it("sends an admin without two-factor from any admin page to its set-up when the site asks for it", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    await t.runtime.services.settings.update({ "security.admin_two_factor": "1" });
    try {
      for (const path of ["/manager", "/manager/audit", "/manage-news"]) {
        const sent = await call(pages, "GET", `${ORIGIN}${path}`, { headers: { cookie: admin.cookie } });
        expect(sent.status, path).toBe(302);
        expect(sent.headers.get("location"), path).toBe(TWO_FACTOR_SETUP_PATH);
      }
      // The set-up itself is open, and says why.
      const settings = await call(pages, "GET", `${ORIGIN}${TWO_FACTOR_SETUP_PATH}`, {
        headers: { cookie: admin.cookie },
      });
      expect(settings.status).toBe(200);
      expect(pageText(settings.text)).toContain(
        "The association asks its admins, editors and working groups' chairs to sign in with a second factor.",
      );
      const { secret } = await t.runtime.services.twoFactor.beginSetup(admin.user);
      await t.runtime.services.twoFactor.confirmSetup(
        admin.user,
        new TOTP({ secret: Secret.fromBase32(secret) }).generate(),
      );
      expect((await call(pages, "GET", `${ORIGIN}/manager`, { headers: { cookie: admin.cookie } })).status).toBe(200);
    } finally {
      await t.runtime.services.settings.update({ "security.admin_two_factor": "0" });
    }
  });
});
