import { sql } from "kysely";
import { expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { migrationTest, ownTables } from "../support/migrations";

const migration = migrationTest("0016_applications");

it("migration 0016 makes existing applications new (handled ones stay handled), other kinds stateless, and goes back", async () => {
  const { db } = migration;
  expect((await migration.toBefore()).error).toBeUndefined();

  const at = "2026-10-01T09:00:00.000Z";
  for (const [kind, handled] of [
    ["join", null],
    ["join", "2026-10-02T09:00:00.000Z"],
    ["registration", null],
    ["message", null],
  ] as const) {
    await sql`insert into join_requests (kind, company_name, representative_name, email, phone_number, handled_at, created_at)
      values (${kind}, ${"Lagoon Coast"}, ${"Adaeze Nwosu"}, ${"a@lagoon.example"}, ${"+234803555014"}, ${handled}, ${at})`.execute(
      db,
    );
  }

  await migrateToLatest(db);
  const rows = await db.selectFrom("join_requests").select(["kind", "status", "handled_at"]).orderBy("id").execute();
  expect(rows).toEqual([
    { kind: "join", status: "new", handled_at: null },
    { kind: "join", status: "new", handled_at: "2026-10-02T09:00:00.000Z" },
    { kind: "registration", status: null, handled_at: null },
    { kind: "message", status: null, handled_at: null },
  ]);
  const [first] = await db.selectFrom("join_requests").select("id").orderBy("id").execute();

  // The state is one of three on both dialects; events belong to their request.
  await expect(
    db
      .updateTable("join_requests")
      .set({ status: "pending" as "new" })
      .where("id", "=", first.id)
      .execute(),
  ).rejects.toThrow();
  const event = {
    join_request_id: first.id,
    event: "declined" as const,
    user_id: null,
    user_name: "Ada Admin",
    company_id: null,
    company_name: null,
    reason: "Not a marine company.",
    created_at: at,
  };
  await expect(
    db
      .insertInto("join_request_events")
      .values({ ...event, event: "reopened" as "declined" })
      .execute(),
  ).rejects.toThrow();
  await expect(
    db
      .insertInto("join_request_events")
      .values({ ...event, join_request_id: 999_999 })
      .execute(),
  ).rejects.toThrow();

  // A decision is not dropped in silence by undoing the migration.
  await db.updateTable("join_requests").set({ status: "declined" }).where("id", "=", first.id).execute();
  await db.insertInto("join_request_events").values(event).execute();
  const refused = await migration.toBefore();
  expect(String(refused.error)).toContain("Migration 0016 cannot be undone: 1 application was approved or declined");
  // Deleting a request takes its history with it.
  await db.deleteFrom("join_requests").where("id", "=", first.id).execute();
  expect(await db.selectFrom("join_request_events").selectAll().execute()).toEqual([]);

  const down = await migration.toBefore();
  expect(down.error).toBeUndefined();
  const columns = await ownTables(db);
  expect(columns.find((table) => table.name === "join_request_events")).toBeUndefined();
  expect(columns.find((table) => table.name === "join_requests")?.columns.map((c) => c.name)).not.toContain("status");
  await migrateToLatest(db);
});
