import { strFromU8, unzipSync } from "fflate";
import { Secret, TOTP } from "otpauth";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERASED_EMAIL, ERASED_NAME } from "../../core/privacy/anonymise.repository";
import { LAST_ADMIN_DELETION, OWN_ERASURE } from "../../core/privacy/privacy.schema";
import { call, createTestContext, type TestContext } from "../support/app";
import { createUser, signIn } from "../support/factories";
import { registerThroughForm } from "../support/registrations";

/**
 * A person's data (issue 35): a member downloads everything held about them as a ZIP and deletes
 * their account; the secretariat finds, exports and erases what is held about any address, with or
 * without an account. Through the API, on the suite's database (SQLite, or PostgreSQL).
 */
let t: TestContext;
let clock = new Date("2026-11-28T09:00:00Z");

beforeAll(async () => {
  t = await createTestContext({}, { clock: () => clock });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Fetches a ZIP through the app and reads its files. */
async function download(url: string, token: string) {
  const response = await t.app.request(url, { headers: { authorization: `Bearer ${token}` } });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { response, files: response.status === 200 ? unzipSync(bytes) : {} };
}
const json = (files: Record<string, Uint8Array>, name: string) => JSON.parse(strFromU8(files[name])) as unknown;

async function meeting(slug: string, startDate: string) {
  const stamp = clock.toISOString();
  return t.database.db
    .insertInto("meetings")
    .values({
      slug,
      title: `Meeting ${slug}`,
      type: "workshop",
      start_date: startDate,
      registration_open: 1,
      visibility: "public",
      created_at: stamp,
      updated_at: stamp,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

describe("a member's own data", () => {
  it("downloads everything held about them as one ZIP: profile, picture, registrations, requests, follows, sessions, mails, audit", async () => {
    const member = await signIn(t.runtime.services, "member");
    const picture = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#2a6f97" } })
      .png()
      .toBuffer();
    await t.runtime.services.profile.setAvatar(member.user.id, new Uint8Array(picture));
    await meeting("export-workshop", "2099-05-01");
    const registration = await registerThroughForm(t, "/events/export-workshop", {
      now: clock,
      email: member.user.email,
      token: member.token,
    });
    const application = await registerThroughForm(t, "/join", { now: clock, email: member.user.email.toUpperCase() });
    await t.database.db
      .insertInto("follows")
      .values({
        user_id: member.user.id,
        kind: "news",
        category_id: null,
        delivery: "digest",
        created_at: clock.toISOString(),
      })
      .execute();

    // In a working group (issue 36): the export says which.
    const group = await t.runtime.services.groups.create({
      name: "Export trial group",
      description: "",
      chair_ids: [],
    });
    await t.runtime.services.groups.addMember(group.id, { user_id: member.user.id }, { id: 0, role: "admin" });
    const { response, files } = await download("/api/dashboard/user/export", member.token);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toContain("personal-data-2026-11-28.zip");
    expect(response.headers.get("cache-control")).toContain("no-store");
    expect(Object.keys(files).sort()).toEqual(
      [
        "README.txt",
        "audit-log.json",
        "avatar.webp",
        "companies.json",
        "groups.json",
        "mails.json",
        "notifications.json",
        "profile.json",
        "registrations.json",
        "requests.json",
        "sessions.json",
      ].sort(),
    );
    expect(strFromU8(files["README.txt"])).toContain(`about ${member.user.email}`);
    expect(json(files, "profile.json")).toMatchObject({ id: member.user.id, email: member.user.email });
    expect(JSON.stringify(json(files, "profile.json"))).not.toMatch(/hash|\$argon/);
    expect((await sharp(Buffer.from(files["avatar.webp"])).metadata()).format).toBe("webp");
    expect((json(files, "registrations.json") as { id: number }[]).map((r) => r.id)).toEqual([registration.id]);
    // Sent from the same address in other letters: it is theirs too.
    expect((json(files, "requests.json") as { id: number }[]).map((r) => r.id)).toEqual([application.id]);
    const sessions = json(files, "sessions.json") as { ip: string }[];
    expect(sessions[0]?.ip).toBe("203.0.113.9");
    expect(JSON.stringify(sessions)).not.toContain(member.token);
    const mails = json(files, "mails.json") as { mails: { subject: string }[] };
    expect(mails.mails.length).toBeGreaterThan(0);
    expect((json(files, "notifications.json") as { follows: { kind: string }[] }).follows).toEqual([
      expect.objectContaining({ kind: "news", delivery: "digest" }),
    ]);
    expect(json(files, "groups.json")).toEqual([
      { id: group.id, name: "Export trial group", is_chair: false, created_at: expect.any(String) },
    ]);
    const audit = json(files, "audit-log.json") as { action: string }[];
    expect(audit.map((row) => row.action)).toContain("sign_in");

    // Audited, as the secretariat's log shows.
    const rows = await t.database.db
      .selectFrom("audit_log")
      .select(["action", "summary"])
      .where("actor_id", "=", member.user.id)
      .where("action", "=", "data_exported")
      .execute();
    expect(rows).toEqual([{ action: "data_exported", summary: "Downloaded their personal data" }]);
  });

  it("is limited to five downloads an hour, with the wait said", async () => {
    const member = await signIn(t.runtime.services, "member");
    for (let i = 0; i < 5; i += 1) {
      const { response } = await download("/api/dashboard/user/export", member.token);
      expect(response.status).toBe(200);
    }
    const refused = await call(t.app, "GET", "/api/dashboard/user/export", { token: member.token });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.json?.message).toMatch(/^You downloaded your data 5 times in the last hour\. Please try again in/);
  });

  it("writes every audit row of a long history, read a page at a time, and no one else's", async () => {
    const member = await signIn(t.runtime.services, "member");
    const other = await signIn(t.runtime.services, "member");
    const stamp = clock.toISOString();
    // Two and a half pages of the archive's reads (1 000 rows each), with another person's between.
    const rows = Array.from({ length: 2_500 }, (_, n) => ({
      created_at: stamp,
      actor_id: n % 2 === 0 ? member.user.id : other.user.id,
      actor_name: "Someone",
      action: "update",
      entity: "company",
      entity_id: String(n),
      summary: `Change ${n}`,
    }));
    for (let start = 0; start < rows.length; start += 500) {
      await t.database.db
        .insertInto("audit_log")
        .values(rows.slice(start, start + 500))
        .execute();
    }
    const { response, files } = await download("/api/dashboard/user/export", member.token);
    expect(response.status).toBe(200);
    const audit = json(files, "audit-log.json") as { summary: string }[];
    const changes = audit.filter((row) => row.summary.startsWith("Change "));
    expect(changes).toHaveLength(1_250);
    expect(new Set(changes.map((row) => row.summary)).size).toBe(1_250);
    expect(changes.every((row) => Number(row.summary.slice(7)) % 2 === 0)).toBe(true);
  });

  it("is for members only: a visitor gets 401", async () => {
    expect((await call(t.app, "GET", "/api/dashboard/user/export")).status).toBe(401);
    expect((await call(t.app, "POST", "/api/dashboard/user/delete", { json: { password: "x" } })).status).toBe(401);
  });

  it("deletes their account with the password: sessions, picture, follows go; requests anonymised; the company loses a representative; a news post keeps its author's name", async () => {
    const member = await signIn(t.runtime.services, "member");
    const db = t.database.db;
    await t.runtime.services.profile.setAvatar(
      member.user.id,
      new Uint8Array(
        await sharp({ create: { width: 64, height: 64, channels: 3, background: "#000" } })
          .png()
          .toBuffer(),
      ),
    );
    const avatar = (
      await db.selectFrom("users").select("avatar").where("id", "=", member.user.id).executeTakeFirstOrThrow()
    ).avatar as string;
    const stamp = clock.toISOString();
    const company = await db
      .insertInto("member_companies")
      .values({
        name: "Deleted Rep Marine",
        slug: "deleted-rep-marine",
        country: "NO",
        member_since: "2020-01-01",
        created_at: stamp,
        updated_at: stamp,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("company_representatives")
      .values({ user_id: member.user.id, company_id: company.id, created_at: stamp })
      .execute();
    await db
      .insertInto("news_posts")
      .values({
        slug: "by-a-leaver",
        title: "By a leaver",
        content: "<p>x</p>",
        excerpt: "x",
        author_name: "Test Author",
        published_at: stamp,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    await meeting("past-gathering", "2025-01-10");
    // Registered while the meeting was ahead.
    const today = clock;
    clock = new Date("2024-12-01T09:00:00Z");
    const past = await registerThroughForm(t, "/events/past-gathering", { now: clock, email: member.user.email });
    clock = today;
    const upcoming = await meeting("coming-gathering", "2099-02-01");
    const next = await registerThroughForm(t, "/events/coming-gathering", { now: clock, email: member.user.email });
    const seatsBefore = (
      await db
        .selectFrom("meetings")
        .select("registration_seats")
        .where("id", "=", upcoming.id)
        .executeTakeFirstOrThrow()
    ).registration_seats;

    const wrong = await call(t.app, "POST", "/api/dashboard/user/delete", {
      token: member.token,
      json: { password: "not it" },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.json?.errors).toEqual({ password: ["The password is not right."] });
    expect(await db.selectFrom("users").select("id").where("id", "=", member.user.id).executeTakeFirst()).toBeDefined();

    const deleted = await call(t.app, "POST", "/api/dashboard/user/delete", {
      token: member.token,
      json: { password: member.password },
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json?.erased).toEqual({
      account: true,
      requests: 2,
      registrations_cancelled: 1,
      mails: expect.any(Number),
    });
    expect(deleted.headers.get("set-cookie")).toMatch(/auth\.session=;/);

    expect(
      await db.selectFrom("users").select("id").where("id", "=", member.user.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await db.selectFrom("sessions").select("id").where("user_id", "=", member.user.id).execute()).toEqual([]);
    expect(
      await db.selectFrom("company_representatives").selectAll().where("company_id", "=", company.id).execute(),
    ).toEqual([]);
    expect((await call(t.app, "GET", "/api/dashboard/user/export", { token: member.token })).status).toBe(401);
    const erased = await db
      .selectFrom("join_requests")
      .select([
        "id",
        "representative_name",
        "email",
        "phone_number",
        "user_id",
        "anonymised_at",
        "company_name",
        "registration_status",
      ])
      .where("id", "in", [past.id, next.id])
      .orderBy("id")
      .execute();
    expect(erased).toEqual([
      expect.objectContaining({
        id: past.id,
        representative_name: ERASED_NAME,
        email: ERASED_EMAIL,
        phone_number: null,
        anonymised_at: clock.toISOString(),
        company_name: "Baltic Bridge Sp. z o.o.",
      }),
      expect.objectContaining({
        id: next.id,
        representative_name: ERASED_NAME,
        email: ERASED_EMAIL,
        registration_status: "cancelled",
      }),
    ]);
    // The upcoming seat went back to the meeting.
    const seatsAfter = (
      await db
        .selectFrom("meetings")
        .select("registration_seats")
        .where("id", "=", upcoming.id)
        .executeTakeFirstOrThrow()
    ).registration_seats;
    expect(seatsAfter).toBe(seatsBefore - 1);
    expect(
      await db.selectFrom("mail_queue").select("id").where("to_address", "=", member.user.email).execute(),
    ).toEqual([]);
    // The picture's files are gone.
    const picture = await t.app.request(avatar);
    expect(picture.status).toBe(404);
    const post = await db
      .selectFrom("news_posts")
      .select("author_name")
      .where("slug", "=", "by-a-leaver")
      .executeTakeFirstOrThrow();
    expect(post.author_name).toBe("Test Author");
    const row = await db
      .selectFrom("audit_log")
      .select(["action", "actor_id", "actor_name", "summary", "changes"])
      .where("action", "=", "account_deleted")
      .where("entity_id", "=", String(member.user.id))
      .executeTakeFirstOrThrow();
    expect(row.actor_id).toBeNull();
    expect(row.summary).toMatch(
      /^Deleted their own account \(2 requests anonymised, 1 upcoming registration\(s\) cancelled/,
    );
    expect(row.changes ?? "").not.toContain(member.user.email);
  });

  it("asks for the second factor when it is on", async () => {
    const member = await signIn(t.runtime.services, "member");
    const { secret } = await t.runtime.services.twoFactor.beginSetup(member.user);
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    await t.runtime.services.twoFactor.confirmSetup(member.user, totp.generate({ timestamp: clock.getTime() }));
    clock = new Date(clock.getTime() + 31_000);
    const without = await call(t.app, "POST", "/api/dashboard/user/delete", {
      token: member.token,
      json: { password: member.password },
    });
    expect(without.status).toBe(422);
    expect(Object.keys(without.json?.errors as object)).toEqual(["code"]);
    const wrong = await call(t.app, "POST", "/api/dashboard/user/delete", {
      token: member.token,
      json: { password: member.password, code: "000000" },
    });
    expect(wrong.status).toBe(422);
    const right = await call(t.app, "POST", "/api/dashboard/user/delete", {
      token: member.token,
      json: { password: member.password, code: totp.generate({ timestamp: clock.getTime() }) },
    });
    expect(right.status, right.text).toBe(200);
    expect(
      await t.database.db
        .selectFrom("user_two_factor")
        .select("user_id")
        .where("user_id", "=", member.user.id)
        .execute(),
    ).toEqual([]);
  });

  it("refuses the last admin", async () => {
    const db = t.database.db;
    const others = await db.selectFrom("users").select("id").where("role", "=", "admin").execute();
    await db.updateTable("users").set({ role: "member" }).where("role", "=", "admin").execute();
    try {
      const admin = await signIn(t.runtime.services, "admin");
      const refused = await call(t.app, "POST", "/api/dashboard/user/delete", {
        token: admin.token,
        json: { password: admin.password },
      });
      expect(refused.status).toBe(409);
      expect(refused.json?.message).toBe(LAST_ADMIN_DELETION);
      expect(
        await db.selectFrom("users").select("id").where("id", "=", admin.user.id).executeTakeFirst(),
      ).toBeDefined();
      await db.deleteFrom("users").where("id", "=", admin.user.id).execute();
    } finally {
      if (others.length > 0)
        await db
          .updateTable("users")
          .set({ role: "admin" })
          .where(
            "id",
            "in",
            others.map((o) => o.id),
          )
          .execute();
    }
  });
});

describe("the secretariat answers a request about anyone", () => {
  it("finds, exports and erases an applicant who never had an account", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const member = await signIn(t.runtime.services, "member");
    const email = "Applicant.Without@Account.example";
    const sent = await registerThroughForm(t, "/join", { now: clock, email });
    const other = await registerThroughForm(t, "/join", { now: clock, email: "someone.else@example.org" });

    expect(
      (await call(t.app, "GET", `/api/dashboard/privacy?email=${encodeURIComponent(email)}`, { token: member.token }))
        .status,
    ).toBe(403);
    const bad = await call(t.app, "GET", "/api/dashboard/privacy?email=not-an-address", { token: admin.token });
    expect(bad.status).toBe(422);

    const found = await call(t.app, "GET", `/api/dashboard/privacy?email=${encodeURIComponent(email.toLowerCase())}`, {
      token: admin.token,
    });
    expect(found.status).toBe(200);
    const lookup = found.json?.found as {
      account: unknown;
      requests: { id: number }[];
      mails: { waiting: number; sent: number };
    };
    expect(lookup.account).toBeNull();
    expect(lookup.requests.map((r) => r.id)).toEqual([sent.id]);
    expect(lookup.mails.waiting + lookup.mails.sent).toBeGreaterThan(0);

    const { response, files } = await download(
      `/api/dashboard/privacy/export?email=${encodeURIComponent(email)}`,
      admin.token,
    );
    expect(response.status).toBe(200);
    expect(Object.keys(files)).not.toContain("profile.json");
    expect((json(files, "requests.json") as { id: number }[]).map((r) => r.id)).toEqual([sent.id]);

    const mismatch = await call(t.app, "POST", "/api/dashboard/privacy/erase", {
      token: admin.token,
      json: { email, confirm: "other@example.org" },
    });
    expect(mismatch.status).toBe(422);
    const erased = await call(t.app, "POST", "/api/dashboard/privacy/erase", {
      token: admin.token,
      json: { email, confirm: email },
    });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.json?.erased).toMatchObject({ account: false, requests: 1 });
    const rows = await t.database.db
      .selectFrom("join_requests")
      .select(["id", "email", "anonymised_at"])
      .where("id", "in", [sent.id, other.id])
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { id: sent.id, email: ERASED_EMAIL, anonymised_at: clock.toISOString() },
      { id: other.id, email: "someone.else@example.org", anonymised_at: null },
    ]);
    const again = await call(t.app, "GET", `/api/dashboard/privacy?email=${encodeURIComponent(email)}`, {
      token: admin.token,
    });
    expect((again.json?.found as { requests: unknown[] } | undefined)?.requests).toEqual([]);
    const audit = await t.database.db
      .selectFrom("audit_log")
      .select(["summary", "actor_id"])
      .where("action", "=", "data_erased")
      .execute();
    expect(audit.map((row) => row.actor_id)).toEqual([admin.user.id]);
    expect(audit[0].summary).toMatch(
      /^Erased the personal data held about A\*\*\*@Account\.example \(1 request anonymised, \d+ mails? removed\)$/,
    );
    // Nothing the log kept names the address in full, the export's row included.
    const rowsNow = await t.database.db.selectFrom("audit_log").select(["action", "summary", "changes"]).execute();
    const exported = rowsNow.filter((row) => row.action === "data_exported");
    expect(exported.map((row) => row.summary)).toContain("Exported the personal data held about A***@Account.example");
    for (const row of rowsNow)
      expect(`${row.summary} ${row.changes ?? ""}`.toLowerCase()).not.toContain(email.toLowerCase());
  });

  it("erases a member's account too, but never the admin's own", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const { user } = await createUser(t.runtime.services, { email: "leaving.member@example.org" });
    const own = await call(t.app, "POST", "/api/dashboard/privacy/erase", {
      token: admin.token,
      json: { email: admin.user.email, confirm: admin.user.email },
    });
    expect(own.status).toBe(403);
    expect(own.json?.message).toBe(OWN_ERASURE);
    const erased = await call(t.app, "POST", "/api/dashboard/privacy/erase", {
      token: admin.token,
      json: { email: user.email, confirm: user.email },
    });
    expect(erased.status).toBe(200);
    expect(erased.json?.erased).toMatchObject({ account: true });
    expect(
      await t.database.db.selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst(),
    ).toBeUndefined();
  });
});
