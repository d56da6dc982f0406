import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ICAL from "ical.js";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMailRepository, type NewMail } from "../../core/mail/mail.repository";
import { createMailService, RETRY_DELAYS_SECONDS } from "../../core/mail/mail.service";
import { type InvitationOptions, invitationAttachment } from "../../core/meetings/invitation";
import type { CalendarMeeting } from "../../core/meetings/meetings.calendar";
import { createMailTransport } from "../../lib/mail";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { mimeParts, startSmtpServer } from "../support/smtp";

/**
 * Attachments on queued mail (decision 0053): stored with the mail in the caller's transaction, sent
 * by the queue through nodemailer to a real SMTP server in this process, and read back from the raw
 * message: a calendar invitation as a text/calendar part with its method, other files as attachments.
 */

let database: TestDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let outboxDir: string;
let now = new Date("2026-09-02T08:00:00Z");
const clock = () => now;

const MEETING: CalendarMeeting = {
  id: 42,
  slug: "annual-conference-2026",
  title: "Annual Conference 2026",
  type: "conference",
  start_date: "2026-10-24",
  end_date: "2026-10-25",
  timezone: "Europe/Amsterdam",
  location: "RAI, Europaplein 24 — Zuidas, Amsterdam",
  online: false,
  description: "Two days on marine electronics.",
  url: "https://masthead.example/events/annual-conference-2026",
  sequence: 0,
  updated_at: "2026-09-01T10:15:00.000Z",
  schedules: [
    { id: 7, meeting_date: "2026-10-24", start: "14:00", finish: "15:30", meeting_date_info: null, description: null },
  ],
};
const REGISTRATION = { id: 314, name: "Ingrid Solberg", email: "ingrid@nordicbridge.example" };
const INVITATION: InvitationOptions = {
  host: "masthead.example",
  organizer: { name: "Masthead", email: "secretariat@masthead.example" },
  sequence: 0,
  method: "REQUEST",
  now,
};
/** Not text: bytes that UTF-8 would not carry through unchanged. */
const BINARY = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0xfe, 0x80, 0x0a, 0x0d]);

function mail(overrides: Partial<NewMail> = {}): NewMail {
  return {
    join_request_id: null,
    purpose: "registration_confirmed",
    to_address: REGISTRATION.email,
    reply_to: null,
    subject: "Your registration is confirmed",
    body_text: "See you in Amsterdam.",
    ...overrides,
  };
}

function smtpService() {
  return createMailService({
    repository: createMailRepository(database.db),
    transport: createMailTransport({ smtpUrl: smtp.url, from: "Masthead <noreply@masthead.test>", outboxDir }),
    clock,
  });
}

const queued = () => database.db.selectFrom("mail_queue").selectAll().orderBy("id").execute();

/** A received message's text/calendar part, parsed, with its METHOD parameter. */
function calendarPart(raw: string) {
  const parts = mimeParts(raw).filter((p) => p.contentType === "text/calendar");
  expect(parts).toHaveLength(1);
  const root = new ICAL.Component(ICAL.parse(parts[0].body.toString("utf8")));
  return { part: parts[0], root, event: new ICAL.Event(root.getFirstSubcomponent("vevent") ?? undefined) };
}

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpServer();
  outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-outbox-"));
});
afterAll(async () => {
  await smtp.close();
  await database.cleanup();
  fs.rmSync(outboxDir, { recursive: true, force: true });
});
beforeEach(async () => {
  smtp.setRefusing(false);
  smtp.received.length = 0;
  await database.db.deleteFrom("mail_queue").execute();
});

describe("a queued mail with a calendar invitation", () => {
  it("goes out with a text/calendar part carrying METHOD=REQUEST, the same ICS as an invite.ics, and the text", async () => {
    const service = smtpService();
    const invitation = invitationAttachment(MEETING, REGISTRATION, INVITATION);
    await database.db.transaction().execute((trx) => service.enqueue([mail({ attachments: [invitation] })], trx));
    expect(await service.deliverDue()).toBe(1);

    expect(smtp.received).toHaveLength(1);
    const raw = smtp.received[0].raw;
    const parts = mimeParts(raw);
    const text = parts.find((p) => p.contentType === "text/plain");
    expect(text?.body.toString("utf8").trim()).toBe("See you in Amsterdam.");

    const { part, root, event } = calendarPart(raw);
    expect(part.params.method).toBe("REQUEST");
    expect(root.getFirstPropertyValue("method")).toBe("REQUEST");
    expect(event.uid).toBe("registration-314@masthead.example");
    expect(event.sequence).toBe(0);
    expect(event.location).toBe("RAI, Europaplein 24 — Zuidas, Amsterdam");
    expect(root.getAllSubcomponents("vtimezone").map((z) => z.getFirstPropertyValue("tzid"))).toEqual([
      "Europe/Amsterdam",
    ]);
    // The text/calendar part is an alternative to the text (what clients show as an invitation).
    expect(raw).toMatch(/Content-Type: multipart\/alternative/);
    // nodemailer also attaches the same file, for clients that only list attachments.
    const file = parts.find((p) => p.contentType === "application/ics");
    expect(file?.filename).toBe("invite.ics");
    expect(file?.body.toString("utf8")).toBe(invitation.content);
  });

  it("goes out as METHOD=CANCEL for a cancellation, with the invitation's UID", async () => {
    const service = smtpService();
    const cancel = invitationAttachment(MEETING, REGISTRATION, { ...INVITATION, method: "CANCEL", sequence: 1 });
    await service.queue([mail({ subject: "Your registration is cancelled", attachments: [cancel] })]);
    await service.deliverDue();
    expect(smtp.received).toHaveLength(1);
    const { part, root, event } = calendarPart(smtp.received[0].raw);
    expect(part.params.method).toBe("CANCEL");
    expect(root.getFirstPropertyValue("method")).toBe("CANCEL");
    expect(event.uid).toBe("registration-314@masthead.example");
    expect(event.sequence).toBe(1);
    expect(event.component.getFirstPropertyValue("status")).toBe("CANCELLED");
  });

  it("sends a binary attachment byte for byte beside the invitation", async () => {
    const service = smtpService();
    await service.queue([
      mail({
        attachments: [
          invitationAttachment(MEETING, REGISTRATION, INVITATION),
          {
            filename: "badge.pdf",
            contentType: "application/pdf",
            content: BINARY.toString("base64"),
            encoding: "base64",
          },
        ],
      }),
    ]);
    await service.deliverDue();
    const parts = mimeParts(smtp.received[0].raw);
    const pdf = parts.find((p) => p.contentType === "application/pdf");
    expect(pdf?.filename).toBe("badge.pdf");
    expect(pdf?.disposition).toBe("attachment");
    expect(pdf?.body.equals(BINARY)).toBe(true);
    expect(parts.filter((p) => p.contentType === "text/calendar")).toHaveLength(1);
  });

  it("keeps its attachments through a refused attempt and sends them on the retry", async () => {
    const service = smtpService();
    smtp.setRefusing(true);
    await service.queue([mail({ attachments: [invitationAttachment(MEETING, REGISTRATION, INVITATION)] })]);
    await service.deliverDue();
    expect(smtp.received).toHaveLength(0);
    expect((await queued()).map((m) => [m.status, m.attempts])).toEqual([["pending", 1]]);

    smtp.setRefusing(false);
    now = new Date(now.getTime() + RETRY_DELAYS_SECONDS[0] * 1000);
    await service.deliverDue();
    expect(smtp.received).toHaveLength(1);
    expect(calendarPart(smtp.received[0].raw).part.params.method).toBe("REQUEST");
  });

  it("writes the invitation into the outbox's .eml when there is no SMTP server", async () => {
    const written: string[] = [];
    const service = createMailService({
      repository: createMailRepository(database.db),
      transport: createMailTransport({
        from: "noreply@masthead.test",
        outboxDir,
        onWritten: (file) => written.push(file),
      }),
      clock,
    });
    await service.queue([mail({ attachments: [invitationAttachment(MEETING, REGISTRATION, INVITATION)] })]);
    await service.deliverDue();
    expect(written).toHaveLength(1);
    const { part, event } = calendarPart(fs.readFileSync(written[0], "utf8"));
    expect(part.params.method).toBe("REQUEST");
    expect(event.uid).toBe("registration-314@masthead.example");
  });
});

describe("storing attachments", () => {
  it("stores them with the mail in the caller's transaction, and not at all when it rolls back", async () => {
    const service = smtpService();
    const invitation = invitationAttachment(MEETING, REGISTRATION, INVITATION);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await service.enqueue([mail({ attachments: [invitation] })], trx);
        throw new Error("the registration failed");
      }),
    ).rejects.toThrow("the registration failed");
    expect(await queued()).toHaveLength(0);

    await database.db
      .transaction()
      .execute((trx) => service.enqueue([mail({ attachments: [invitation] }), mail()], trx));
    const rows = await queued();
    expect(rows).toHaveLength(2);
    expect(JSON.parse(rows[0].attachments ?? "null")).toEqual([invitation]);
    expect(rows[1].attachments).toBeNull();
  });

  it("sends a mail without attachments as plain text, as before", async () => {
    const service = smtpService();
    await service.queue([mail()]);
    await service.deliverDue();
    const parts = mimeParts(smtp.received[0].raw);
    expect(parts.map((p) => p.contentType)).toEqual(["text/plain"]);
    expect(smtp.received[0].raw).not.toMatch(/multipart/i);
  });

  it("refuses two invitations in one mail, a method on a part that is not a calendar, and base64 that is not", async () => {
    const service = smtpService();
    const invitation = invitationAttachment(MEETING, REGISTRATION, INVITATION);
    const refused: NewMail[] = [
      mail({ attachments: [invitation, { ...invitation, method: "CANCEL" }] }),
      mail({ attachments: [{ ...invitation, contentType: "text/plain" }] }),
      mail({
        attachments: [
          { filename: "x.pdf", contentType: "application/pdf", content: "not base64!", encoding: "base64" },
        ],
      }),
      mail({ attachments: [{ ...invitation, filename: "../../etc/passwd" }] }),
    ];
    for (const bad of refused) {
      await expect(database.db.transaction().execute((trx) => service.enqueue([mail(), bad], trx))).rejects.toThrow();
    }
    expect(await queued()).toHaveLength(0);
  });
});

describe("migration 0019", () => {
  it("gives every join request an invitation_sequence of 0 unless told otherwise", async () => {
    const { id } = await database.db
      .insertInto("join_requests")
      .values({
        kind: "join",
        meeting_id: null,
        company_name: "Nordic Bridge Systems AS",
        representative_name: "Ingrid Solberg",
        email: "ingrid@nordicbridge.example",
        phone_number: null,
        page_path: null,
        ip: null,
        created_at: now.toISOString(),
        subject: null,
        message: null,
        spam_reason: null,
        status: "new",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const read = () =>
      sql<{ invitation_sequence: number }>`select invitation_sequence from join_requests where id = ${id}`
        .execute(database.db)
        .then((r) => Number(r.rows[0].invitation_sequence));
    expect(await read()).toBe(0);
    await sql`update join_requests set invitation_sequence = invitation_sequence + 1 where id = ${id}`.execute(
      database.db,
    );
    expect(await read()).toBe(1);
    await expect(
      sql`update join_requests set invitation_sequence = null where id = ${id}`.execute(database.db),
    ).rejects.toThrow();
  });
});
