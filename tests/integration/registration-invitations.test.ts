import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../support/app";
import { registerThroughForm } from "../support/registrations";
import { mimeParts, startSmtpServer } from "../support/smtp";

/**
 * Issue 32: "The confirmation carries the meeting as a calendar invitation: an ICS attachment with
 * METHOD:REQUEST, the meeting's VTIMEZONE, a UID stable for that registration and a SEQUENCE that
 * rises; a cancellation sends METHOD:CANCEL with the same UID." Registrations made through the
 * form's API, changed by the services the screens call, delivered to a real SMTP server and parsed
 * back with ical.js; on SQLite or PostgreSQL.
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

let slugs = 0;
async function meeting(autoConfirm = false) {
  slugs += 1;
  const stamp = now.toISOString();
  const row = await t.database.db
    .insertInto("meetings")
    .values({
      slug: `invited-meeting-${slugs}`,
      title: `Invited Meeting ${slugs}`,
      type: "workshop",
      start_date: "2026-12-08",
      end_date: "2026-12-09",
      location: "Gdańsk, Poland",
      timezone: "Europe/Warsaw",
      capacity: 20,
      registration_open: 1,
      registration_auto_confirm: autoConfirm ? 1 : 0,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning(["id", "slug"])
    .executeTakeFirstOrThrow();
  return { id: row.id, path: `/events/${row.slug}` };
}

let people = 0;
const register = (path: string) =>
  registerThroughForm(t, path, { now, email: `invited${++people}@example.org`, name: `Łucja Invitee ${people}` });

/** The calendar parts of the messages the SMTP server received for an address, in order. */
async function invitations(email: string) {
  await t.runtime.services.mail.deliverDue();
  return smtp.received
    .filter((m) => m.to.includes(email))
    .map((m) => mimeParts(m).find((p) => p.contentType === "text/calendar") ?? null)
    .map((part) => {
      if (!part) return null;
      const root = new ICAL.Component(ICAL.parse(part.body.toString("utf8")));
      const vevent = root.getFirstSubcomponent("vevent");
      return {
        partMethod: part.params.method,
        method: root.getFirstPropertyValue("method"),
        uid: vevent?.getFirstPropertyValue("uid"),
        sequence: Number(vevent?.getFirstPropertyValue("sequence")),
        status: vevent?.getFirstPropertyValue("status"),
        zones: root.getAllSubcomponents("vtimezone").map((z) => z.getFirstPropertyValue("tzid")),
        attendee: String(vevent?.getFirstPropertyValue("attendee")).toLowerCase(),
        organizer: String(vevent?.getFirstPropertyValue("organizer")).toLowerCase(),
      };
    });
}

describe("calendar invitations in registrants' mails", () => {
  it("come with the confirmation and go with its cancellation: same UID, a rising SEQUENCE, the meeting's zone", async () => {
    const m = await meeting();
    const person = await register(m.path);
    await t.runtime.services.registrations.confirm(m.id, person.id, admin);
    await t.runtime.services.registrations.cancel(m.id, person.id, admin);
    const [received, confirmed, cancelled] = await invitations(person.email);
    // The acknowledgement of a pending registration invites to nothing yet.
    expect(received).toBeNull();
    expect(confirmed).toMatchObject({
      partMethod: "REQUEST",
      method: "REQUEST",
      uid: `registration-${person.id}@localhost`,
      status: "CONFIRMED",
      zones: ["Europe/Warsaw"],
      attendee: `mailto:${person.email}`,
      organizer: "mailto:secretariat@masthead.test",
    });
    expect(cancelled).toMatchObject({
      partMethod: "CANCEL",
      method: "CANCEL",
      uid: confirmed?.uid,
      status: "CANCELLED",
    });
    expect(cancelled?.sequence).toBeGreaterThan(confirmed?.sequence ?? Number.POSITIVE_INFINITY);
  });

  it("are not sent for a pending registration declined (it was never invited), and come at once when the meeting confirms automatically", async () => {
    const m = await meeting();
    const person = await register(m.path);
    await t.runtime.services.registrations.decline(m.id, person.id, admin, "The room is for members only.");
    expect(await invitations(person.email)).toEqual([null, null]);

    const auto = await meeting(true);
    const quick = await register(auto.path);
    const [first] = await invitations(quick.email);
    expect(first).toMatchObject({ method: "REQUEST", uid: `registration-${quick.id}@localhost` });
  });

  it("come with a move up from the waiting list when the meeting confirms automatically", async () => {
    const m = await meeting(true);
    await t.database.db.updateTable("meetings").set({ capacity: 1 }).where("id", "=", m.id).execute();
    const first = await register(m.path);
    const second = await register(m.path);
    expect(await invitations(second.email)).toEqual([null]);
    await t.runtime.services.registrations.cancel(m.id, first.id, admin);
    const [, movedUp] = await invitations(second.email);
    expect(movedUp).toMatchObject({ method: "REQUEST", uid: `registration-${second.id}@localhost` });
    const [, cancelled] = await invitations(first.email);
    expect(cancelled).toMatchObject({ method: "CANCEL", uid: `registration-${first.id}@localhost` });
  });
});
