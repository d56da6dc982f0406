import { sql } from "kysely";
import { expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { migrationTest, ownTables } from "../support/migrations";

const migration = migrationTest("0027_content_revisions");

it("migration 0027 keeps revisions of the four kinds, says who after the author's account is gone, and goes back", async () => {
  const { db } = migration;
  expect((await migration.toBefore()).error).toBeUndefined();
  await migrateToLatest(db);
  const at = "2026-11-28T09:00:00.000Z";
  const user = await sql<{
    id: number;
  }>`insert into users (first_name, last_name, email, password_hash, role, created_at, updated_at)
    values ('Ann', 'Admin', 'ann@example.org', 'x', 'admin', ${at}, ${at}) returning id`.execute(db);
  const userId = user.rows[0].id;
  await db
    .insertInto("content_revisions")
    .values({
      entity: "page",
      entity_id: 1,
      actor_id: userId,
      actor_name: "Ann Admin",
      fields: "{}",
      restored_from: null,
      created_at: at,
    })
    .execute();
  await expect(
    db
      .insertInto("content_revisions")
      .values({
        entity: "paper" as "page",
        entity_id: 1,
        actor_id: null,
        actor_name: "x",
        fields: "{}",
        restored_from: null,
        created_at: at,
      })
      .execute(),
  ).rejects.toThrow();
  await sql`delete from users where id = ${userId}`.execute(db);
  expect(await db.selectFrom("content_revisions").select(["actor_id", "actor_name"]).execute()).toEqual([
    { actor_id: null, actor_name: "Ann Admin" },
  ]);

  expect((await migration.toBefore()).error).toBeUndefined();
  expect((await ownTables(db)).map((table) => table.name)).not.toContain("content_revisions");
  await migrateToLatest(db);
});
