import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, createTestContext, type TestContext } from "../support/app";
import { createUser, PASSWORD, signIn } from "../support/factories";
import { formTimeAt } from "../support/form-time";
import { type ReceivedMail, startSmtpServer, tokenIn } from "../support/smtp";

/**
 * Every write is one transaction (issue 12): a password reset, an invitation
 * and its acceptance, a deactivation, a join request with its mails. Each test
 * makes one later step fail with a real database trigger and shows that the
 * earlier steps were not committed either.
 */
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestContext;
const triggers: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
afterEach(async () => {
  for (const table of triggers.splice(0)) await dropRefusal(table);
  await t.database.db.deleteFrom("rate_limits").execute();
  smtp.received.length = 0;
});

/** Makes the database refuse `operation` on `table`, as a full disk or a broken constraint would. */
async function refuse(operation: "INSERT" | "UPDATE" | "DELETE", table: string) {
  const db = t.database.db;
  if (t.database.dialect === "sqlite") {
    await sql
      .raw(
        `CREATE TRIGGER refuse_${table} BEFORE ${operation} ON ${table} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
      )
      .execute(db);
  } else {
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION refuse_write() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER refuse_${table} BEFORE ${operation} ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse_write()`,
      )
      .execute(db);
  }
  triggers.push(table);
}

async function dropRefusal(table: string) {
  const on = t.database.dialect === "sqlite" ? "" : ` ON ${table}`;
  await sql.raw(`DROP TRIGGER IF EXISTS refuse_${table}${on}`).execute(t.database.db);
}

async function lastLink(route: string): Promise<string> {
  await t.runtime.services.mail.deliverDue();
  const mail: ReceivedMail | undefined = smtp.received.at(-1);
  const token = tokenIn(mail, route);
  if (!token) throw new Error(`no ${route} link was mailed`);
  return token;
}

describe("one transaction per write", () => {
  it("a password reset that cannot end the sessions changes nothing: the link still works, the old password too", async () => {
    const { user } = await createUser(t.runtime.services);
    await signIn(t.runtime.services, "member"); // another user's session, so the table is not empty
    const session = await t.runtime.services.auth.login({ email: user.email, password: PASSWORD }, { ip: "192.0.2.1" });
    await call(t.app, "POST", "/api/forgot-password", { json: { email: user.email } });
    const token = await lastLink("/reset-password");

    await refuse("DELETE", "sessions");
    const failed = await call(t.app, "POST", "/api/reset-password", {
      json: { token, password: "harbour-light-7-knots", password_confirmation: "harbour-light-7-knots" },
    });
    expect(failed.status).toBe(500);
    await dropRefusal("sessions");

    expect(await t.runtime.services.passwordReset.isUsable(token)).toBe(true);
    expect(await t.runtime.services.auth.authenticate(session.token)).not.toBeNull();
    const oldPassword = await call(t.app, "POST", "/api/login", { json: { email: user.email, password: PASSWORD } });
    expect(oldPassword.status).toBe(200);
  });

  it("a link request whose mail cannot be queued leaves no new link and keeps the earlier one", async () => {
    const { user } = await createUser(t.runtime.services);
    await call(t.app, "POST", "/api/forgot-password", { json: { email: user.email } });
    const first = await lastLink("/reset-password");
    await refuse("INSERT", "mail_queue");
    await call(t.app, "POST", "/api/forgot-password", { json: { email: user.email } });
    await dropRefusal("mail_queue");
    // Retiring the first link was rolled back with the new link's insert.
    expect(await t.runtime.services.passwordReset.isUsable(first)).toBe(true);
    const links = await t.database.db
      .selectFrom("one_time_tokens")
      .select("id")
      .where("user_id", "=", user.id)
      .where("kind", "=", "password_reset")
      .execute();
    expect(links).toHaveLength(1);
  });

  it("an invitation whose mail cannot be queued leaves no account and no link", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    await refuse("INSERT", "mail_queue");
    const failed = await call(t.app, "POST", "/api/dashboard/users", {
      token: admin.token,
      json: { first_name: "Ines", last_name: "Invite", email: "ines.invite@example.org", role: "member" },
    });
    expect(failed.status).toBe(500);
    const users = await t.database.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", "ines.invite@example.org")
      .execute();
    expect(users).toEqual([]);
  });

  it("an acceptance that cannot set the password leaves the link usable", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const invited = await call(t.app, "POST", "/api/dashboard/users", {
      token: admin.token,
      json: { first_name: "Alva", last_name: "Accept", email: "alva.accept@example.org", role: "member" },
    });
    expect(invited.status).toBe(201);
    const token = await lastLink("/welcome");
    await refuse("UPDATE", "users");
    const failed = await call(t.app, "POST", "/api/welcome", {
      json: { token, password: "harbour-light-7-knots", password_confirmation: "harbour-light-7-knots" },
    });
    expect(failed.status).toBe(500);
    await dropRefusal("users");
    expect(await t.runtime.services.invitations.describe(token)).toMatchObject({ email: "alva.accept@example.org" });
  });

  it("a deactivation that cannot end the sessions leaves the account active", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const member = await signIn(t.runtime.services, "member");
    await refuse("DELETE", "sessions");
    const failed = await call(t.app, "PATCH", `/api/dashboard/users/${member.user.id}`, {
      token: admin.token,
      json: { is_active: false },
    });
    expect(failed.status).toBe(500);
    await dropRefusal("sessions");
    const row = await t.database.db
      .selectFrom("users")
      .select("is_active")
      .where("id", "=", member.user.id)
      .executeTakeFirstOrThrow();
    expect(row.is_active).toBe(1);
    expect(await t.runtime.services.auth.authenticate(member.token)).not.toBeNull();
  });

  it("a join request whose mails cannot be queued is not stored", async () => {
    await refuse("INSERT", "mail_queue");
    const failed = await call(t.app, "POST", "/api/join", {
      json: {
        company_name: "Atomic Anchors Ltd",
        representative_name: "Ada Atomic",
        email: "ada@atomic-anchors.example",
        phone_number: "+44 20 7946 0001",
        // Shown 20 s ago by the site's page (decision 0039): not probable spam, so its mails are queued.
        started_at: await formTimeAt(t.database.db, "join", Date.now() - 20_000),
      },
    });
    expect(failed.status).toBe(500);
    await dropRefusal("mail_queue");
    const stored = await t.database.db
      .selectFrom("join_requests")
      .select("id")
      .where("email", "=", "ada@atomic-anchors.example")
      .execute();
    expect(stored).toEqual([]);
    // With the queue working again, the request and its mail are stored together.
    const sent = await call(t.app, "POST", "/api/join", {
      json: {
        company_name: "Atomic Anchors Ltd",
        representative_name: "Ada Atomic",
        email: "ada@atomic-anchors.example",
        phone_number: "+44 20 7946 0001",
        // Shown 20 s ago by the site's page (decision 0039): not probable spam, so its mails are queued.
        started_at: await formTimeAt(t.database.db, "join", Date.now() - 20_000),
      },
    });
    expect(sent.status).toBeLessThan(300);
    const mails = await t.database.db
      .selectFrom("mail_queue")
      .innerJoin("join_requests", "join_requests.id", "mail_queue.join_request_id")
      .select("mail_queue.purpose")
      .where("join_requests.email", "=", "ada@atomic-anchors.example")
      .execute();
    // The test site has no site.email, so only the sender's acknowledgement is queued.
    expect(mails.map((m) => m.purpose)).toEqual(["acknowledgement"]);
  });
});
