import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { migrations } from "../../db/migrations";
import { excerptOf } from "../../lib/html";
import { createTestDatabase, type TestDatabase } from "../support/database";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database.cleanup());

it("migration 0007 backfills the excerpt of posts written before it", async () => {
  const { db } = database;
  const migrationTableSchema =
    database.dialect === "postgres"
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableSchema });
  const down = await migrator.migrateTo("0006_session_last_seen");
  expect(down.error).toBeUndefined();

  const long = `<p>${"Harbour pilots met the port authority. ".repeat(10)}</p>`;
  const at = "2026-01-01T00:00:00.000Z";
  for (const [slug, content] of [
    ["short", "<h2>Notice</h2><p>Fish &amp; chips <script>x()</script>at noon.</p>"],
    ["long", long],
  ]) {
    await sql`insert into news_posts (slug, title, content, published_at, created_at, updated_at)
      values (${slug}, ${slug}, ${content}, ${at}, ${at}, ${at})`.execute(db);
  }

  await migrateToLatest(db);
  const rows = await db.selectFrom("news_posts").select(["slug", "excerpt"]).orderBy("slug").execute();
  expect(rows[1]).toEqual({ slug: "short", excerpt: "Notice Fish & chips at noon." });
  // The migration's copy of the rule agrees with the application's as it stands.
  expect(rows[0].excerpt).toBe(excerptOf(long));
  expect(rows[0].excerpt.length).toBeLessThanOrEqual(220);
  expect(rows[0].excerpt.endsWith("…")).toBe(true);
});
