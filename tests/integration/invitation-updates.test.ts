import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type MeetingInput, meetingInputSchema, scheduleInputSchema } from "../../core/meetings/meetings.schema";
import { createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { registerThroughForm } from "../support/registrations";
import { mailText, mimeParts, startSmtpServer } from "../support/smtp";

/**
 * Issue 32: "when a confirmed meeting's dates, times or place change, confirmed attendees get the
 * updated invitation (SEQUENCE + 1)" (decision 0058). Meetings edited through the admin service the
 * screens and the API call, mails delivered to a real SMTP server, their ICS parsed back with ical.js;
 * on SQLite or PostgreSQL.
 */
let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const now = new Date("2026-11-20T10:00:00Z");
const admin = { id: null, name: "The secretariat" };

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ JOIN_RATE_LIMIT: "1000", SMTP_URL: smtp.url }, { clock: () => new Date(now) });
  await t.runtime.services.settings.set({ "site.email": "secretariat@masthead.test" });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

let meetings = 0;
/** A meeting's fields as the admin's form sends them. */
function fields(n: number, changes: Partial<MeetingInput> = {}) {
  return meetingInputSchema.parse({
    title: `Moved Meeting ${n}`,
    type: "workshop",
    start_date: "2026-12-08",
    end_date: "2026-12-09",
    location: "Gdansk, Poland",
    timezone: "Europe/Warsaw",
    content: "<p>Two days on harbour logistics.</p>",
    capacity: "20",
    ...changes,
  });
}

async function meeting() {
  meetings += 1;
  const n = meetings;
  const saved = await t.runtime.services.meetingsAdmin.create(fields(n));
  return {
    id: saved.id,
    path: `/events/${saved.slug}`,
    update: (changes: Partial<MeetingInput>) => t.runtime.services.meetingsAdmin.update(saved.id, fields(n, changes)),
  };
}

let people = 0;
const register = (path: string, context = t) =>
  registerThroughForm(context, path, { now, email: `moved${++people}@example.org`, name: `Lucja Attendee ${people}` });

/** The messages the SMTP server received for an address, in order: subject, text, calendar part parsed. */
async function mails(email: string) {
  await t.runtime.services.mail.deliverDue();
  return smtp.received
    .filter((m) => m.to.includes(email))
    .map((m) => {
      const text = mailText(m);
      const part = mimeParts(m).find((p) => p.contentType === "text/calendar");
      let ics = null;
      if (part) {
        const root = new ICAL.Component(ICAL.parse(part.body.toString("utf8")));
        const vevent = root.getFirstSubcomponent("vevent");
        ics = {
          partMethod: part.params.method,
          method: root.getFirstPropertyValue("method"),
          uid: vevent?.getFirstPropertyValue("uid"),
          sequence: Number(vevent?.getFirstPropertyValue("sequence")),
          status: vevent?.getFirstPropertyValue("status"),
          start: String(vevent?.getFirstPropertyValue("dtstart")),
          startZone: vevent?.getFirstProperty("dtstart")?.getParameter("tzid") ?? null,
          location: vevent?.getFirstPropertyValue("location"),
          attendee: String(vevent?.getFirstPropertyValue("attendee")).toLowerCase(),
        };
      }
      return { subject: /^Subject: (.*)$/m.exec(text)?.[1] ?? "", text, ics };
    });
}

describe("updated invitations when a confirmed meeting moves", () => {
  it("a new date: each confirmed attendee gets one mail with the same UID, SEQUENCE + 1 and the new DTSTART; a pending one is told without an invitation; cancelled ones get nothing", async () => {
    const m = await meeting();
    const [ana, ben, pending, cancelled] = [
      await register(m.path),
      await register(m.path),
      await register(m.path),
      await register(m.path),
    ];
    for (const person of [ana, ben, cancelled]) await t.runtime.services.registrations.confirm(m.id, person.id, admin);
    await t.runtime.services.registrations.cancel(m.id, cancelled.id, admin);
    const before = {
      ana: await mails(ana.email),
      ben: await mails(ben.email),
      pending: await mails(pending.email),
      cancelled: await mails(cancelled.email),
    };

    await m.update({ start_date: "2026-12-15", end_date: "2026-12-16" });

    for (const [person, earlier] of [
      [ana, before.ana],
      [ben, before.ben],
    ] as const) {
      const all = await mails(person.email);
      expect(all).toHaveLength(earlier.length + 1);
      const confirmation = earlier.at(-1)?.ics;
      const updated = all.at(-1);
      expect(confirmation?.method).toBe("REQUEST");
      expect(updated?.subject).toBe(`Updated: Moved Meeting ${meetings}`);
      expect(updated?.text).toContain("New date and time: Tuesday 15 December 2026 to Wednesday 16 December 2026");
      expect(updated?.text).not.toContain("New place:");
      expect(updated?.ics).toMatchObject({
        partMethod: "REQUEST",
        method: "REQUEST",
        uid: `registration-${person.id}@localhost`,
        status: "CONFIRMED",
        start: "2026-12-15",
        attendee: `mailto:${person.email}`,
      });
      expect(updated?.ics?.uid).toBe(confirmation?.uid);
      expect(updated?.ics?.sequence).toBe((confirmation?.sequence ?? Number.NaN) + 1);
    }
    // Pending (decision 0068): what changed and where it stands, no invitation.
    const pendingMails = await mails(pending.email);
    expect(pendingMails).toHaveLength(before.pending.length + 1);
    const told = pendingMails.at(-1);
    expect(told?.subject).toBe(`Changed: Moved Meeting ${meetings}`);
    expect(told?.text).toContain("New date and time: Tuesday 15 December 2026 to Wednesday 16 December 2026");
    expect(told?.text).toContain("Your registration is still waiting for the secretariat's confirmation");
    expect(told?.text).toMatch(/To see your registration or cancel it: http:\/\/\S+\/registrations\/[A-Za-z0-9_-]+/);
    expect(told?.ics).toBeNull();
    expect(await mails(cancelled.email)).toHaveLength(before.cancelled.length);
  });

  it("a new place: waitlisted registrants are told where they stand, with an account or without; a filled honeypot's registration is not mailed", async () => {
    const m = await meeting();
    await t.runtime.services.meetingsAdmin.update(m.id, fields(meetings, { capacity: "1" }));
    const first = await register(m.path);
    const waiting = await register(m.path);
    const member = await signIn(t.runtime.services);
    const withAccount = await registerThroughForm(t, m.path, { now, email: member.user.email, token: member.token });
    const bot = await t.database.db
      .insertInto("join_requests")
      .values({
        kind: "registration",
        meeting_id: m.id,
        company_name: "Bot Ltd",
        representative_name: "Bot",
        email: "someone-else@example.org",
        phone_number: "+48 58 000 00 00",
        created_at: now.toISOString(),
        registration_status: "waitlisted",
        registration_email: "someone-else@example.org",
        spam_reason: "honeypot",
      } as never)
      .returning("id")
      .executeTakeFirstOrThrow();
    const statusOf = async (id: number) =>
      (
        await t.database.db
          .selectFrom("join_requests")
          .select("registration_status")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).registration_status;
    expect(await statusOf(first.id)).toBe("pending");
    expect(await statusOf(waiting.id)).toBe("waitlisted");
    expect(await statusOf(withAccount.id)).toBe("waitlisted");
    expect(await statusOf(bot.id)).toBe("waitlisted");
    const before = { waiting: await mails(waiting.email), member: await mails(member.user.email) };

    await t.runtime.services.meetingsAdmin.update(
      m.id,
      fields(meetings, { capacity: "1", location: "Gdynia, Poland" }),
    );

    for (const [email, earlier] of [
      [waiting.email, before.waiting],
      [member.user.email, before.member],
    ] as const) {
      const all = await mails(email);
      expect(all).toHaveLength(earlier.length + 1);
      expect(all.at(-1)?.subject).toBe(`Changed: Moved Meeting ${meetings}`);
      expect(all.at(-1)?.text).toContain("New place: Gdynia, Poland");
      expect(all.at(-1)?.text).toContain("You are still on its waiting list");
      expect(all.at(-1)?.text).toContain("so that we do not offer you a place you cannot take");
      expect(all.at(-1)?.ics).toBeNull();
    }
    expect(await mails("someone-else@example.org")).toHaveLength(0);
  });

  it("a change of the description (or anything an invitation does not show) sends nothing; a second move raises SEQUENCE again", async () => {
    const m = await meeting();
    const person = await register(m.path);
    await t.runtime.services.registrations.confirm(m.id, person.id, admin);
    const confirmed = await mails(person.email);

    await m.update({
      content: "<p>Two days on harbour logistics, with a boat trip.</p>",
      title: `Moved Meeting ${meetings}`,
    });
    await m.update({ content: "<p>Now with lunch.</p>", organization: "Baltic Ports", capacity: "30" });
    expect(await mails(person.email)).toHaveLength(confirmed.length);

    await m.update({ location: "Sopot, Poland" });
    const [placeMoved] = (await mails(person.email)).slice(confirmed.length);
    expect(placeMoved?.text).toContain("New place: Sopot, Poland");
    expect(placeMoved?.text).not.toContain("New date and time");
    expect(placeMoved?.ics).toMatchObject({ method: "REQUEST", location: "Sopot, Poland", start: "2026-12-08" });

    await m.update({ location: "Sopot, Poland", start_date: "2026-12-10", end_date: "2026-12-10" });
    const all = await mails(person.email);
    expect(all).toHaveLength(confirmed.length + 2);
    const first = confirmed.at(-1)?.ics?.sequence ?? Number.NaN;
    expect(all.map((mail) => mail.ics?.sequence).slice(-3)).toEqual([first, first + 1, first + 2]);
    expect(all.at(-1)?.ics).toMatchObject({ uid: `registration-${person.id}@localhost`, start: "2026-12-10" });
    expect(all.at(-1)?.text).toContain("New date and time: Thursday 10 December 2026");
  });

  it("a session's new time in the programme moves the invitation's time too", async () => {
    const m = await meeting();
    const session = await t.runtime.services.meetingsAdmin.addSchedule(
      m.id,
      scheduleInputSchema.parse({
        meeting_date: "2026-12-08",
        start: "09:00",
        finish: "17:00",
        meeting_date_info: "Day one",
      }),
    );
    const person = await register(m.path);
    await t.runtime.services.registrations.confirm(m.id, person.id, admin);
    const confirmed = await mails(person.email);
    expect(confirmed.at(-1)?.ics).toMatchObject({ start: "2026-12-08T09:00:00", startZone: "Europe/Warsaw" });

    // The session's text alone: the invitation's time stays, nothing is sent.
    await t.runtime.services.meetingsAdmin.updateSchedule(
      m.id,
      session.id,
      scheduleInputSchema.parse({
        meeting_date: "2026-12-08",
        start: "09:00",
        finish: "17:00",
        meeting_date_info: "Opening day",
      }),
    );
    expect(await mails(person.email)).toHaveLength(confirmed.length);

    await t.runtime.services.meetingsAdmin.updateSchedule(
      m.id,
      session.id,
      scheduleInputSchema.parse({
        meeting_date: "2026-12-08",
        start: "10:30",
        finish: "17:00",
        meeting_date_info: "Opening day",
      }),
    );
    const all = await mails(person.email);
    expect(all).toHaveLength(confirmed.length + 1);
    expect(all.at(-1)?.ics).toMatchObject({
      method: "REQUEST",
      start: "2026-12-08T10:30:00",
      startZone: "Europe/Warsaw",
      sequence: (confirmed.at(-1)?.ics?.sequence ?? Number.NaN) + 1,
    });
    expect(all.at(-1)?.text).toContain(
      "New date and time: Tuesday 8 December 2026, 10:30 to 17:00 (Europe/Warsaw time)",
    );
  });

  it("a meeting that has already ended sends nothing, whatever changes", async () => {
    const m = await meeting();
    const person = await register(m.path);
    await t.runtime.services.registrations.confirm(m.id, person.id, admin);
    // Until it ends, a new place is news.
    await m.update({ location: "Sopot, Poland" });
    const confirmed = await mails(person.email);
    expect(confirmed.at(-1)?.ics).toMatchObject({ method: "REQUEST", location: "Sopot, Poland" });
    // Its days went by (the clock is fixed: the dates are moved back instead).
    await t.database.db
      .updateTable("meetings")
      .set({ start_date: "2026-11-10", end_date: "2026-11-11" })
      .where("id", "=", m.id)
      .execute();

    await m.update({ start_date: "2026-11-10", end_date: "2026-11-11", location: "Gdynia, Poland" });
    await m.update({ start_date: "2026-11-12", end_date: "2026-11-12", location: "Gdynia, Poland" });
    expect(await mails(person.email)).toHaveLength(confirmed.length);
  });
});

describe("without an organizer address", () => {
  let bare: TestContext;
  beforeAll(async () => {
    // No site e-mail and a MAIL_FROM without an address: no invitation can name its organizer.
    bare = await createTestContext({ JOIN_RATE_LIMIT: "1000", MAIL_FROM: "Masthead" }, { clock: () => new Date(now) });
  });
  afterAll(() => bare.close());

  it("the mails go without the invitation, and each one skipped is logged once", async () => {
    const saved = await bare.runtime.services.meetingsAdmin.create(fields(99));
    const person = await register(`/events/${saved.slug}`, bare);
    const warn = vi.spyOn(bare.runtime.logger, "warn");
    await bare.runtime.services.registrations.confirm(saved.id, person.id, admin);
    await bare.runtime.services.meetingsAdmin.update(
      saved.id,
      fields(99, { start_date: "2026-12-15", end_date: "2026-12-16" }),
    );
    const queued = await bare.database.db
      .selectFrom("mail_queue")
      .select(["subject", "attachments", "body_text"])
      .where("to_address", "=", person.email)
      .orderBy("id")
      .execute();
    expect(queued.map((q) => q.subject)).toEqual([
      "Your registration: Moved Meeting 99",
      "Registration confirmed: Moved Meeting 99",
      "Updated: Moved Meeting 99",
    ]);
    expect(queued.map((q) => q.attachments)).toEqual([null, null, null]);
    expect(queued[2].body_text).toContain("New date and time: Tuesday 15 December 2026 to Wednesday 16 December 2026");
    const skipped = warn.mock.calls.filter(([, message]) =>
      String(message).startsWith("calendar invitation not attached"),
    );
    expect(skipped.map(([fields]) => fields)).toEqual([
      { registration: person.id, meeting: saved.id, method: "REQUEST" },
      { registration: person.id, meeting: saved.id, method: "REQUEST" },
    ]);
    warn.mockRestore();
  });
});
