import { sql } from "kysely";
import { expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { migrationTest, ownTables } from "../support/migrations";

const migration = migrationTest("0025_news_drafts");

it("migration 0025 keeps every post published and told of, takes only the two states, and goes back", async () => {
  const { db } = migration;
  expect((await migration.toBefore()).error).toBeUndefined();
  const at = "2026-10-01T09:00:00.000Z";
  await sql`insert into news_posts (slug, title, content, excerpt, published_at, created_at, updated_at)
    values ('radar', 'Radar', '<p>Radar.</p>', 'Radar.', ${at}, ${at}, ${at})`.execute(db);

  await migrateToLatest(db);
  // Published, and told of at its date: the notices job tells of no post from before.
  expect(await db.selectFrom("news_posts").select(["slug", "status", "announced_at"]).execute()).toEqual([
    { slug: "radar", status: "published", announced_at: at },
  ]);
  await db.updateTable("news_posts").set({ status: "draft" }).execute();
  await expect(
    db
      .updateTable("news_posts")
      .set({ status: "scheduled" as "draft" })
      .execute(),
  ).rejects.toThrow();

  expect((await migration.toBefore()).error).toBeUndefined();
  const posts = (await ownTables(db)).find((table) => table.name === "news_posts");
  expect(posts?.columns.map((c) => c.name)).not.toContain("status");
  expect(posts?.columns.map((c) => c.name)).not.toContain("announced_at");
  await migrateToLatest(db);
});
