import { sql } from "kysely";
import { expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { migrationTest } from "../support/migrations";

const migration = migrationTest("0033_editor_role");

const at = "2026-11-28T09:00:00.000Z";
const addUser = (db: typeof migration.db, email: string, role: string) =>
  sql<{ id: number }>`insert into users (first_name, last_name, email, password_hash, role, created_at, updated_at)
    values ('Eve', 'Example', ${email}, 'x', ${role}, ${at}, ${at}) returning id`.execute(db);

it("migration 0033 lets a user be an editor, keeps every user and what points at them, and goes back", async () => {
  const { db } = migration;
  expect((await migration.toBefore()).error).toBeUndefined();
  // Before it: no editors, and a member with a session (a row that points at the user).
  await expect(addUser(db, "early-editor@example.org", "editor")).rejects.toThrow();
  const member = (await addUser(db, "member@example.org", "member")).rows[0].id;
  await sql`insert into sessions (user_id, token_hash, remember, expires_at, created_at)
    values (${member}, 'hash-1', 0, ${at}, ${at})`.execute(db);

  // The newest account is deleted before the migration: its id is never given again after it.
  const gone = (await addUser(db, "gone@example.org", "member")).rows[0].id;
  await db.deleteFrom("users").where("id", "=", gone).execute();

  await migrateToLatest(db);
  const editor = (await addUser(db, "editor@example.org", "editor")).rows[0].id;
  expect(editor).toBeGreaterThan(gone);
  await expect(addUser(db, "boss@example.org", "owner")).rejects.toThrow();
  // The session survived the rebuild, the email stays unique, and the cascade still works.
  expect(await db.selectFrom("sessions").select("user_id").execute()).toEqual([{ user_id: member }]);
  await expect(addUser(db, "member@example.org", "member")).rejects.toThrow();
  await sql`insert into sessions (user_id, token_hash, remember, expires_at, created_at)
    values (${editor}, 'hash-2', 0, ${at}, ${at})`.execute(db);
  await db.deleteFrom("users").where("id", "=", editor).execute();
  expect(await db.selectFrom("sessions").select("user_id").execute()).toEqual([{ user_id: member }]);

  // Back: an editor becomes a member, and the old check holds again.
  await addUser(db, "second-editor@example.org", "editor");
  expect((await migration.toBefore()).error).toBeUndefined();
  expect(
    await db.selectFrom("users").select(["email", "role"]).where("email", "=", "second-editor@example.org").execute(),
  ).toEqual([{ email: "second-editor@example.org", role: "member" }]);
  await expect(addUser(db, "late-editor@example.org", "editor")).rejects.toThrow();
  await migrateToLatest(db);
});
