import { type KyselyPlugin, SelectQueryNode, TableNode } from "kysely";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CURRENT_PASSWORD_REQUIRED, CURRENT_PASSWORD_WRONG } from "../../core/accounts/profile.schema";
import { createApp } from "../../server/app";
import { buildRuntime, call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { createUser, PASSWORD, signIn } from "../support/factories";
import { pagesBuild } from "../support/pages";

// Issue 30 §3 (a Bearer token is not a password), §4 (the calendar address ends with the sessions),
// §5 (Referrer-Policy of the token pages) and §10 (the profile's values; a phone number removed).
// Decision 0035. The pages are the real route modules, loaded by Vite's SSR loader as `npm run dev` serves them.

let t: TestContext;
let build: () => Promise<ServerBuild>;
let pages: ReturnType<typeof createApp>;

beforeAll(async () => {
  t = await createTestContext();
  build = await pagesBuild();
  pages = createApp(t.runtime, { build });
}, 120_000);
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.database.db.deleteFrom("rate_limits").execute();
});

const settingsApi = (token: string, fields: Record<string, string | null>) =>
  call(t.app, "PATCH", "/api/dashboard/user/settings", { token, json: fields });

/** The settings page's form posted as a document, with only a Bearer token (an API client's credential). */
const settingsPage = (token: string, fields: Record<string, string>) =>
  call(pages, "POST", "/dashboard/user-settings", { token, form: fields });

const userRow = (id: number) =>
  t.database.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const noticesTo = (address: string) =>
  t.database.db
    .selectFrom("mail_queue")
    .selectAll()
    .where("to_address", "=", address)
    .where("purpose", "=", "email_changed")
    .execute();

describe("a new e-mail address needs the current password, whoever asks (issue 30 §3)", () => {
  it("through the API with a Bearer token: refused without it or with a wrong one; the old address is told", async () => {
    const member = await signIn(t.runtime.services);
    const before = member.user.email;
    const missing = await settingsApi(member.token, { email: "taken-over@example.org" });
    expect(missing.status).toBe(422);
    expect(missing.json?.errors).toEqual({ password: [CURRENT_PASSWORD_REQUIRED] });
    const wrong = await settingsApi(member.token, { email: "taken-over@example.org", password: "a guess" });
    expect(wrong.status).toBe(422);
    expect(wrong.json?.errors).toEqual({ password: [CURRENT_PASSWORD_WRONG] });
    expect((await userRow(member.user.id)).email).toBe(before);
    expect(await noticesTo(before)).toEqual([]);

    const changed = await settingsApi(member.token, { email: "Moved@Example.org", password: PASSWORD });
    expect(changed.status).toBe(200);
    expect((await userRow(member.user.id)).email).toBe("moved@example.org");
    const [notice, ...more] = await noticesTo(before);
    expect(more).toEqual([]);
    expect(notice?.subject).toMatch(/^The e-mail address of your account at .+ was changed$/);
    expect(notice?.body_text).toContain(`from ${before} to moved@example.org`);
  });

  it("a password reset link mailed to the old address stops working when the address changes", async () => {
    const { user } = await createUser(t.runtime.services);
    const session = await t.runtime.services.auth.login({ email: user.email, password: PASSWORD }, { ip: "192.0.2.1" });
    await t.runtime.services.passwordReset.request(user.email, { ip: "192.0.2.1", origin: ORIGIN });
    const mail = await t.database.db
      .selectFrom("mail_queue")
      .select("body_text")
      .where("to_address", "=", user.email)
      .where("purpose", "=", "password_reset")
      .executeTakeFirstOrThrow();
    const link = /token=([\w-]+)/.exec(mail.body_text)?.[1] ?? "";
    expect(await t.runtime.services.passwordReset.isUsable(link)).toBe(true);
    await settingsApi(session.token, { email: `moved-${user.id}@example.org`, password: PASSWORD });
    expect(await t.runtime.services.passwordReset.isUsable(link)).toBe(false);
  });

  it("keeping the same address (in any case) needs no password and mails nobody", async () => {
    const member = await signIn(t.runtime.services);
    const same = await settingsApi(member.token, { email: member.user.email.toUpperCase(), first_name: "Same" });
    expect(same.status).toBe(200);
    expect(await noticesTo(member.user.email)).toEqual([]);
  });

  it("through the settings page with a Bearer token: refused beside the field without it, saved with it", async () => {
    const member = await signIn(t.runtime.services);
    const fields = { intent: "profile", email: "page-moved@example.org" };
    const missing = await settingsPage(member.token, fields);
    expect(missing.status).toBe(422);
    expect(missing.text).toContain(CURRENT_PASSWORD_REQUIRED);
    const wrong = await settingsPage(member.token, { ...fields, password: "a guess" });
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain(CURRENT_PASSWORD_WRONG);
    expect((await userRow(member.user.id)).email).toBe(member.user.email);

    const saved = await settingsPage(member.token, { ...fields, password: PASSWORD });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain("A notice of the change goes to your previous address");
    expect((await userRow(member.user.id)).email).toBe("page-moved@example.org");
    expect(await noticesTo(member.user.email)).toHaveLength(1);
  });
});

describe("a new password needs the current one, through the API with a Bearer token and the page", () => {
  it("is refused without the current password", async () => {
    const member = await signIn(t.runtime.services);
    const NEW = "lighthouse-keeper-at-night";
    const api = await settingsApi(member.token, { new_password: NEW, confirm_new_password: NEW });
    expect(api.status).toBe(422);
    expect(api.json?.errors).toEqual({ password: [CURRENT_PASSWORD_REQUIRED] });
    const page = await settingsPage(member.token, { intent: "password", new_password: NEW, confirm_new_password: NEW });
    expect(page.status).toBe(422);
    expect(page.text).toContain(CURRENT_PASSWORD_REQUIRED);
    expect(
      (await call(t.app, "POST", "/api/login", { json: { email: member.user.email, password: NEW } })).status,
    ).toBe(401);
  });
});

describe("a new password that breaks the rules is refused before the current one is checked", () => {
  it("says what to fix in the new password; no Argon2 check runs, so nothing counts against the budget", async () => {
    const member = await signIn(t.runtime.services);
    const weak = { new_password: "short", confirm_new_password: "short" };
    // More tries than the budget of password checks (10): none of them reaches the check.
    for (let i = 0; i < 12; i += 1) {
      const refused = await settingsApi(member.token, { ...weak, password: "a guess" });
      expect(refused.status).toBe(422);
      expect(Object.keys(refused.json?.errors as object)).toEqual(["new_password"]);
    }
    // Without the current password both fields are named at once.
    const both = await settingsApi(member.token, weak);
    expect(both.status).toBe(422);
    expect(both.json?.errors).toMatchObject({ password: [CURRENT_PASSWORD_REQUIRED] });
    expect(Object.keys(both.json?.errors as object).sort()).toEqual(["new_password", "password"]);
    const NEW = "a-perfectly-good-new-passphrase";
    const changed = await settingsApi(member.token, {
      password: PASSWORD,
      new_password: NEW,
      confirm_new_password: NEW,
    });
    expect(changed.status).toBe(200);
  });
});

describe("a password change through the page reads the account once", () => {
  it("the action's one read also says whether the calendar address ended", async () => {
    // The same site over a database handle that counts the statements reading the users table.
    let reads = 0;
    const counter: KyselyPlugin = {
      transformQuery({ node }) {
        if (
          SelectQueryNode.is(node) &&
          node.from?.froms.some((from) => TableNode.is(from) && from.table.identifier.name === "users")
        )
          reads += 1;
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const runtime = buildRuntime(t.runtime.config, { ...t.database, db: t.database.db.withPlugin(counter) });
    const counted = createApp(runtime, {
      build,
    });
    // The action alone (the form's data request); the page's loaders come in a request of their own.
    const action = async (token: string, fields: Record<string, string>) => {
      reads = 0;
      const res = await call(counted, "POST", "/dashboard/user-settings.data", {
        token,
        form: { intent: "password", ...fields },
      });
      return { status: res.status, text: res.text, reads };
    };
    const member = await signIn(t.runtime.services);
    await t.runtime.services.profile.renewCalendarToken(member.user.id, PASSWORD);
    // A request the action refuses before any service runs: what signing the request in reads.
    const before = await action(member.token, {});
    expect(before.status).toBe(422);
    const NEW = "a-perfectly-good-new-passphrase";
    const changed = await action(member.token, { password: PASSWORD, new_password: NEW, confirm_new_password: NEW });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain("your private calendar address no longer works");
    expect(changed.reads - before.reads).toBe(1);
    // Without a calendar address, the message does not mention one.
    const again = await action(member.token, { password: NEW, new_password: PASSWORD, confirm_new_password: PASSWORD });
    expect(again.status).toBe(200);
    expect(again.text).toContain("Your password is changed.");
    expect(again.text).not.toContain("calendar");
  });
});

describe("a private calendar address needs the current password (issue 30 §3)", () => {
  it("through the settings page with a Bearer token: none without it, one with it", async () => {
    const member = await signIn(t.runtime.services);
    const missing = await settingsPage(member.token, { intent: "calendar-feed" });
    expect(missing.status).toBe(422);
    expect(missing.text).toContain(CURRENT_PASSWORD_REQUIRED);
    const wrong = await settingsPage(member.token, { intent: "calendar-feed", password: "a guess" });
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain(CURRENT_PASSWORD_WRONG);
    expect((await userRow(member.user.id)).calendar_token_hash).toBeNull();

    const made = await settingsPage(member.token, { intent: "calendar-feed", password: PASSWORD });
    expect(made.status).toBe(200);
    const address = /\/calendar\/([\w-]{43})\.ics/.exec(made.text)?.[1];
    expect(address).toBeDefined();
    expect((await call(t.app, "GET", `/calendar/${address}.ics`, {})).status).toBe(200);
  });

  it("wrong passwords count against the password checks' limit", async () => {
    const member = await signIn(t.runtime.services);
    for (let i = 0; i < 10; i += 1) {
      expect((await settingsPage(member.token, { intent: "calendar-feed", password: "a guess" })).status).toBe(422);
    }
    expect((await settingsPage(member.token, { intent: "calendar-feed", password: PASSWORD })).status).toBe(429);
  });
});

describe("the calendar address ends with the sessions (issue 30 §4)", () => {
  async function withFeed() {
    const { user } = await createUser(t.runtime.services);
    const here = await t.runtime.services.auth.login({ email: user.email, password: PASSWORD }, { ip: "192.0.2.2" });
    const feed = await t.runtime.services.profile.renewCalendarToken(user.id, PASSWORD);
    expect((await call(t.app, "GET", `/calendar/${feed}.ics`, {})).status).toBe(200);
    return { user, here, feed };
  }
  const ended = async (feed: string, userId: number) => {
    expect((await call(t.app, "GET", `/calendar/${feed}.ics`, {})).status).toBe(404);
    expect((await userRow(userId)).calendar_token_hash).toBeNull();
  };

  it("on a password change", async () => {
    const { user, here, feed } = await withFeed();
    const NEW = "tidal-charts-of-the-north";
    const changed = await settingsApi(here.token, { password: PASSWORD, new_password: NEW, confirm_new_password: NEW });
    expect(changed.status).toBe(200);
    await ended(feed, user.id);
  });

  it("on a password reset", async () => {
    const { user, feed } = await withFeed();
    await t.runtime.services.passwordReset.request(user.email, { ip: "192.0.2.3", origin: ORIGIN });
    const mail = await t.database.db
      .selectFrom("mail_queue")
      .select("body_text")
      .where("to_address", "=", user.email)
      .where("purpose", "=", "password_reset")
      .executeTakeFirstOrThrow();
    const token = /token=([\w-]+)/.exec(mail.body_text)?.[1] ?? "";
    const NEW = "harbour-master-of-bergen";
    await t.runtime.services.passwordReset.reset({ token, password: NEW, password_confirmation: NEW });
    await ended(feed, user.id);
  });

  it("on deactivation, and reactivating does not bring it back", async () => {
    const { user, feed } = await withFeed();
    const admin = await signIn(t.runtime.services, "admin");
    await t.runtime.services.accounts.change(admin.user.id, user.id, { is_active: false });
    await ended(feed, user.id);
    await t.runtime.services.accounts.change(admin.user.id, user.id, { is_active: true });
    await ended(feed, user.id);
  });

  it("not when the e-mail address or a name changes", async () => {
    const { user, here, feed } = await withFeed();
    await settingsApi(here.token, { first_name: "Kept", email: `kept-${user.id}@example.org`, password: PASSWORD });
    expect((await call(t.app, "GET", `/calendar/${feed}.ics`, {})).status).toBe(200);
  });
});

describe("the profile's values (issue 30 §10)", () => {
  it("an empty phone number removes it, through the API and the page; a number not sent stays", async () => {
    const member = await signIn(t.runtime.services);
    await settingsApi(member.token, { phone_number: "+47 22 33 44 55" });
    expect((await settingsApi(member.token, { first_name: "Else" })).json).toMatchObject({
      user: { phone_number: "+47 22 33 44 55" },
    });
    const cleared = await settingsApi(member.token, { phone_number: "" });
    expect(cleared.json).toMatchObject({ user: { phone_number: null } });
    expect((await userRow(member.user.id)).phone_number).toBeNull();

    await settingsApi(member.token, { phone_number: "+47 22 33 44 56" });
    expect((await settingsApi(member.token, { phone_number: null })).json).toMatchObject({
      user: { phone_number: null },
    });

    await settingsApi(member.token, { phone_number: "+47 22 33 44 57" });
    const page = await settingsPage(member.token, { intent: "profile", phone_number: "" });
    expect(page.status).toBe(200);
    expect((await userRow(member.user.id)).phone_number).toBeNull();
  });

  it("the page shows the stored values as values, and an emptied name is a field error, not a silent no-op", async () => {
    const member = await signIn(t.runtime.services);
    await settingsApi(member.token, { first_name: "Ingeborg", phone_number: "+47 22 33 44 58" });
    const shown = await call(pages, "GET", "/dashboard/user-settings", { token: member.token });
    expect(shown.status).toBe(200);
    expect(shown.text).toMatch(/<input[^>]*id="first_name"[^>]*value="Ingeborg"/);
    expect(shown.text).toMatch(/<input[^>]*id="phone_number"[^>]*value="\+47 22 33 44 58"/);
    expect(shown.text).toMatch(/<input[^>]*id="email"[^>]*value="[^"]+@example\.org"/);
    expect(shown.text).not.toMatch(/placeholder="Ingeborg"/);

    const emptied = await settingsPage(member.token, { intent: "profile", first_name: " " });
    expect(emptied.status).toBe(422);
    expect(emptied.text).toContain("The first name is required.");
    expect((await userRow(member.user.id)).first_name).toBe("Ingeborg");
  });
});

describe("the pages whose address carries a token (issue 30 §5)", () => {
  it("/reset-password and /welcome send Referrer-Policy: no-referrer as a header", async () => {
    for (const path of ["/reset-password?token=abc", "/welcome?token=abc"]) {
      const res = await call(pages, "GET", path);
      expect(res.status).toBe(200);
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    }
    // Other pages keep the site's policy.
    expect((await call(pages, "GET", "/login")).headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });
});
