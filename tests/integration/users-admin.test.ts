import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LAST_ADMIN, OWN_ADMIN_ROLE, OWN_DEACTIVATION, OWN_DELETION } from "../../core/accounts/accounts.schema";
import {
  INVITATION_ALREADY_ACCEPTED,
  INVITATION_DAYS,
  INVITATION_FOR_DEACTIVATED,
  INVITATION_LINK_INVALID,
} from "../../core/accounts/invitation.schema";
import { createUsersRepository } from "../../core/accounts/users.repository";
import { call, createTestContext, type TestContext } from "../support/app";
import { createUser, PASSWORD, signIn } from "../support/factories";
import { mailText, type ReceivedMail, startSmtpServer, tokenIn } from "../support/smtp";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestContext;
let now = new Date("2026-11-20T10:00:00Z");
const clock = () => now;
const CHOSEN = "lighthouse-beacon-42";

const linkIn = (mail: ReceivedMail | undefined) => tokenIn(mail, "/welcome");

type AdminUserJson = {
  id: number;
  email: string;
  first_name: string;
  role: { name: string };
  status: string;
  invitation_expires_at: string | null;
};

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url }, { clock });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  now = new Date(now.getTime() + 3600_000);
  smtp.received.length = 0;
  await t.database.db.deleteFrom("rate_limits").execute();
});

let sequence = 0;
async function invite(adminToken: string, overrides: Record<string, unknown> = {}) {
  sequence += 1;
  const res = await call(t.app, "POST", "/api/dashboard/users", {
    token: adminToken,
    json: {
      first_name: "Ines",
      last_name: `Invited ${sequence}`,
      email: `invited-${sequence}-${Date.now()}@example.org`,
      role: "member",
      ...overrides,
    },
  });
  await t.runtime.services.mail.deliverDue();
  return { res, user: res.json?.user as AdminUserJson, token: linkIn(smtp.received.at(-1)) };
}

const accept = (token: string | undefined, password = CHOSEN, password_confirmation = password) =>
  call(t.app, "POST", "/api/welcome", { json: { token, password, password_confirmation } });

const login = (email: string, password: string) => call(t.app, "POST", "/api/login", { json: { email, password } });

/** Leaves exactly the given admins able to sign in (other tests' admins become members). */
async function onlyAdmins(ids: number[]) {
  await t.database.db
    .updateTable("users")
    .set({ role: "member" })
    .where("role", "=", "admin")
    .where("id", "not in", ids)
    .execute();
}

describe("invitations", () => {
  it("invites a user who has no password yet, and mails a 7-day link naming who invited them", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const { res, user, token } = await invite(admin.token, { email: "New.Person@Example.org", role: "admin" });
    expect(res.status).toBe(201);
    expect(user).toMatchObject({ email: "new.person@example.org", status: "invited", role: { name: "admin" } });
    expect(Date.parse(user.invitation_expires_at ?? "")).toBe(now.getTime() + INVITATION_DAYS * 24 * 3600_000);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].to).toEqual(["new.person@example.org"]);
    const text = mailText(smtp.received[0]);
    expect(text).toContain(`${admin.user.first_name} ${admin.user.last_name} has invited you`);
    expect(text).toContain("as an administrator");
    expect(token).toBeTruthy();
    // Only the hash of the link is stored.
    const stored = await t.database.db.selectFrom("one_time_tokens").select("token_hash").execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(token);
    // No password: signing in is not possible before the invitation is accepted.
    expect((await login("new.person@example.org", "")).status).toBe(422);
    expect((await login("new.person@example.org", "anything-at-all")).status).toBe(401);
  });

  it("builds the link from BASE_URL whatever Host the request names", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    await call(t.app, "POST", "/api/dashboard/users", {
      token: admin.token,
      headers: { host: "evil.example", "x-forwarded-host": "evil.example" },
      json: { first_name: "Hal", last_name: "Host", email: `host-${Date.now()}@example.org`, role: "member" },
    });
    await t.runtime.services.mail.deliverDue();
    const text = mailText(smtp.received[0]);
    expect(text).toContain(`${t.runtime.config.baseUrl.origin}/welcome?token=`);
    expect(text).not.toContain("evil.example");
  });

  it("refuses an address already taken in any case, and says which fields are missing", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const { user } = await createUser(t.runtime.services, { email: "taken-address@example.org" });
    const taken = await invite(admin.token, { email: user.email.toUpperCase() });
    expect(taken.res.status).toBe(422);
    expect(taken.res.json?.errors).toEqual({ email: ["The email has already been taken."] });
    const empty = await call(t.app, "POST", "/api/dashboard/users", { token: admin.token, json: {} });
    expect(empty.status).toBe(422);
    expect(empty.json?.errors).toEqual({
      first_name: ["First name is required."],
      last_name: ["Last name is required."],
      email: ["Email is required."],
      role: ["The role must be admin, editor or member."],
    });
    // The site's one e-mail rule, as on the join form and the profile.
    const doubleDot = await invite(admin.token, { email: "ana@example..org" });
    expect(doubleDot.res.json?.errors).toEqual({ email: ["Email is not valid."] });
    const badRole = await invite(admin.token, { role: "owner", email: "not-an-address" });
    expect(badRole.res.json?.errors).toEqual({
      email: ["Email is not valid."],
      role: ["The role must be admin, editor or member."],
    });
    expect(smtp.received).toHaveLength(0);
  });

  it("accepting sets the password once, signs the user in and their session works", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const { user, token } = await invite(admin.token);
    expect(await t.runtime.services.invitations.describe(token)).toEqual({
      first_name: "Ines",
      email: user.email,
    });
    const res = await accept(token);
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(/^auth\.session=[\w-]+;.*HttpOnly/i);
    const session = res.json?.access_token as string;
    const me = await call(t.app, "GET", "/api/dashboard/user", { token: session });
    expect((me.json as { user: { email: string } }).user.email).toBe(user.email);
    expect((await t.runtime.services.accounts.getUser(user.id)).status).toBe("active");
    expect((await login(user.email, CHOSEN)).status).toBe(200);
    // The link works once.
    const again = await accept(token, "another-choice-77");
    expect(again.status).toBe(422);
    expect(again.json?.errors).toEqual({ token: [INVITATION_LINK_INVALID] });
    expect(await t.runtime.services.invitations.describe(token)).toBeNull();
  });

  it("applies the password rules and keeps the link usable after a refusal", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const { user, token } = await invite(admin.token);
    expect((await accept(token, "short")).json?.errors).toEqual({
      password: ["The new password must be at least 10 characters."],
    });
    expect((await accept(token, "1234567890")).json?.errors).toEqual({
      password: ["This password is too common. Choose another one."],
    });
    expect((await accept(token, user.email)).json?.errors).toEqual({
      password: ["The password must not be your e-mail address."],
    });
    expect((await accept(token, CHOSEN, "not-the-same-1")).json?.errors).toEqual({
      password_confirmation: ["The passwords do not match."],
    });
    expect((await accept(token)).status).toBe(200);
  });

  it("refuses a wrong, an expired, a superseded and a deactivated user's link", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    expect((await accept("not-a-real-token")).status).toBe(422);
    expect((await accept(undefined)).status).toBe(422);
    expect((await accept("x".repeat(5000))).status).toBe(422);

    const first = await invite(admin.token);
    const resent = await call(t.app, "POST", `/api/dashboard/users/${first.user.id}/invitation`, {
      token: admin.token,
    });
    expect(resent.status).toBe(200);
    await t.runtime.services.mail.deliverDue();
    const second = linkIn(smtp.received.at(-1));
    expect(second).not.toBe(first.token);
    expect((await accept(first.token)).json?.errors).toEqual({ token: [INVITATION_LINK_INVALID] });

    const deactivated = await invite(admin.token);
    await call(t.app, "PATCH", `/api/dashboard/users/${deactivated.user.id}`, {
      token: admin.token,
      json: { is_active: false },
    });
    expect((await accept(deactivated.token)).status).toBe(422);
    const refusedResend = await call(t.app, "POST", `/api/dashboard/users/${deactivated.user.id}/invitation`, {
      token: admin.token,
    });
    expect(refusedResend.status).toBe(409);
    expect(refusedResend.json?.message).toBe(INVITATION_FOR_DEACTIVATED);

    now = new Date(now.getTime() + (INVITATION_DAYS * 24 * 3600 + 1) * 1000);
    expect((await accept(second)).status).toBe(422); // expired
    expect((await t.runtime.services.accounts.getUser(first.user.id)).status).toBe("invited");
  });

  it("shows until when a pending link works, and nothing once it has expired", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const { user } = await invite(admin.token);
    const one = async (token: string) =>
      ((await call(t.app, "GET", `/api/dashboard/users/${user.id}`, { token })).json as { user: AdminUserJson }).user;
    expect((await one(admin.token)).invitation_expires_at).toBe(user.invitation_expires_at);
    now = new Date(now.getTime() + (INVITATION_DAYS * 24 * 3600 + 1) * 1000);
    // A week later (the admin's session of the day has ended too).
    const later = await signIn(t.runtime.services, "admin");
    expect(await one(later.token)).toMatchObject({ status: "invited", invitation_expires_at: null });
  });

  it("a password chosen through a reset link retires the invitation", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const { user, token } = await invite(admin.token);
    await call(t.app, "POST", "/api/forgot-password", { json: { email: user.email } });
    await t.runtime.services.mail.deliverDue();
    const reset = tokenIn(smtp.received.at(-1), "/reset-password");
    const done = await call(t.app, "POST", "/api/reset-password", {
      json: { token: reset, password: CHOSEN, password_confirmation: CHOSEN },
    });
    expect(done.status).toBe(200);
    const late = await accept(token, "another-choice-77");
    expect(late.json?.errors).toEqual({ token: [INVITATION_LINK_INVALID] });
    expect((await login(user.email, CHOSEN)).status).toBe(200);
  });

  it("deactivating retires open links: reactivating does not bring them back", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const { user, token } = await invite(admin.token);
    const set = (is_active: boolean) =>
      call(t.app, "PATCH", `/api/dashboard/users/${user.id}`, { token: admin.token, json: { is_active } });
    expect((await set(false)).status).toBe(200);
    expect((await set(true)).status).toBe(200);
    expect((await accept(token)).json?.errors).toEqual({ token: [INVITATION_LINK_INVALID] });
    // A new invitation is the way back in.
    await call(t.app, "POST", `/api/dashboard/users/${user.id}/invitation`, { token: admin.token });
    await t.runtime.services.mail.deliverDue();
    expect((await accept(linkIn(smtp.received.at(-1)))).status).toBe(200);
  });

  it("resends only to someone still invited", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const { user } = await createUser(t.runtime.services);
    const res = await call(t.app, "POST", `/api/dashboard/users/${user.id}/invitation`, { token: admin.token });
    expect(res.status).toBe(409);
    expect(res.json?.message).toBe(INVITATION_ALREADY_ACCEPTED);
    expect((await call(t.app, "POST", "/api/dashboard/users/999999/invitation", { token: admin.token })).status).toBe(
      404,
    );
  });
});

describe("the users list", () => {
  it("searches names and e-mails literally, filters by role and status, and pages", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const tag = `zq${Date.now()}`;
    await createUser(t.runtime.services, { first_name: "Wilma", last_name: `Navigator ${tag}`, role: "admin" });
    await createUser(t.runtime.services, { email: `a_b.${tag}@example.org` });
    await createUser(t.runtime.services, { email: `axb.${tag}@example.org` });
    const invited = await invite(admin.token, { last_name: `Pending ${tag}` });
    const list = async (query: string) => {
      const res = await call(t.app, "GET", `/api/dashboard/users?${query}`, { token: admin.token });
      expect(res.status).toBe(200);
      return res.json as { data: AdminUserJson[]; total: number; last_page: number };
    };
    expect((await list(`search=wilma navigator ${tag}`)).data.map((u) => u.first_name)).toEqual(["Wilma"]);
    expect((await list(`search=a_b.${tag}`)).data.map((u) => u.email)).toEqual([`a_b.${tag}@example.org`]);
    expect((await list(`search=${encodeURIComponent(`a%b.${tag}`)}`)).total).toBe(0);
    expect((await list(`search=${encodeURIComponent(`a\\b.${tag}`)}`)).total).toBe(0);
    // Case is folded in every alphabet, on both dialects.
    await createUser(t.runtime.services, { first_name: "Émile", last_name: `Ødegård ${tag}` });
    expect((await list(`search=${encodeURIComponent(`émile ødegård ${tag}`)}`)).total).toBe(1);
    expect((await list(`search=${encodeURIComponent(`ÉMILE ØDEGÅRD ${tag}`)}`)).total).toBe(1);
    expect((await list(`search=${tag}&role=admin`)).total).toBe(1);
    expect((await list(`search=${tag}&status=invited`)).data.map((u) => u.id)).toEqual([invited.user.id]);
    expect((await list(`search=${tag}&status=active`)).total).toBe(4);
    // Unknown filter values are ignored rather than refused.
    expect((await list(`search=${tag}&role=captain&status=x&page=-3`)).total).toBe(5);

    for (let i = 0; i < 26; i += 1) await createUser(t.runtime.services, { last_name: `Crew ${tag} ${i}` });
    const first = await list(`search=crew ${tag}`);
    const second = await list(`search=crew ${tag}&page=2`);
    expect(first.total).toBe(26);
    expect(first.last_page).toBe(2);
    expect(first.data).toHaveLength(25);
    expect(second.data).toHaveLength(1);
  });
});

describe("changing, deactivating and deleting users", () => {
  it("changes a role, and a deactivated user's sessions end until they are reactivated", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const member = await signIn(t.runtime.services, "member");
    const promoted = await call(t.app, "PATCH", `/api/dashboard/users/${member.user.id}`, {
      token: admin.token,
      json: { role: "admin" },
    });
    expect(promoted.status).toBe(200);
    expect((promoted.json as { user: AdminUserJson }).user.role.name).toBe("admin");

    const off = await call(t.app, "POST", `/api/dashboard/users/${member.user.id}`, {
      token: admin.token,
      form: { _method: "PATCH", is_active: "0" },
    });
    expect(off.status).toBe(200);
    expect((off.json as { user: AdminUserJson }).user.status).toBe("deactivated");
    expect((await call(t.app, "GET", "/api/dashboard/user", { token: member.token })).status).toBe(401);
    const left = await t.database.db
      .selectFrom("sessions")
      .select("id")
      .where("user_id", "=", member.user.id)
      .execute();
    expect(left).toEqual([]);
    expect((await login(member.user.email, PASSWORD)).status).toBe(401);

    const on = await call(t.app, "PATCH", `/api/dashboard/users/${member.user.id}`, {
      token: admin.token,
      json: { is_active: true },
    });
    expect((on.json as { user: AdminUserJson }).user.status).toBe("active");
    expect((await login(member.user.email, PASSWORD)).status).toBe(200);

    const nothing = await call(t.app, "PATCH", `/api/dashboard/users/${member.user.id}`, {
      token: admin.token,
      json: { role: "captain", is_active: "maybe" },
    });
    expect(nothing.status).toBe(422);
    expect(Object.keys(nothing.json?.errors as object).sort()).toEqual(["is_active", "role"]);
    const unknown = await call(t.app, "PATCH", "/api/dashboard/users/999999", {
      token: admin.token,
      json: { role: "member" },
    });
    expect(unknown.status).toBe(404);
  });

  it("an admin cannot remove their own admin role, deactivate or delete themselves", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const self = `/api/dashboard/users/${admin.user.id}`;
    const demote = await call(t.app, "PATCH", self, { token: admin.token, json: { role: "member" } });
    expect(demote.status).toBe(403);
    expect(demote.json?.message).toBe(OWN_ADMIN_ROLE);
    const deactivate = await call(t.app, "PATCH", self, { token: admin.token, json: { is_active: false } });
    expect(deactivate.status).toBe(403);
    expect(deactivate.json?.message).toBe(OWN_DEACTIVATION);
    const remove = await call(t.app, "DELETE", self, { token: admin.token });
    expect(remove.status).toBe(403);
    expect(remove.json?.message).toBe(OWN_DELETION);
    // Keeping the admin role is no change at all, and allowed.
    expect((await call(t.app, "PATCH", self, { token: admin.token, json: { role: "admin" } })).status).toBe(200);
    expect((await t.runtime.services.accounts.getUser(admin.user.id)).role.name).toBe("admin");
  });

  it("the last admin who can sign in is never removed, even when two admins act at once", async () => {
    const a = await signIn(t.runtime.services, "admin");
    const b = await signIn(t.runtime.services, "admin");
    const invitedAdmin = await invite(a.token, { role: "admin" });
    await onlyAdmins([a.user.id, b.user.id, invitedAdmin.user.id]);

    // Each tries to deactivate the other at the same moment: exactly one wins.
    const outcomes = await Promise.allSettled([
      t.runtime.services.accounts.change(a.user.id, b.user.id, { is_active: false }),
      t.runtime.services.accounts.change(b.user.id, a.user.id, { is_active: false }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ status: 409, message: LAST_ADMIN });
    const active = await t.database.db
      .selectFrom("users")
      .select("id")
      .where("role", "=", "admin")
      .where("is_active", "=", 1)
      .where("password_hash", "is not", null)
      .execute();
    expect(active).toHaveLength(1);
    const last = active[0].id;

    // The service refuses too, whoever asks (the CLI has no signed-in admin).
    for (const change of [{ role: "member" as const }, { is_active: false }]) {
      await expect(t.runtime.services.accounts.change(0, last, change)).rejects.toMatchObject({ status: 409 });
    }
    await expect(t.runtime.services.accounts.remove(0, last)).rejects.toMatchObject({ status: 409 });
    // An invited admin who has not chosen a password does not count as the one who remains.
    await expect(t.runtime.services.accounts.change(0, invitedAdmin.user.id, { role: "member" })).resolves.toBeTruthy();
  });

  it("deletes a user with their sessions, links and picture", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const member = await signIn(t.runtime.services, "member");
    const photo = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#2a6f97" } })
      .jpeg()
      .toBuffer();
    const uploaded = await call(t.app, "POST", "/api/settings/profile/updateAvatar", {
      token: member.token,
      multipart: true,
      form: { avatar: new File([new Uint8Array(photo)], "me.jpg", { type: "image/jpeg" }) },
    });
    const avatar = (uploaded.json as { avatar: string }).avatar;
    const file = path.join(t.runtime.config.uploadsDir, avatar.slice("/uploads/".length));
    expect(fs.existsSync(file)).toBe(true);

    await call(t.app, "POST", "/api/forgot-password", { json: { email: member.user.email } });
    const res = await call(t.app, "DELETE", `/api/dashboard/users/${member.user.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
    expect((await call(t.app, "GET", "/api/dashboard/user", { token: member.token })).status).toBe(401);
    const sessions = await t.database.db
      .selectFrom("sessions")
      .select("id")
      .where("user_id", "=", member.user.id)
      .execute();
    expect(sessions).toEqual([]);
    const links = await t.database.db
      .selectFrom("one_time_tokens")
      .select("id")
      .where("user_id", "=", member.user.id)
      .execute();
    expect(links).toEqual([]);
    const again = await call(t.app, "DELETE", `/api/dashboard/users/${member.user.id}`, { token: admin.token });
    expect(again.status).toBe(404);
    expect((await call(t.app, "DELETE", "/api/dashboard/users/abc", { token: admin.token })).status).toBe(404);
  });

  it("a picture uploaded for an account deleted meanwhile is a 404 and leaves no files", async () => {
    const { user } = await createUser(t.runtime.services);
    const photo = await sharp({ create: { width: 80, height: 80, channels: 3, background: "#2a6f97" } })
      .png()
      .toBuffer();
    const avatars = path.join(t.runtime.config.uploadsDir, "avatars");
    const before = fs.existsSync(avatars) ? fs.readdirSync(avatars).length : 0;
    // The row goes between the service's read and its write, as when an admin deletes the account mid-upload.
    const pending = t.runtime.services.profile.setAvatar(user.id, new Uint8Array(photo));
    await t.database.db.deleteFrom("users").where("id", "=", user.id).execute();
    await expect(pending).rejects.toMatchObject({ status: 404 });
    expect(fs.existsSync(avatars) ? fs.readdirSync(avatars).length : 0).toBe(before);
  });

  it("a write that loses the race for an e-mail address is a 422, not a 500", async () => {
    // The service checks first; this is what happens when another request takes the address in between.
    const users = createUsersRepository(t.database.db, t.database.dialect);
    const first = await createUser(t.runtime.services);
    const second = await createUser(t.runtime.services);
    await expect(users.update(second.user.id, { email: first.user.email })).rejects.toMatchObject({
      status: 422,
      details: { errors: { email: ["The email has already been taken."] } },
    });
    await expect(
      users.insert({
        email: first.user.email,
        role: "member",
        first_name: "Race",
        last_name: "Loser",
        phone_number: null,
        avatar: null,
        password_hash: null,
        is_active: 1,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      }),
    ).rejects.toMatchObject({ status: 422 });
  });

  it("hostile input is a 4xx with messages, never a 500, and writes nothing", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const before = await t.runtime.services.accounts.countUsers();
    const bodies: unknown[] = [
      { first_name: ["Ana"], last_name: { $ne: 1 }, email: 42, role: null },
      { first_name: "x".repeat(10_000), last_name: "<script>alert(1)</script>", email: "a@b.c", role: "member" },
      { first_name: "Ana", last_name: "Silva", email: `${"a".repeat(250)}@example.org`, role: "member" },
      { first_name: "Ana", last_name: "Silva", email: "ana@example.org\r\nBcc: victim@example.org", role: "member" },
      { first_name: "Ana", last_name: "Silva", email: "ana@example.org", role: "ADMIN" },
    ];
    for (const json of bodies) {
      const res = await call(t.app, "POST", "/api/dashboard/users", { token: admin.token, json });
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(422);
      expect(res.json?.errors).toBeTruthy();
    }
    const multipart = await call(t.app, "POST", "/api/dashboard/users", {
      token: admin.token,
      multipart: true,
      form: { first_name: "Ana", last_name: "Silva", email: new File(["x"], "e.txt"), role: "member" },
    });
    expect(multipart.status).toBe(422);
    expect(await t.runtime.services.accounts.countUsers()).toBe(before);

    const target = await createUser(t.runtime.services);
    for (const id of ["0", "-1", "1e3", "0x10", "9999999999999999999", "1.5", "%00"]) {
      const res = await call(t.app, "PATCH", `/api/dashboard/users/${id}`, {
        token: admin.token,
        json: { role: "admin" },
      });
      expect(res.status, id).toBe(404);
    }
    for (const json of [{ role: ["admin"] }, { is_active: { toString: 1 } }, { role: "admin", is_active: "yes" }]) {
      const res = await call(t.app, "PATCH", `/api/dashboard/users/${target.user.id}`, { token: admin.token, json });
      expect(res.status).toBe(422);
    }
    expect((await t.runtime.services.accounts.getUser(target.user.id)).role.name).toBe("member");
    // Odd list queries fall back to the defaults (the admin screen's address is forgiving).
    for (const query of ["search=%FF", "page=abc", "role[]=admin", `search=${"%25".repeat(3000)}`]) {
      const res = await call(t.app, "GET", `/api/dashboard/users?${query}`, { token: admin.token });
      expect(res.status, query).toBe(200);
    }
    for (const json of [{ token: ["a"], password: 1 }, { token: { a: 1 } }]) {
      const res = await call(t.app, "POST", "/api/welcome", { json });
      expect(res.status).toBe(422);
      expect(res.json?.errors).toEqual({ token: [INVITATION_LINK_INVALID] });
    }
    expect((await call(t.app, "POST", "/api/welcome", { json: "just a string" })).status).toBe(400);
  });

  it("only admins reach the users API", async () => {
    const member = await signIn(t.runtime.services, "member");
    const target = `/api/dashboard/users/${member.user.id}`;
    for (const [method, url] of [
      ["GET", "/api/dashboard/users"],
      ["POST", "/api/dashboard/users"],
      ["GET", target],
      ["PATCH", target],
      ["DELETE", target],
      ["POST", `${target}/invitation`],
    ] as const) {
      expect((await call(t.app, method, url, { json: method === "GET" ? undefined : {} })).status).toBe(401);
      expect(
        (await call(t.app, method, url, { token: member.token, json: method === "GET" ? undefined : {} })).status,
      ).toBe(403);
    }
    // Trying to promote oneself as a member changes nothing.
    await call(t.app, "PATCH", target, { token: member.token, json: { role: "admin" } });
    expect((await t.runtime.services.accounts.getUser(member.user.id)).role.name).toBe("member");
  });
});
