import { type RawBuilder, sql } from "kysely";
import { type AnyDb, isPostgres } from "./dialect";

/**
 * The inbox keeps messages and probable spam (issue 30, decision 0039):
 * - join_requests.kind takes 'message' (the contact form of /contact and /feedback-forum) beside
 *   'join' and 'registration';
 * - subject and message: what a message says (null for the other kinds);
 * - company_name and phone_number may be null: a message asks for neither;
 * - spam_reason: why a request was judged probable spam ('honeypot', 'too_fast'), null otherwise;
 *   such requests are kept and shown as such instead of being dropped;
 * - an index on (spam_reason, created_at, id) for the inbox's filter.
 * SQLite cannot change a column's CHECK or NOT NULL, so the table is rebuilt there (rebuildOnSqlite);
 * PostgreSQL alters it.
 */
const KINDS = sql`kind in ('join', 'registration', 'message')`;
const REASONS = sql`spam_reason in ('honeypot', 'too_fast')`;

export async function up(db: AnyDb): Promise<void> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ name: string }>`
      select conname as name from pg_constraint
      where conrelid = 'join_requests'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%kind%'`.execute(
      db,
    );
    for (const row of rows) await sql`alter table join_requests drop constraint ${sql.id(row.name)}`.execute(db);
    await sql`alter table join_requests add constraint join_requests_kind_check check (${KINDS})`.execute(db);
    await sql`alter table join_requests alter column company_name drop not null`.execute(db);
    await sql`alter table join_requests alter column phone_number drop not null`.execute(db);
    await db.schema.alterTable("join_requests").addColumn("subject", "text").execute();
    await db.schema.alterTable("join_requests").addColumn("message", "text").execute();
    await db.schema
      .alterTable("join_requests")
      .addColumn("spam_reason", "text", (c) => c.check(REASONS))
      .execute();
  } else {
    await rebuildOnSqlite(
      db,
      "join_requests_new",
      sql`
        create table join_requests_new (
          id integer primary key autoincrement,
          kind text not null check (${KINDS}),
          meeting_id integer references meetings (id) on delete set null,
          company_name text,
          representative_name text not null,
          email text not null,
          phone_number text,
          page_path text,
          ip text,
          handled_at text,
          created_at text not null,
          subject text,
          message text,
          spam_reason text check (${REASONS})
        )`,
    );
  }
  await db.schema
    .createIndex("join_requests_spam_idx")
    .on("join_requests")
    .columns(["spam_reason", "created_at", "id"])
    .execute();
}

/**
 * Back to the table as 0009 left it, on both dialects: the kind check without 'message', a company
 * and a phone number required, no subject, message or spam reason, the same indexes (and on SQLite
 * the same CREATE TABLE, rebuilt as up() rebuilt it). What the old table cannot hold is not dropped
 * in silence: while the inbox has messages or requests without a company or phone number, undoing is
 * refused with how many there are. The spam mark of the rest goes with its column.
 */
export async function down(db: AnyDb): Promise<void> {
  const { rows } = await sql<{ n: number | string }>`
    select count(*) as n from join_requests
    where kind not in ('join', 'registration') or company_name is null or phone_number is null`.execute(db);
  const unfit = Number(rows[0]?.n ?? 0);
  if (unfit > 0) {
    throw new Error(
      `Migration 0010 cannot be undone: ${unfit} inbox ${unfit === 1 ? "entry" : "entries"} (messages, or requests without a company or phone number) would not fit the table as it was. Export and delete them first.`,
    );
  }
  await db.schema.dropIndex("join_requests_spam_idx").execute();
  if (isPostgres(db)) {
    await sql`alter table join_requests drop constraint join_requests_kind_check`.execute(db);
    await sql`alter table join_requests add constraint join_requests_kind_check check (kind in ('join', 'registration'))`.execute(
      db,
    );
    await sql`alter table join_requests alter column company_name set not null`.execute(db);
    await sql`alter table join_requests alter column phone_number set not null`.execute(db);
    await db.schema.alterTable("join_requests").dropColumn("spam_reason").execute();
    await db.schema.alterTable("join_requests").dropColumn("message").execute();
    await db.schema.alterTable("join_requests").dropColumn("subject").execute();
    return;
  }
  // Word for word what 0001 created (renamed after the copy), so the schema reads as it did.
  await rebuildOnSqlite(
    db,
    "join_requests_old",
    sql`CREATE TABLE "join_requests_old" ("id" integer primary key autoincrement, "kind" text not null check (kind in ('join', 'registration')), "meeting_id" integer references "meetings" ("id") on delete set null, "company_name" text not null, "representative_name" text not null, "email" text not null, "phone_number" text not null, "page_path" text, "ip" text, "handled_at" text, "created_at" text not null)`,
  );
}

/**
 * SQLite cannot change a column's CHECK or NOT NULL: the table is made anew as `create` says (under
 * `name`), the rows of 0009's columns copied with their ids, the old one dropped and the new one
 * renamed, with 0009's indexes; foreign keys off meanwhile (or dropping the old table would cascade
 * to mail_queue), and checked before the commit. Migrations on SQLite run outside a transaction
 * (Kysely), so the pragma takes effect here.
 */
async function rebuildOnSqlite(db: AnyDb, name: string, create: RawBuilder<unknown>): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin`.execute(db);
    await create.execute(db);
    await sql`
      insert into ${sql.table(name)}
        (id, kind, meeting_id, company_name, representative_name, email, phone_number, page_path, ip, handled_at, created_at)
      select id, kind, meeting_id, company_name, representative_name, email, phone_number, page_path, ip, handled_at, created_at
      from join_requests`.execute(db);
    await sql`drop table join_requests`.execute(db);
    await sql`alter table ${sql.table(name)} rename to join_requests`.execute(db);
    await db.schema
      .createIndex("join_requests_created_idx")
      .on("join_requests")
      .columns(["created_at", "id"])
      .execute();
    await db.schema
      .createIndex("join_requests_kind_idx")
      .on("join_requests")
      .columns(["kind", "created_at", "id"])
      .execute();
    await db.schema
      .createIndex("join_requests_meeting_idx")
      .on("join_requests")
      .columns(["meeting_id", "created_at"])
      .execute();
    const broken = await sql`pragma foreign_key_check`.execute(db);
    if (broken.rows.length > 0) throw new Error("join_requests rebuild left broken foreign keys");
    await sql`commit`.execute(db);
  } catch (error) {
    await sql`rollback`.execute(db).catch(() => undefined);
    throw error;
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
