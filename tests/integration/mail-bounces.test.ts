import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { startSmtpServer } from "../support/smtp";

/**
 * Addresses that refuse mail for good are not mailed again (issue 35, decision 0078), against a
 * real SMTP server in this process and a real database (SQLite or PostgreSQL): a 5xx answer to
 * RCPT TO marks the address and fails the mail at once; a later mail to it never reaches the
 * server; a 4xx (or a refusal of the message's content) is retried as before; the secretariat's
 * resend lifts the mark.
 */
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestContext;
let now = new Date("2026-03-02T09:00:00.000Z");
const clock = () => new Date(now);
const later = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url }, { clock });
});
afterAll(async () => {
  await t?.runtime.services.mail.stop();
  await t?.close();
  await smtp?.close();
});

const db = () => t.database.db;

/** Queues one mail and waits for the sender to have dealt with it. */
async function send(to: string, subject: string, join_request_id: number | null = null): Promise<number> {
  await t.runtime.services.mail.queue([
    { join_request_id, purpose: "acknowledgement", to_address: to, reply_to: null, subject, body_text: "Hello." },
  ]);
  await t.runtime.services.mail.deliverDue();
  const row = await db().selectFrom("mail_queue").select("id").where("subject", "=", subject).executeTakeFirstOrThrow();
  return row.id;
}

const mailRow = (id: number) =>
  db()
    .selectFrom("mail_queue")
    .select(["status", "attempts", "last_error", "next_attempt_at", "sent_at"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

const bounces = () => db().selectFrom("mail_bounces").selectAll().orderBy("address").execute();

const USER_UNKNOWN = { code: 550, text: "5.1.1 <gone.away@example.org>: Recipient address rejected: User unknown" };

describe("a permanent refusal", () => {
  it("marks the address (lower-cased) with the reason and the mail, and fails the mail at once", async () => {
    smtp.refuse.set("gone.away@example.org", USER_UNKNOWN);
    const id = await send("Gone.Away@Example.org", "First mail to a gone address");
    const row = await mailRow(id);
    expect(row).toMatchObject({ status: "failed", attempts: 1, sent_at: null });
    expect(row.last_error).toBe(
      "Gone.Away@Example.org refused this mail permanently (550 5.1.1 <gone.away@example.org>: Recipient address rejected: User unknown); nothing more is sent to this address until a mail to it is resent.",
    );
    expect(await bounces()).toEqual([
      {
        address: "gone.away@example.org",
        reason: "550 5.1.1 <gone.away@example.org>: Recipient address rejected: User unknown",
        mail_id: id,
        created_at: now.toISOString(),
      },
    ]);
    expect(smtp.received).toEqual([]);

    // No retry: the next rounds, a minute and a day later, leave it as it is.
    const asked = smtp.recipients.length;
    later(61);
    await t.runtime.services.mail.deliverDue();
    later(86_400);
    await t.runtime.services.mail.deliverDue();
    expect(await mailRow(id)).toMatchObject({ status: "failed", attempts: 1 });
    expect(smtp.recipients).toHaveLength(asked);
  });

  it("keeps a later mail to the address from the mail server, and says why", async () => {
    const asked = smtp.recipients.length;
    const id = await send("gone.away@example.org", "Second mail to a gone address");
    const row = await mailRow(id);
    expect(row).toMatchObject({ status: "failed", attempts: 0, sent_at: null });
    expect(row.last_error).toBe(
      "Not sent: gone.away@example.org refused mail permanently on 2026-03-02 (550 5.1.1 <gone.away@example.org>: Recipient address rejected: User unknown). Resend once the address works again: that lifts the mark.",
    );
    // Never handed over: the server was not asked about the address again.
    expect(smtp.recipients).toHaveLength(asked);
    expect(smtp.received).toEqual([]);
  });
});

describe("a temporary refusal", () => {
  it("is retried as before, and the address is not marked", async () => {
    smtp.refuse.set("busy@example.org", { code: 450, text: "4.2.1 Mailbox busy, try again later" });
    const id = await send("busy@example.org", "A mail to a busy mailbox");
    const first = await mailRow(id);
    expect(first).toMatchObject({ status: "pending", attempts: 1 });
    expect(first.last_error).toContain("450 4.2.1 Mailbox busy");
    expect(first.next_attempt_at).toBe(new Date(now.getTime() + 60_000).toISOString());

    later(61);
    await t.runtime.services.mail.deliverDue();
    expect(await mailRow(id)).toMatchObject({ status: "pending", attempts: 2 });

    smtp.refuse.delete("busy@example.org");
    later(301);
    await t.runtime.services.mail.deliverDue();
    expect(await mailRow(id)).toMatchObject({ status: "sent", attempts: 3 });
    expect(smtp.received.map((m) => m.to)).toEqual([["busy@example.org"]]);
    expect((await bounces()).map((b) => b.address)).toEqual(["gone.away@example.org"]);
  });

  it("includes a refusal of the message itself (5xx at DATA, not about the mailbox): retried, the address not marked", async () => {
    smtp.setDataRefusal({ code: 554, text: "5.7.1 Message refused as spam" });
    try {
      const id = await send("reader@example.org", "A mail the server takes for spam");
      const row = await mailRow(id);
      expect(row).toMatchObject({ status: "pending", attempts: 1 });
      expect(row.last_error).toContain("554 5.7.1 Message refused as spam");
    } finally {
      smtp.setDataRefusal(null);
    }
    expect((await bounces()).map((b) => b.address)).toEqual(["gone.away@example.org"]);
  });
});

describe("the secretariat's resend", () => {
  it("shows why in the inbox, and lifts the mark: the mail and the next ones go", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const request = await db()
      .insertInto("join_requests")
      .values({
        kind: "message",
        company_name: null,
        representative_name: "Gone Away",
        email: "gone.away@example.org",
        phone_number: null,
        page_path: "/contact",
        ip: null,
        created_at: now.toISOString(),
        subject: "A question",
        message: "Hello",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const id = await send("gone.away@example.org", "Reply to a gone sender", request.id);

    const inbox = await call(t.app, "GET", "/api/dashboard/join-requests?kind=message", { token: admin.token });
    expect(inbox.status, inbox.text).toBe(200);
    expect(inbox.text).toContain(
      "Not sent: gone.away@example.org refused mail permanently on 2026-03-02 (550 5.1.1 <gone.away@example.org>: Recipient address rejected: User unknown). Resend once the address works again: that lifts the mark.",
    );

    // The person wrote from a new mailbox at the same address; the secretariat resends.
    smtp.refuse.delete("gone.away@example.org");
    const resent = await call(t.app, "POST", `/api/dashboard/mail/${id}/resend`, { token: admin.token });
    expect(resent.status, resent.text).toBe(200);
    expect(await bounces()).toEqual([]);
    await t.runtime.services.mail.deliverDue();
    expect(await mailRow(id)).toMatchObject({ status: "sent", attempts: 1, last_error: null });
    expect(smtp.received.filter((m) => m.to.includes("gone.away@example.org"))).toHaveLength(1);

    // And a new mail to the address goes without anyone's help.
    const next = await send("gone.away@example.org", "A new mail to a working address");
    expect(await mailRow(next)).toMatchObject({ status: "sent" });
  });

  it("answers 404 for a mail that is not failed, and leaves the marks alone", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    smtp.refuse.set("gone.away@example.org", USER_UNKNOWN);
    const failed = await send("gone.away@example.org", "Refused once more");
    expect(await mailRow(failed)).toMatchObject({ status: "failed" });
    const sent = await send("reader2@example.org", "A mail that went");
    const refused = await call(t.app, "POST", `/api/dashboard/mail/${sent}/resend`, { token: admin.token });
    expect(refused.status).toBe(404);
    expect((await bounces()).map((b) => b.address)).toEqual(["gone.away@example.org"]);
  });
});
