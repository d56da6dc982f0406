import { expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { migrationTest } from "../support/migrations";

const migration = migrationTest("0037_masked_export_rows");

const row = (summary: string, action = "data_exported") => ({
  created_at: "2026-11-28T09:00:00.000Z",
  actor_id: null,
  actor_name: "Secretariat",
  action,
  entity: "person",
  entity_id: null,
  summary,
});

it("migration 0037 masks the address in the secretariat's earlier export rows, and nothing else", async () => {
  const { db } = migration;
  expect((await migration.toBefore()).error).toBeUndefined();
  await db
    .insertInto("audit_log")
    .values([
      row("Exported the personal data held about Jane.Doe@Example.org"),
      row("Exported the personal data held about j***@example.org"),
      row("Downloaded their personal data"),
      row("Exported the personal data held about someone@example.org", "update"),
    ])
    .execute();

  await migrateToLatest(db);
  expect((await db.selectFrom("audit_log").select("summary").orderBy("id").execute()).map((r) => r.summary)).toEqual([
    "Exported the personal data held about J***@Example.org",
    "Exported the personal data held about j***@example.org",
    "Downloaded their personal data",
    "Exported the personal data held about someone@example.org",
  ]);
  expect((await migration.toBefore()).error).toBeUndefined();
  await migrateToLatest(db);
});
