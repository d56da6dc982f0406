import { sql } from "kysely";
import { type AnyDb, isPostgres, notNull } from "./dialect";

/**
 * The public forms' shown-at time is issued by the server, signed (decision 0039):
 * - app_secrets: keys the site makes for itself on first use and shares between its processes
 *   (one row per purpose; the HMAC key of the forms' shown-at time is the first);
 * - join_requests.spam_reason takes 'no_form_time' beside 'honeypot' and 'too_fast': a request sent
 *   without a shown-at time the site signed (missing, unsigned or forged) is kept as probable spam.
 * SQLite cannot change a column's CHECK, so join_requests is rebuilt there as migration 0010 did
 * (foreign keys off meanwhile, or dropping the old table would cascade to mail_queue).
 */
const KINDS = sql`kind in ('join', 'registration', 'message')`;

async function allowReasons(db: AnyDb, reasons: string[]): Promise<void> {
  const check = sql`spam_reason in (${sql.join(reasons.map((reason) => sql.lit(reason)))})`;
  if (isPostgres(db)) {
    const { rows } = await sql<{ name: string }>`
      select conname as name from pg_constraint
      where conrelid = 'join_requests'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%spam_reason%'`.execute(
      db,
    );
    for (const row of rows) await sql`alter table join_requests drop constraint ${sql.id(row.name)}`.execute(db);
    await sql`alter table join_requests add constraint join_requests_spam_reason_check check (${check})`.execute(db);
    return;
  }
  // Migrations on SQLite run outside a transaction (Kysely), so the pragma takes effect here.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin`.execute(db);
    await sql`
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
        spam_reason text check (${check})
      )`.execute(db);
    await sql`
      insert into join_requests_new
        (id, kind, meeting_id, company_name, representative_name, email, phone_number, page_path, ip, handled_at,
         created_at, subject, message, spam_reason)
      select id, kind, meeting_id, company_name, representative_name, email, phone_number, page_path, ip, handled_at,
         created_at, subject, message, spam_reason
      from join_requests`.execute(db);
    await sql`drop table join_requests`.execute(db);
    await sql`alter table join_requests_new rename to join_requests`.execute(db);
    for (const [name, columns] of [
      ["join_requests_created_idx", ["created_at", "id"]],
      ["join_requests_kind_idx", ["kind", "created_at", "id"]],
      ["join_requests_meeting_idx", ["meeting_id", "created_at"]],
      ["join_requests_spam_idx", ["spam_reason", "created_at", "id"]],
    ] as const) {
      await db.schema
        .createIndex(name)
        .on("join_requests")
        .columns([...columns])
        .execute();
    }
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

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("app_secrets")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "text", notNull)
    .addColumn("created_at", "text", notNull)
    .execute();
  await allowReasons(db, ["honeypot", "too_fast", "no_form_time"]);
}

export async function down(db: AnyDb): Promise<void> {
  // The older schema knows no 'no_form_time': such requests stay probable spam, as sent too fast.
  await sql`update join_requests set spam_reason = 'too_fast' where spam_reason = 'no_form_time'`.execute(db);
  await allowReasons(db, ["honeypot", "too_fast"]);
  await db.schema.dropTable("app_secrets").execute();
}
