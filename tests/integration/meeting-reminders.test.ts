import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobRunner } from "../../core/jobs/jobs.service";
import { SITE_JOBS } from "../../core/jobs/site-jobs";
import { addDays } from "../../core/members/members.values";
import type { DatabaseHandle } from "../../db/connect";
import type { RegistrationStatus } from "../../db/types";
import { createLogger } from "../../lib/logger";
import type { Runtime } from "../../server/env";
import { buildRuntime, call, createTestContext, ORIGIN, type TestContext } from "../support/app";
import { reopen } from "../support/database";
import { signIn } from "../support/factories";
import { mailText, startSmtpServer } from "../support/smtp";

/**
 * Issue 32: "A reminder goes to confirmed attendees two days before the meeting (a setting; the job
 * meeting-reminders), once, whichever process is running." On a real database, SQLite or
 * PostgreSQL, through the mail queue to a real SMTP server; each meeting judged by its own zone.
 */
let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let second: DatabaseHandle;
let secondRuntime: Runtime;
/** The services' clock: 10:00 UTC on 15 January 2027 to start with. */
let now = new Date("2027-01-15T10:00:00Z");
const clock = () => new Date(now);

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url }, { clock });
  second = reopen(t.database);
  secondRuntime = buildRuntime(t.runtime.config, second, clock);
});
afterAll(async () => {
  await second.destroy();
  await t.close();
  await smtp.close();
});

const services = () => t.runtime.services;
const today = () => now.toISOString().slice(0, 10);

let meetings = 0;
async function meeting(start: string, fields: { timezone?: string; visibility?: "public" | "members" } = {}) {
  meetings += 1;
  const stamp = now.toISOString();
  return t.database.db
    .insertInto("meetings")
    .values({
      slug: `reminded-meeting-${meetings}`,
      title: `Reminded Meeting ${meetings}`,
      type: "meeting",
      meeting_type: "In person",
      organization: "Masthead",
      start_date: start,
      end_date: addDays(start, 1),
      location: "Rotterdam, Netherlands",
      information: null,
      health: null,
      registration: null,
      content_title: null,
      content: "<p>The programme.</p>",
      timezone: fields.timezone ?? "Europe/Amsterdam",
      visibility: fields.visibility ?? "public",
      created_at: stamp,
      updated_at: stamp,
    })
    .returning(["id", "slug"])
    .executeTakeFirstOrThrow();
}

let people = 0;
async function registration(meetingId: number, status: RegistrationStatus) {
  people += 1;
  const email = `attendee-${people}@reminders.example`;
  const row = await t.database.db
    .insertInto("join_requests")
    .values({
      kind: "registration",
      meeting_id: meetingId,
      company_name: "Reminder Marine AS",
      representative_name: `Attendee ${people}`,
      email,
      phone_number: "+47 22 00 00 00",
      page_path: "/conference",
      ip: null,
      created_at: now.toISOString(),
      subject: null,
      message: null,
      spam_reason: null,
      status: null,
      registration_status: status,
      registration_email: status === "declined" || status === "cancelled" ? null : email,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, email };
}

async function reminders(afterId = 0) {
  return t.database.db
    .selectFrom("mail_queue")
    .select(["id", "to_address", "subject", "body_text", "join_request_id"])
    .where("purpose", "=", "meeting_reminder")
    .where("id", ">", afterId)
    .orderBy("id")
    .execute();
}
const lastMailId = async () =>
  Number(
    (
      await t.database.db
        .selectFrom("mail_queue")
        .select((eb) => eb.fn.max("id").as("id"))
        .executeTakeFirst()
    )?.id ?? 0,
  );
const send = (runtime: Runtime = t.runtime) => runtime.services.meetingReminders.sendReminders({ origin: ORIGIN });

describe("meeting reminders", () => {
  it("go once to each confirmed attendee of a meeting two days away, not to the others, nor for other days", async () => {
    now = new Date("2027-01-15T10:00:00Z");
    const soon = await meeting(addDays(today(), 2));
    const later = await meeting(addDays(today(), 3));
    const started = await meeting(today());
    const confirmed = [await registration(soon.id, "confirmed"), await registration(soon.id, "confirmed")];
    for (const status of ["pending", "waitlisted", "declined", "cancelled"] as const) {
      await registration(soon.id, status);
    }
    await registration(later.id, "confirmed");
    await registration(started.id, "confirmed");
    const before = await lastMailId();

    expect(await send()).toEqual({ sent: 2, meetings: 1 });
    const mails = await reminders(before);
    expect(mails.map((m) => m.to_address).sort()).toEqual(confirmed.map((r) => r.email).sort());
    expect(mails.map((m) => m.join_request_id).sort()).toEqual(confirmed.map((r) => r.id).sort());
    // Again, and from the other connection: nothing more.
    expect(await send()).toEqual({ sent: 0, meetings: 0 });
    expect(await send(secondRuntime)).toEqual({ sent: 0, meetings: 0 });
    expect(await reminders(before)).toHaveLength(2);

    // The next day the later meeting is two days away; the first is not reminded again.
    now = new Date("2027-01-16T10:00:00Z");
    expect(await send()).toEqual({ sent: 1, meetings: 1 });
    for (const r of confirmed) expect(await services().meetingReminders.sentTo(r.id)).toHaveLength(1);
  });

  it("say the meeting, its dates, its place and its page, absolutely, without quoting the form, and reach the SMTP server", async () => {
    now = new Date("2028-03-01T09:00:00Z");
    const members = await meeting("2028-03-03", { visibility: "members" });
    const attendee = await registration(members.id, "confirmed");
    expect((await send()).sent).toBe(1);
    const [mail] = (await reminders()).filter((m) => m.to_address === attendee.email);
    expect(mail.subject).toBe(`Reminder: Reminded Meeting ${meetings} starts on 3 March 2028`);
    expect(mail.body_text).toContain("When: 3 March 2028 to 4 March 2028\nWhere: Rotterdam, Netherlands");
    // A members-only meeting's page is in the members' area.
    expect(mail.body_text).toContain(`${ORIGIN}/dashboard/events/${members.slug}`);
    expect(mail.body_text).not.toContain("Attendee");
    await services().mail.deliverDue();
    const received = smtp.received.find((m) => m.to.includes(attendee.email));
    expect(received).toBeDefined();
    expect(mailText(received as (typeof smtp.received)[number])).toContain("your registration is confirmed");
  });

  it("judge 'two days before' by the meeting's own calendar, not the server's", async () => {
    // 20:00 UTC on 10 May is already 11 May in Auckland (UTC+12): a meeting on 13 May there is two days away.
    now = new Date("2029-05-10T20:00:00Z");
    const auckland = await meeting("2029-05-13", { timezone: "Pacific/Auckland" });
    const london = await meeting("2029-05-13", { timezone: "Europe/London" });
    const far = await registration(auckland.id, "confirmed");
    const near = await registration(london.id, "confirmed");
    const before = await lastMailId();
    expect((await send()).sent).toBe(1);
    expect((await reminders(before)).map((m) => m.to_address)).toEqual([far.email]);
    now = new Date("2029-05-11T08:00:00Z");
    expect((await send()).sent).toBe(1);
    expect((await reminders(before)).map((m) => m.to_address)).toEqual([far.email, near.email]);
  });

  it("are owed again for a meeting moved to a new date, and not sent for a registration cancelled since", async () => {
    now = new Date("2030-06-01T10:00:00Z");
    const moved = await meeting("2030-06-03");
    const attendee = await registration(moved.id, "confirmed");
    expect((await send()).sent).toBe(1);
    await t.database.db.updateTable("meetings").set({ start_date: "2030-06-10" }).where("id", "=", moved.id).execute();
    now = new Date("2030-06-08T10:00:00Z");
    expect((await send()).sent).toBe(1);
    expect((await services().meetingReminders.sentTo(attendee.id)).map((r) => r.meeting_start)).toEqual([
      "2030-06-03",
      "2030-06-10",
    ]);
    const gone = await registration(moved.id, "cancelled");
    expect((await send()).sent).toBe(0);
    expect(await services().meetingReminders.sentTo(gone.id)).toEqual([]);
  });

  it("are queued once when two processes run at the same moment (the unique key, not the job's lease)", async () => {
    now = new Date("2031-09-01T10:00:00Z");
    const busy = await meeting("2031-09-03");
    const attendees = [];
    for (let i = 0; i < 8; i++) attendees.push(await registration(busy.id, "confirmed"));
    const before = await lastMailId();
    // On PostgreSQL both at once: each insert waits for the other's commit and finds the key taken.
    // SQLite's two connections in one Node process cannot interleave transactions.
    const [a, b] =
      t.database.dialect === "postgres"
        ? await Promise.all([send(t.runtime), send(secondRuntime)])
        : [await send(t.runtime), await send(secondRuntime)];
    expect(a.sent + b.sent).toBe(8);
    expect((await reminders(before)).map((m) => m.to_address).sort()).toEqual(attendees.map((r) => r.email).sort());
  });

  it("follow the setting meetings.reminder_days (0: none), which the settings API takes and checks", async () => {
    now = new Date("2032-02-01T10:00:00Z");
    const admin = (await signIn(services(), "admin")).token;
    const bad = await call(t.app, "PATCH", "/api/dashboard/settings", {
      token: admin,
      json: { "meetings.reminder_days": "90" },
    });
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({
      errors: {
        "meetings.reminder_days": [
          "The meeting reminder must be sent a whole number of days from 0 (no reminder) to 60 before the meeting.",
        ],
      },
    });
    const week = await meeting("2032-02-08");
    const attendee = await registration(week.id, "confirmed");
    expect((await send()).sent).toBe(0);
    const saved = await call(t.app, "PATCH", "/api/dashboard/settings", {
      token: admin,
      json: { "meetings.reminder_days": "7" },
    });
    expect(saved.status, saved.text).toBe(200);
    expect((await send()).sent).toBe(1);
    const off = await call(t.app, "PATCH", "/api/dashboard/settings", {
      token: admin,
      json: { "meetings.reminder_days": "0" },
    });
    expect(off.status).toBe(200);
    await registration(week.id, "confirmed");
    expect((await send()).sent).toBe(0);
    expect(await services().meetingReminders.sentTo(attendee.id)).toHaveLength(1);
    await call(t.app, "PATCH", "/api/dashboard/settings", { token: admin, json: { "meetings.reminder_days": "2" } });
  });

  it("run through the job runner and log what they queued", async () => {
    now = new Date("2033-04-01T10:00:00Z");
    const due = await meeting("2033-04-03");
    await registration(due.id, "confirmed");
    await registration(due.id, "confirmed");
    const runner = createJobRunner({
      db: t.database.db,
      services: services(),
      jobs: SITE_JOBS,
      origin: ORIGIN,
      logger: createLogger("silent"),
      clock,
    });
    const result = await runner.runNow("meeting-reminders");
    expect(result).toMatchObject({ outcome: "ok", summary: "2 meeting reminders queued (1 meeting)." });
    expect((await runner.runNow("meeting-reminders")).summary).toBe("0 meeting reminders queued (0 meetings).");
    expect(SITE_JOBS.find((job) => job.name === "meeting-reminders")?.schedule).toBe("0 8 * * *");
  });
});
