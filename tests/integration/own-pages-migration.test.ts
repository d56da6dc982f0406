import { sql } from "kysely";
import { expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { migrationTest, ownTables } from "../support/migrations";

const migration = migrationTest("0026_own_pages");

it("migration 0026 keeps every page published since ever and in no menu, takes only its states and sections, and goes back", async () => {
  const { db } = migration;
  expect((await migration.toBefore()).error).toBeUndefined();
  const at = "2026-10-01T09:00:00.000Z";
  await sql`insert into pages (url, title, content, created_at, updated_at)
    values ('/history', 'History', '<p>Since 1960.</p>', ${at}, ${at})`.execute(db);

  await migrateToLatest(db);
  expect(
    await db
      .selectFrom("pages")
      .select(["url", "status", "published_at", "section", "in_menu", "in_footer", "position"])
      .execute(),
  ).toEqual([
    { url: "/history", status: "published", published_at: null, section: null, in_menu: 0, in_footer: 0, position: 0 },
  ]);
  await db.updateTable("pages").set({ status: "draft", section: "about" }).execute();
  await expect(
    db
      .updateTable("pages")
      .set({ status: "scheduled" as "draft" })
      .execute(),
  ).rejects.toThrow();
  await expect(
    db
      .updateTable("pages")
      .set({ section: "tributes" as "about" })
      .execute(),
  ).rejects.toThrow();
  await expect(db.updateTable("pages").set({ in_menu: 2 }).execute()).rejects.toThrow();

  expect((await migration.toBefore()).error).toBeUndefined();
  const pages = (await ownTables(db)).find((table) => table.name === "pages");
  expect(pages?.columns.map((c) => c.name)).toEqual(["id", "url", "title", "content", "created_at", "updated_at"]);
  await migrateToLatest(db);
});
