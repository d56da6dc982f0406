import { sql } from "kysely";
import { expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { migrationTest, ownTables } from "../support/migrations";

const migration = migrationTest("0018_registrations");

it("migration 0018 makes existing registrations pending, keys one per address and meeting, widens the history, and goes back", async () => {
  const { db } = migration;
  expect((await migration.toBefore()).error).toBeUndefined();
  const at = "2026-10-01T09:00:00.000Z";
  await sql`insert into meetings (slug, title, type, start_date, created_at, updated_at)
    values ('radar', 'Radar', 'workshop', '2099-01-01', ${at}, ${at})`.execute(db);
  const meeting = await db.selectFrom("meetings").select("id").executeTakeFirstOrThrow();
  for (const [kind, email, meetingId] of [
    ["registration", "Ada@Lagoon.example", meeting.id],
    ["registration", "ada@lagoon.example", meeting.id],
    ["registration", "bo@lagoon.example", meeting.id],
    ["join", "ada@lagoon.example", null],
  ] as const) {
    await sql`insert into join_requests (kind, meeting_id, company_name, representative_name, email, phone_number, created_at)
      values (${kind}, ${meetingId}, ${"Lagoon Coast"}, ${"Ada"}, ${email}, ${"+234803555014"}, ${at})`.execute(db);
  }

  await migrateToLatest(db);
  const rows = await db
    .selectFrom("join_requests")
    .select(["kind", "registration_status", "registration_email", "note", "user_id", "attended_at"])
    .orderBy("id")
    .execute();
  // The duplicate keeps its seat as it did; only the oldest holds the address's key.
  expect(rows).toEqual([
    {
      kind: "registration",
      registration_status: "pending",
      registration_email: "ada@lagoon.example",
      note: null,
      user_id: null,
      attended_at: null,
    },
    {
      kind: "registration",
      registration_status: "pending",
      registration_email: null,
      note: null,
      user_id: null,
      attended_at: null,
    },
    {
      kind: "registration",
      registration_status: "pending",
      registration_email: "bo@lagoon.example",
      note: null,
      user_id: null,
      attended_at: null,
    },
    { kind: "join", registration_status: null, registration_email: null, note: null, user_id: null, attended_at: null },
  ]);
  const settings = await db
    .selectFrom("meetings")
    .select(["registration_auto_confirm", "registration_waitlist"])
    .executeTakeFirstOrThrow();
  expect(settings).toEqual({ registration_auto_confirm: 0, registration_waitlist: 1 });
  const [first, , third] = await db.selectFrom("join_requests").select("id").orderBy("id").execute();
  // One key per address and meeting; the state is one of five; the history takes the states.
  await expect(
    db
      .updateTable("join_requests")
      .set({ registration_email: "bo@lagoon.example" })
      .where("id", "=", first.id)
      .execute(),
  ).rejects.toThrow();
  await expect(
    db
      .updateTable("join_requests")
      .set({ registration_status: "approved" as "pending" })
      .where("id", "=", third.id)
      .execute(),
  ).rejects.toThrow();
  const event = {
    join_request_id: first.id,
    event: "registration_confirmed" as const,
    user_id: null,
    user_name: "Ada Admin",
    company_id: null,
    company_name: null,
    reason: null,
    created_at: at,
  };
  await db.insertInto("join_request_events").values(event).execute();
  await expect(
    db
      .insertInto("join_request_events")
      .values({ ...event, event: "reopened" as "approved" })
      .execute(),
  ).rejects.toThrow();
  // The history still goes with its request (the rebuilt table on SQLite keeps its keys).
  await expect(
    db
      .insertInto("join_request_events")
      .values({ ...event, join_request_id: 999_999 })
      .execute(),
  ).rejects.toThrow();

  const down = await migration.toBefore();
  expect(down.error).toBeUndefined();
  const tables = await ownTables(db);
  expect(tables.find((t) => t.name === "join_requests")?.columns.map((c) => c.name)).not.toContain(
    "registration_status",
  );
  expect(await db.selectFrom("join_request_events").selectAll().execute()).toEqual([]);
  await migrateToLatest(db);
});
