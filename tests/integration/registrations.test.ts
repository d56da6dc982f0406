import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  ALREADY_REGISTERED,
  ALREADY_REGISTERED_MAILED,
  ALREADY_REGISTERED_YOURS,
  JOIN_THANKS,
  REGISTRATION_THANKS,
  thanksFor,
  WAITLISTED_THANKS,
} from "../../core/join/join.values";
import { NO_SEAT_LEFT } from "../../core/join/registrations.service";
import { call, createTestContext, type TestContext } from "../support/app";
import { signIn } from "../support/factories";
import { formTimeAt } from "../support/form-time";

/**
 * Registrations for real (issue 32, decision 0052): states, the waiting list, one registration per
 * address, the last seats taken at once, the secretariat's changes with their mails and history.
 */
let t: TestContext;
let now = new Date("2026-11-20T10:00:00Z");
const clock = () => now;

const PERSON = {
  company_name: "Nordic Bridge Systems AS",
  representative_name: "Ingrid Solberg",
  email: "ingrid@nordicbridge.example",
  phone_number: "+47 22 33 44 55",
};

beforeAll(async () => {
  t = await createTestContext({ JOIN_RATE_LIMIT: "1000" }, { clock });
  await t.runtime.services.settings.set({ "site.email": "secretariat@masthead.test" });
});
afterAll(async () => t.close());
beforeEach(async () => {
  now = new Date(now.getTime() + 2 * 3600_000);
  await t.database.db.deleteFrom("join_requests").execute();
  await t.database.db.deleteFrom("meetings").execute();
  await t.database.db.deleteFrom("rate_limits").execute();
});

let slugs = 0;
async function meeting(settings: {
  capacity?: number | null;
  auto_confirm?: boolean;
  waitlist?: boolean;
  visibility?: "public" | "members";
}) {
  slugs += 1;
  const stamp = now.toISOString();
  const row = await t.database.db
    .insertInto("meetings")
    .values({
      slug: `meeting-${slugs}`,
      title: `Meeting ${slugs}`,
      type: "workshop",
      start_date: "2099-03-01",
      capacity: settings.capacity ?? null,
      registration_open: 1,
      registration_auto_confirm: settings.auto_confirm ? 1 : 0,
      registration_waitlist: settings.waitlist === false ? 0 : 1,
      visibility: settings.visibility ?? "public",
      created_at: stamp,
      updated_at: stamp,
    })
    .returning(["id", "slug"])
    .executeTakeFirstOrThrow();
  return { id: row.id, path: `/events/${row.slug}` };
}

const shown = () => formTimeAt(t.database.db, "join", now.getTime() - 20_000);
let people = 0;
/** A registration from a meeting's page, by a new person unless `email` says who. */
async function register(path: string, extra: Record<string, unknown> = {}, options: { token?: string } = {}) {
  people += 1;
  return call(t.app, "POST", "/api/join", {
    json: { ...PERSON, email: `person${people}@example.org`, page_path: path, started_at: await shown(), ...extra },
    token: options.token,
    headers: { "x-forwarded-for": `198.51.100.${people % 250}` },
  });
}

const rows = (meetingId: number) =>
  t.database.db.selectFrom("join_requests").selectAll().where("meeting_id", "=", meetingId).orderBy("id").execute();
const statusesOf = async (meetingId: number) => (await rows(meetingId)).map((r) => r.registration_status);
const mailsTo = (id: number) =>
  t.database.db
    .selectFrom("mail_queue")
    .select(["subject", "body_text", "to_address"])
    .where("join_request_id", "=", id)
    .where("purpose", "=", "acknowledgement")
    .orderBy("id")
    .execute();
const eventsOf = (id: number) =>
  t.database.db
    .selectFrom("join_request_events")
    .select(["event", "user_name", "reason"])
    .where("join_request_id", "=", id)
    .orderBy("id")
    .execute();

describe("submitting a registration", () => {
  it("is pending while seats remain, then waitlisted and told so; the answer says which", async () => {
    const m = await meeting({ capacity: 2 });
    const first = await register(m.path, { note: "  Vegetarian, step-free access please.  " });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ status: "success", registration: { status: "pending" } });
    expect((await register(m.path)).json).toEqual({ status: "success", registration: { status: "pending" } });
    const third = await register(m.path);
    expect(third.json).toEqual({ status: "success", registration: { status: "waitlisted" } });
    expect(await statusesOf(m.id)).toEqual(["pending", "pending", "waitlisted"]);
    const [one, , waiting] = await rows(m.id);
    expect(one.note).toBe("Vegetarian, step-free access please.");
    expect((await mailsTo(one.id)).map((x) => x.body_text)).toEqual([
      expect.stringContaining("The secretariat will confirm your registration within 48 hours."),
    ]);
    expect((await mailsTo(waiting.id)).map((x) => x.subject)).toEqual([
      `You are on the waiting list: Meeting ${slugs}`,
    ]);
    expect(await eventsOf(waiting.id)).toEqual([
      { event: "registration_waitlisted", user_name: PERSON.representative_name, reason: null },
    ]);
    // The meeting's page: full, with its waiting list.
    expect(await t.runtime.services.registrations.seatsTaken([m.id])).toEqual(new Map([[m.id, 2]]));
  });

  it("is confirmed at once when the meeting confirms automatically; probable spam stays pending", async () => {
    const m = await meeting({ capacity: 5, auto_confirm: true });
    expect((await register(m.path)).json).toEqual({ status: "success", registration: { status: "confirmed" } });
    const hasty = await register(m.path, { started_at: await formTimeAt(t.database.db, "join", now.getTime() - 1000) });
    expect(hasty.json).toEqual({ status: "success", registration: { status: "pending" } });
    const [confirmed] = await rows(m.id);
    expect((await mailsTo(confirmed.id)).map((x) => x.subject)).toEqual([`Registration confirmed: Meeting ${slugs}`]);
  });

  it("is refused with 422 when full without a waiting list", async () => {
    const m = await meeting({ capacity: 1, waitlist: false });
    expect((await register(m.path)).status).toBe(200);
    const full = await register(m.path);
    expect(full.status).toBe(422);
    expect(full.json?.errors).toEqual({ page_path: ["This meeting is full: registration is closed."] });
    expect(await statusesOf(m.id)).toEqual(["pending"]);
    // Whoever holds the seat already is told that, not that the meeting is full.
    const [holder] = await rows(m.id);
    const again = await register(m.path, { email: holder.email.toUpperCase() });
    expect(again.status).toBe(422);
    expect(again.json?.errors).toEqual({ email: [ALREADY_REGISTERED_MAILED] });
  });

  it("keeps one registration per address and meeting, whatever its case; a cancelled one may register again", async () => {
    const m = await meeting({ capacity: 10 });
    const other = await meeting({});
    expect((await register(m.path, { email: "Ingrid@NordicBridge.example" })).status).toBe(200);
    const again = await register(m.path, { email: "ingrid@nordicbridge.EXAMPLE" });
    expect(again.status).toBe(422);
    // The link to manage it goes to the address, never to whoever typed it (decision 0060).
    expect(again.json?.errors).toEqual({ email: [ALREADY_REGISTERED_MAILED] });
    expect(ALREADY_REGISTERED_MAILED.startsWith(ALREADY_REGISTERED)).toBe(true);
    expect(again.text).not.toContain("/registrations/");
    const [first] = await rows(m.id);
    const told = await mailsTo(first.id);
    expect(told.map((x) => x.subject)).toEqual([
      `Your registration: Meeting ${slugs - 1}`,
      `Your registration: Meeting ${slugs - 1}`,
    ]);
    const [received, reminder] = told;
    expect(reminder.body_text).toContain("You are already registered, so nothing has changed");
    const linkIn = (text: string) => text.match(/\/registrations\/([A-Za-z0-9_-]{43})/)?.[1];
    expect(linkIn(reminder.body_text)).toBeTruthy();
    expect(linkIn(reminder.body_text)).not.toBe(linkIn(received.body_text));
    // Another meeting is another registration.
    expect((await register(other.path, { email: "ingrid@nordicbridge.example" })).status).toBe(200);
    expect(await statusesOf(m.id)).toEqual(["pending"]);
    const [kept] = await rows(m.id);
    await t.runtime.services.registrations.cancel(m.id, kept.id, null);
    expect((await register(m.path, { email: "ingrid@nordicbridge.example" })).status).toBe(200);
    expect(await statusesOf(m.id)).toEqual(["cancelled", "pending"]);
  });

  it("stores the signed-in sender; a members-only meeting is 404 to a visitor, as its page", async () => {
    const m = await meeting({ visibility: "members" });
    expect((await register(m.path)).status).toBe(404);
    expect(await rows(m.id)).toEqual([]);
    const admin = await signIn(t.runtime.services, "admin");
    expect((await register(m.path, {}, { token: admin.token })).status).toBe(200);
    expect((await rows(m.id)).map((r) => r.user_id)).toEqual([admin.user.id]);
    // Sent again by the same person signed in: their own registration is under My registrations, nothing mailed.
    const mailsBefore = (await mailsTo((await rows(m.id))[0].id)).length;
    const again = await register(m.path, { email: (await rows(m.id))[0].email }, { token: admin.token });
    expect(again.status).toBe(422);
    expect(again.json?.errors).toEqual({ email: [ALREADY_REGISTERED_YOURS] });
    expect((await mailsTo((await rows(m.id))[0].id)).length).toBe(mailsBefore);
  });

  it("moves the content version, so that the meeting's page shows the new places on the next request", async () => {
    const m = await meeting({ capacity: 3 });
    const before = await t.runtime.services.contentVersion.current();
    expect((await register(m.path)).status).toBe(200);
    expect(await t.runtime.services.contentVersion.current()).toBeGreaterThan(before);
  });
});

describe("the last seats taken at once", () => {
  it("twenty registrations for two seats: exactly two hold one, eighteen wait", async () => {
    const m = await meeting({ capacity: 5 });
    for (let i = 0; i < 3; i++) expect((await register(m.path)).status).toBe(200);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.runtime.services.join.submit(
          { ...PERSON, email: `rush${i}@example.org`, page_path: m.path },
          { ip: `192.0.2.${i}`, trusted: true },
        ),
      ),
    );
    const arrived = results.map((r) => r.registration?.status);
    expect(arrived.filter((s) => s === "pending")).toHaveLength(2);
    expect(arrived.filter((s) => s === "waitlisted")).toHaveLength(18);
    const stored = await statusesOf(m.id);
    expect(stored.filter((s) => s === "pending")).toHaveLength(5);
    expect(stored.filter((s) => s === "waitlisted")).toHaveLength(18);
  });

  it("twenty at once with the same address: one registration", async () => {
    const m = await meeting({ capacity: 50 });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        t.runtime.services.join.submit(
          { ...PERSON, email: i % 2 ? "same@example.org" : "SAME@example.org", page_path: m.path },
          { ip: `192.0.2.${i}`, trusted: true },
        ),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await statusesOf(m.id)).toEqual(["pending"]);
  });
});

describe("the seats taken (kept by the database, migration 0024)", () => {
  const counted = async (meetingId: number) =>
    Number(
      (
        await t.database.db
          .selectFrom("join_requests")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("meeting_id", "=", meetingId)
          .where("registration_status", "in", ["pending", "confirmed"])
          .executeTakeFirstOrThrow()
      ).n,
    );
  const kept = async (meetingId: number) =>
    (
      await t.database.db
        .selectFrom("meetings")
        .select("registration_seats")
        .where("id", "=", meetingId)
        .executeTakeFirstOrThrow()
    ).registration_seats;

  it("follow every change, made by the site or by hand, and are what the pages read", async () => {
    const by = { id: null, name: "Ada Admin" };
    const m = await meeting({ capacity: 3 });
    const other = await meeting({ capacity: 3 });
    const steps: [string, () => Promise<unknown>][] = [
      [
        "four registrations, one waitlisted",
        async () => {
          for (let i = 0; i < 4; i++) await register(m.path);
        },
      ],
      ["confirmed", async () => t.runtime.services.registrations.confirm(m.id, (await rows(m.id))[0].id, by)],
      [
        "cancelled, the waitlisted one moved up",
        async () => t.runtime.services.registrations.cancel(m.id, (await rows(m.id))[0].id, by),
      ],
      ["declined", async () => t.runtime.services.registrations.decline(m.id, (await rows(m.id))[1].id, by, null)],
      ["deleted from the inbox", async () => t.runtime.services.join.remove((await rows(m.id))[2].id)],
      [
        "moved to another meeting by hand",
        async () =>
          t.database.db
            .updateTable("join_requests")
            .set({ meeting_id: other.id })
            .where("id", "=", (await rows(m.id))[2].id)
            .execute(),
      ],
      [
        "a cancelled one made pending by hand",
        async () =>
          t.database.db
            .updateTable("join_requests")
            .set({ registration_status: "pending" })
            .where("id", "=", (await rows(m.id))[0].id)
            .execute(),
      ],
      [
        "a change that leaves the state as it was",
        async () =>
          t.database.db
            .updateTable("join_requests")
            .set({ registration_status: "pending", note: "Late arrival." })
            .where("id", "=", (await rows(m.id))[0].id)
            .execute(),
      ],
    ];
    for (const [step, run] of steps) {
      await run();
      expect({ step, m: await kept(m.id), other: await kept(other.id) }).toEqual({
        step,
        m: await counted(m.id),
        other: await counted(other.id),
      });
    }
    expect(await kept(m.id)).toBeGreaterThan(0);
    expect(await t.runtime.services.registrations.seatsTaken([m.id, other.id])).toEqual(
      new Map([
        [m.id, await counted(m.id)],
        [other.id, await counted(other.id)],
      ]),
    );
  });
});

describe("the secretariat's changes", () => {
  const by = { id: null, name: "Ada Admin" };

  it("confirm, decline with a reason, cancel: a freed seat goes to the oldest on the waiting list", async () => {
    const m = await meeting({ capacity: 2 });
    for (let i = 0; i < 4; i++) await register(m.path);
    const [a, b, c] = await rows(m.id);
    const { registrations } = t.runtime.services;

    // Confirming a waitlisted one past the capacity is refused, with the reason.
    await expect(registrations.confirm(m.id, c.id, by)).rejects.toMatchObject({
      code: "validation",
      details: { errors: { status: [NO_SEAT_LEFT] } },
    });
    await expect(registrations.moveUp(m.id, c.id, by)).rejects.toMatchObject({ code: "validation" });
    expect((await registrations.confirm(m.id, a.id, by)).status).toBe("confirmed");

    // A confirmed one cancels: c (the oldest waiting) moves up to pending and is told.
    await registrations.cancel(m.id, a.id, by);
    expect(await statusesOf(m.id)).toEqual(["cancelled", "pending", "pending", "waitlisted"]);
    expect((await mailsTo(a.id)).map((x) => x.subject)).toEqual([
      expect.stringMatching(/^Your registration/),
      `Registration confirmed: Meeting ${slugs}`,
      `Registration cancelled: Meeting ${slugs}`,
    ]);
    expect((await mailsTo(c.id)).map((x) => x.subject)).toEqual([
      `You are on the waiting list: Meeting ${slugs}`,
      `A place is free for you: Meeting ${slugs}`,
    ]);
    expect(await eventsOf(c.id)).toEqual([
      { event: "registration_waitlisted", user_name: PERSON.representative_name, reason: null },
      { event: "registration_pending", user_name: "Automatic", reason: "Moved up from the waiting list." },
    ]);

    // Declined with a reason: mailed; d moves up.
    await registrations.decline(m.id, b.id, by, "The workshop is for members' engineers.");
    expect(await statusesOf(m.id)).toEqual(["cancelled", "declined", "pending", "pending"]);
    expect((await mailsTo(b.id)).at(-1)?.body_text).toContain("Reason: The workshop is for members' engineers.");
    expect(await eventsOf(b.id)).toContainEqual({
      event: "registration_declined",
      user_name: "Ada Admin",
      reason: "The workshop is for members' engineers.",
    });

    // Impossible moves: 422; a registration of another meeting: 404.
    await expect(registrations.cancel(m.id, a.id, by)).rejects.toMatchObject({ code: "validation" });
    const other = await meeting({});
    await expect(registrations.confirm(other.id, c.id, by)).rejects.toMatchObject({ code: "not_found" });
  });

  it("moves up by hand, and confirms automatically when the meeting does", async () => {
    const m = await meeting({ capacity: 1, auto_confirm: true });
    await register(m.path);
    await register(m.path);
    const [a, b] = await rows(m.id);
    expect(await statusesOf(m.id)).toEqual(["confirmed", "waitlisted"]);
    await t.runtime.services.registrations.cancel(m.id, a.id, by);
    expect(await statusesOf(m.id)).toEqual(["cancelled", "confirmed"]);
    expect((await mailsTo(b.id)).map((x) => x.subject)).toEqual([
      `You are on the waiting list: Meeting ${slugs}`,
      `Registration confirmed: Meeting ${slugs}`,
    ]);
    // A seat added by the secretariat: moved up by hand.
    await t.database.db.updateTable("meetings").set({ capacity: 3 }).where("id", "=", m.id).execute();
    await register(m.path);
    await t.database.db.updateTable("meetings").set({ capacity: 1 }).where("id", "=", m.id).execute();
    const waiting = await register(m.path);
    expect(waiting.json?.registration).toEqual({ status: "waitlisted" });
    await t.database.db.updateTable("meetings").set({ capacity: 3 }).where("id", "=", m.id).execute();
    const last = (await rows(m.id)).at(-1);
    expect((await t.runtime.services.registrations.moveUp(m.id, last?.id ?? 0, by)).status).toBe("confirmed");
  });

  it("checks an attendee in and out, with the time", async () => {
    const m = await meeting({});
    await register(m.path);
    const [a] = await rows(m.id);
    const { registrations } = t.runtime.services;
    expect((await registrations.setAttended(m.id, a.id, true, by)).attended_at).toBe(now.toISOString());
    expect((await registrations.setAttended(m.id, a.id, false, by)).attended_at).toBeNull();
    expect((await eventsOf(a.id)).map((e) => e.event)).toEqual([
      "registration_pending",
      "registration_attended",
      "registration_not_attended",
    ]);
    await registrations.cancel(m.id, a.id, by);
    await expect(registrations.setAttended(m.id, a.id, true, by)).rejects.toMatchObject({ code: "validation" });
  });

  it("lists a meeting's registrations by state and search, with counts per state", async () => {
    const m = await meeting({ capacity: 1 });
    await register(m.path, { company_name: "Lagoon Coast" });
    await register(m.path, { company_name: "Harbour Tech" });
    const list = await t.runtime.services.registrations.list(m.id, { search: "" }, 1);
    expect(list.total).toBe(2);
    expect(list.counts).toEqual({ pending: 1, confirmed: 0, waitlisted: 1, declined: 0, cancelled: 0 });
    const waiting = await t.runtime.services.registrations.list(m.id, { status: "waitlisted", search: "" }, 1);
    expect(waiting.data.map((r) => r.company_name)).toEqual(["Harbour Tech"]);
    const found = await t.runtime.services.registrations.list(m.id, { search: "lagoon" }, 1);
    expect(found.data.map((r) => [r.company_name, r.status])).toEqual([["Lagoon Coast", "pending"]]);
  });
});

it("thanks with SPEC §8's registration wording on every meeting page, the waiting list's when waitlisted", () => {
  expect(thanksFor("/events/radar-workshop")).toBe(REGISTRATION_THANKS);
  expect(thanksFor("/workshop")).toBe(REGISTRATION_THANKS);
  expect(thanksFor("/conference")).toBe(REGISTRATION_THANKS);
  expect(thanksFor("/join")).toBe(JOIN_THANKS);
  expect(thanksFor("/events/radar-workshop", { status: "waitlisted" })).toBe(WAITLISTED_THANKS);
});

describe("the admin's API", () => {
  it("lists with counts and next_page_url, changes state with _method=PATCH; 404 for another meeting's, 422 when impossible", async () => {
    const admin = await signIn(t.runtime.services, "admin");
    const member = await signIn(t.runtime.services, "member");
    const m = await meeting({ capacity: 1 });
    const other = await meeting({});
    await register(m.path, { company_name: "Lagoon Coast", note: "Wheelchair" });
    await register(m.path, { company_name: "Harbour Tech" });
    const [a, b] = await rows(m.id);
    const base = `/api/dashboard/meeting/${m.id}/registrations`;

    expect((await call(t.app, "GET", base, { token: member.token })).status).toBe(403);
    const list = await call(t.app, "GET", `${base}?status=waitlisted`, { token: admin.token });
    expect(list.status, list.text).toBe(200);
    expect(list.json).toMatchObject({
      status: "success",
      current_page: 1,
      last_page: 1,
      total: 1,
      next_page_url: null,
      counts: { pending: 1, waitlisted: 1, confirmed: 0, declined: 0, cancelled: 0 },
      capacity: 1,
      data: [
        {
          id: b.id,
          meeting_id: m.id,
          company_name: "Harbour Tech",
          representative_name: PERSON.representative_name,
          status: "waitlisted",
          attended_at: null,
          note: null,
        },
      ],
    });
    const patch = (id: number, form: Record<string, string>, meetingId = m.id) =>
      call(t.app, "POST", `/api/dashboard/meeting/${meetingId}/registrations/${id}`, {
        token: admin.token,
        form: { _method: "PATCH", ...form },
      });
    const refused = await patch(b.id, { status: "confirmed" });
    expect(refused.status).toBe(422);
    expect(refused.json?.errors).toEqual({ status: [NO_SEAT_LEFT] });
    expect((await patch(a.id, { status: "confirmed" }, other.id)).status).toBe(404);
    const confirmed = await patch(a.id, { status: "confirmed" });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json).toMatchObject({ status: "success", registration: { id: a.id, status: "confirmed" } });
    const declined = await patch(a.id, { status: "declined", reason: "Duplicate of another company's." });
    expect(declined.json?.registration).toMatchObject({ status: "declined" });
    // Its seat went to the waiting list.
    expect(await statusesOf(m.id)).toEqual(["declined", "pending"]);
    const checkedIn = await patch(b.id, { attended: "true" });
    expect(checkedIn.json?.registration).toMatchObject({ status: "pending", attended_at: now.toISOString() });
    const [decline] = (await eventsOf(a.id)).filter((e) => e.event === "registration_declined");
    expect(decline).toEqual({
      event: "registration_declined",
      user_name: `${admin.user.first_name} ${admin.user.last_name}`,
      reason: "Duplicate of another company's.",
    });
  });
});
