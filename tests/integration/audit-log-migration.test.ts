import { sql } from "kysely";
import { expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { migrationTest, ownTables } from "../support/migrations";

const migration = migrationTest("0028_audit_log");

it("migration 0028 keeps audit rows that still say who after the account is gone, and goes back", async () => {
  const { db } = migration;
  expect((await migration.toBefore()).error).toBeUndefined();
  await migrateToLatest(db);
  const at = "2026-11-28T09:00:00.000Z";
  const user = await sql<{
    id: number;
  }>`insert into users (first_name, last_name, email, password_hash, role, created_at, updated_at)
    values ('Ann', 'Admin', 'ann@example.org', 'x', 'admin', ${at}, ${at}) returning id`.execute(db);
  await db
    .insertInto("audit_log")
    .values({
      created_at: at,
      actor_id: user.rows[0].id,
      actor_name: "Ann Admin",
      ip: "198.51.100.7",
      action: "update",
      entity: "page",
      entity_id: "3",
      summary: "Page “History” changed",
      changes: null,
    })
    .execute();
  await sql`delete from users where id = ${user.rows[0].id}`.execute(db);
  expect(await db.selectFrom("audit_log").select(["actor_id", "actor_name"]).execute()).toEqual([
    { actor_id: null, actor_name: "Ann Admin" },
  ]);
  expect((await migration.toBefore()).error).toBeUndefined();
  expect((await ownTables(db)).map((table) => table.name)).not.toContain("audit_log");
  await migrateToLatest(db);
});
