import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { migrations } from "../../db/migrations";
import { createEmptyDatabase, createTestDatabase, type TestDatabase } from "../support/database";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database.cleanup());

/** A migrator over the database's own migration tables (on PostgreSQL, those of its schema). */
async function migratorOf(handle: TestDatabase): Promise<Migrator> {
  const migrationTableSchema =
    handle.dialect === "postgres"
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db)).rows[0]?.schema
      : undefined;
  return new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations }, migrationTableSchema });
}

it("migration 0010 keeps the requests and their mails, and lets the inbox hold messages and probable spam", async () => {
  const { db } = database;
  const migrator = await migratorOf(database);
  const down = await migrator.migrateTo("0009_library");
  expect(down.error).toBeUndefined();

  const at = "2026-01-01T00:00:00.000Z";
  await sql`insert into join_requests (kind, company_name, representative_name, email, phone_number, page_path, created_at)
    values ('join', 'Old Marine Ltd', 'Olive Old', 'olive@old.example', '+44 20 7946 0000', '/history', ${at})`.execute(
    db,
  );
  const [old] = (await sql<{ id: number }>`select id from join_requests`.execute(db)).rows;
  await sql`insert into mail_queue (join_request_id, purpose, to_address, subject, body_text, status, attempts, next_attempt_at, created_at)
    values (${old.id}, 'acknowledgement', 'olive@old.example', 'Thanks', 'Body', 'sent', 1, ${at}, ${at})`.execute(db);

  await migrateToLatest(db);
  const [kept] = await db.selectFrom("join_requests").selectAll().execute();
  expect(kept).toMatchObject({
    id: old.id,
    kind: "join",
    company_name: "Old Marine Ltd",
    phone_number: "+44 20 7946 0000",
    subject: null,
    message: null,
    spam_reason: null,
  });
  expect(await db.selectFrom("mail_queue").select("join_request_id").execute()).toEqual([{ join_request_id: old.id }]);

  // A message has no company or phone; a new id follows the old ones.
  const message = await db
    .insertInto("join_requests")
    .values({
      kind: "message",
      representative_name: "Mia Message",
      email: "mia@example.org",
      subject: "Radar alarms",
      message: "Too many of them.",
      spam_reason: "too_fast",
      created_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  expect(Number(message.id)).toBeGreaterThan(old.id);
  await expect(
    db
      .insertInto("join_requests")
      .values({
        kind: "message",
        representative_name: "x",
        email: "x@example.org",
        created_at: at,
        spam_reason: "odd" as "too_fast",
      })
      .execute(),
  ).rejects.toThrow();

  // The mails still belong to their request: deleting it deletes them (the foreign key survived the rebuild).
  await db.deleteFrom("join_requests").where("id", "=", old.id).execute();
  expect(await db.selectFrom("mail_queue").selectAll().execute()).toEqual([]);
});

/** What the schema says about the inbox's table (and the mails that point at it), as the dialect reports it. */
async function inboxSchema(handle: TestDatabase) {
  const { db } = handle;
  if (handle.dialect === "postgres") {
    const columns = await sql`
      select column_name, data_type, is_nullable, column_default from information_schema.columns
      where table_schema = current_schema() and table_name = 'join_requests' order by ordinal_position`.execute(db);
    const constraints = await sql`
      select conrelid::regclass::text as "table", conname, pg_get_constraintdef(oid) as definition from pg_constraint
      where conrelid in ('join_requests'::regclass, 'mail_queue'::regclass) order by 1, 2`.execute(db);
    const indexes = await sql`
      select indexname, indexdef from pg_indexes
      where schemaname = current_schema() and tablename = 'join_requests' order by indexname`.execute(db);
    return { columns: columns.rows, constraints: constraints.rows, indexes: indexes.rows };
  }
  const objects = await sql`
    select type, name, tbl_name, sql from sqlite_master where tbl_name in ('join_requests', 'mail_queue') order by name`.execute(
    db,
  );
  const mailKeys = await sql`select * from pragma_foreign_key_list('mail_queue')`.execute(db);
  return { objects: objects.rows, mailKeys: mailKeys.rows };
}

it("migration 0010 undone puts the table back as 0009 had it, keeping its rows, and can be done again", async () => {
  const fresh = await createEmptyDatabase();
  try {
    const { db } = fresh;
    const migrator = await migratorOf(fresh);
    expect((await migrator.migrateTo("0009_library")).error).toBeUndefined();
    const before = await inboxSchema(fresh);

    const at = "2026-01-01T00:00:00.000Z";
    await sql`insert into join_requests (kind, company_name, representative_name, email, phone_number, created_at)
      values ('join', 'Keel Ltd', 'Kim Keel', 'kim@keel.example', '+44 20 7946 0001', ${at})`.execute(db);
    expect((await migrator.migrateTo("0010_inbox_messages")).error).toBeUndefined();
    const message = await sql<{
      id: number;
    }>`insert into join_requests (kind, representative_name, email, subject, message, created_at)
      values ('message', 'Mia Message', 'mia@example.org', 'Radar', 'Hello.', ${at}) returning id`.execute(db);

    // A message has no place in the table as it was: undoing says so, and changes nothing.
    const refused = await migrator.migrateTo("0009_library");
    expect(String(refused.error)).toMatch(
      /Migration 0010 cannot be undone: 1 inbox entry .*Export and delete them first\./,
    );
    expect((await sql`select count(*) as n from join_requests`.execute(db)).rows).toEqual([{ n: 2 }]);

    await sql`delete from join_requests where id = ${message.rows[0].id}`.execute(db);
    expect((await migrator.migrateTo("0009_library")).error).toBeUndefined();
    expect(await inboxSchema(fresh)).toEqual(before);
    expect((await sql`select company_name from join_requests`.execute(db)).rows).toEqual([
      { company_name: "Keel Ltd" },
    ]);
    // The old rules hold again.
    await expect(
      sql`insert into join_requests (kind, company_name, representative_name, email, phone_number, created_at)
        values ('message', 'x', 'x', 'x@example.org', 'x', ${at})`.execute(db),
    ).rejects.toThrow();
    await expect(
      sql`insert into join_requests (kind, representative_name, email, phone_number, created_at)
        values ('join', 'x', 'x@example.org', 'x', ${at})`.execute(db),
    ).rejects.toThrow();

    // And up again, to the end.
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    await sql`insert into join_requests (kind, representative_name, email, subject, message, spam_reason, created_at)
      values ('message', 'Mia Message', 'mia@example.org', 'Radar', 'Hello again.', 'too_fast', ${at})`.execute(db);
    expect((await sql`select count(*) as n from join_requests`.execute(db)).rows).toEqual([{ n: 2 }]);
  } finally {
    await fresh.cleanup();
  }
});

it("migration 0012 keeps the requests, their mails and marks, takes 'no_form_time' and keeps the site's keys", async () => {
  const { db } = database;
  await migrateToLatest(db);
  const down = await (await migratorOf(database)).migrateTo("0011_image_alt_text");
  expect(down.error).toBeUndefined();

  const at = "2026-02-01T00:00:00.000Z";
  const kept = await db
    .insertInto("join_requests")
    .values({
      kind: "message",
      representative_name: "Sam Spam",
      email: "sam@example.org",
      subject: "Offer",
      message: "Buy now.",
      spam_reason: "too_fast",
      created_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await sql`insert into mail_queue (join_request_id, purpose, to_address, subject, body_text, status, attempts, next_attempt_at, created_at)
    values (${kept.id}, 'notification', 'office@example.org', 'Probable spam', 'Body', 'sent', 1, ${at}, ${at})`.execute(
    db,
  );
  // Before 0012 the new mark is refused.
  await expect(
    db
      .insertInto("join_requests")
      .values({
        kind: "join",
        representative_name: "x",
        email: "x@example.org",
        created_at: at,
        spam_reason: "no_form_time",
      })
      .execute(),
  ).rejects.toThrow();

  await migrateToLatest(db);
  expect(await db.selectFrom("join_requests").select(["id", "spam_reason"]).execute()).toContainEqual({
    id: kept.id,
    spam_reason: "too_fast",
  });
  const marked = await db
    .insertInto("join_requests")
    .values({
      kind: "join",
      representative_name: "y",
      email: "y@example.org",
      created_at: at,
      spam_reason: "no_form_time",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  expect(Number(marked.id)).toBeGreaterThan(Number(kept.id));
  await expect(
    db
      .insertInto("join_requests")
      .values({
        kind: "join",
        representative_name: "z",
        email: "z@example.org",
        created_at: at,
        spam_reason: "odd" as "too_fast",
      })
      .execute(),
  ).rejects.toThrow();
  // The site makes its form key once; a second process finds the same one.
  await db.insertInto("app_secrets").values({ name: "form-time", value: "a", created_at: at }).execute();
  await db
    .insertInto("app_secrets")
    .values({ name: "form-time", value: "b", created_at: at })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  expect(await db.selectFrom("app_secrets").select("value").execute()).toEqual([{ value: "a" }]);
  // The mails still belong to their request (the foreign key survived the rebuild).
  await db.deleteFrom("join_requests").where("id", "=", kept.id).execute();
  expect(await db.selectFrom("mail_queue").selectAll().execute()).toEqual([]);
});
