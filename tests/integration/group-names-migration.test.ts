import { sql } from "kysely";
import { expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { migrationTest } from "../support/migrations";

const migration = migrationTest("0036_group_names_unique");

const at = "2026-11-29T09:00:00.000Z";
const addGroup = (db: typeof migration.db, name: string, slug: string) =>
  sql<{ id: number }>`insert into working_groups (name, slug, description, created_at, updated_at)
    values (${name}, ${slug}, '', ${at}, ${at}) returning id`.execute(db);

it("migration 0036 keeps one group per name, telling apart names taken twice before it, and goes back", async () => {
  const { db } = migration;
  expect((await migration.toBefore()).error).toBeUndefined();
  // Before it, nothing stopped two saves at once from taking one name.
  const first = (await addGroup(db, "SECOM", "secom")).rows[0].id;
  const second = (await addGroup(db, "secom", "secom-2")).rows[0].id;

  await migrateToLatest(db);
  expect(await db.selectFrom("working_groups").select(["id", "name"]).orderBy("id").execute()).toEqual([
    { id: first, name: "SECOM" },
    { id: second, name: `secom (${second})` },
  ]);
  await expect(addGroup(db, "Secom", "secom-3")).rejects.toThrow();

  expect((await migration.toBefore()).error).toBeUndefined();
  await addGroup(db, "Secom", "secom-3");
  await db.deleteFrom("working_groups").where("slug", "=", "secom-3").execute();
  await migrateToLatest(db);
});
