import { sql } from "kysely";
import { expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { migrationTest, ownTables } from "../support/migrations";

const migration = migrationTest("0024_registration_seats");

it("migration 0024 counts each meeting's seats taken, keeps them with every change, and goes back", async () => {
  const { db } = migration;
  expect((await migration.toBefore()).error).toBeUndefined();
  const at = "2026-10-01T09:00:00.000Z";
  for (const slug of ["radar", "sonar"]) {
    await sql`insert into meetings (slug, title, type, start_date, capacity, created_at, updated_at)
      values (${slug}, ${slug}, 'workshop', '2099-01-01', 10, ${at}, ${at})`.execute(db);
  }
  const [radar, sonar] = await db.selectFrom("meetings").select("id").orderBy("id").execute();
  const register = (meetingId: number, status: string, email: string) =>
    sql`insert into join_requests (kind, meeting_id, company_name, representative_name, email, phone_number, created_at, registration_status, registration_email)
      values ('registration', ${meetingId}, 'Lagoon Coast', 'Ada', ${email}, '+234803555014', ${at}, ${status}, ${email})`.execute(
      db,
    );
  for (const [status, email] of [
    ["pending", "a@x.example"],
    ["confirmed", "b@x.example"],
    ["waitlisted", "c@x.example"],
    ["declined", "d@x.example"],
    ["cancelled", "e@x.example"],
  ]) {
    await register(radar.id, status, email);
  }

  await migrateToLatest(db);
  const seats = async () =>
    (await db.selectFrom("meetings").select(["id", "registration_seats"]).orderBy("id").execute()).map(
      (m) => m.registration_seats,
    );
  // Pending and confirmed hold a seat; waiting, declined and cancelled do not.
  expect(await seats()).toEqual([2, 0]);
  await register(sonar.id, "confirmed", "f@x.example");
  expect(await seats()).toEqual([2, 1]);
  await db
    .updateTable("join_requests")
    .set({ registration_status: "pending" })
    .where("email", "=", "c@x.example")
    .execute();
  expect(await seats()).toEqual([3, 1]);
  await db.deleteFrom("join_requests").where("email", "=", "a@x.example").execute();
  expect(await seats()).toEqual([2, 1]);
  // A meeting deleted takes its count with it; its registrations stay, without a meeting.
  await db.deleteFrom("meetings").where("id", "=", sonar.id).execute();
  expect(await seats()).toEqual([2]);

  const down = await migration.toBefore();
  expect(down.error).toBeUndefined();
  const meetings = (await ownTables(db)).find((t) => t.name === "meetings");
  expect(meetings?.columns.map((c) => c.name)).not.toContain("registration_seats");
  // Without the triggers, a change to a registration writes nothing else.
  await db
    .updateTable("join_requests")
    .set({ registration_status: "cancelled" })
    .where("email", "=", "b@x.example")
    .execute();
  await migrateToLatest(db);
  expect(await seats()).toEqual([1]);
});
