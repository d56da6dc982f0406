import { sql } from "kysely";
import { type AnyDb, isPostgres } from "./dialect";

const OLD_CHECK = "role in ('admin', 'member')";
const NEW_CHECK = "role in ('admin', 'editor', 'member')";

/**
 * A third role, editor (issue 36): manages news, pages, meetings and the library, nothing of the
 * membership or the site's settings. Only the check on `users.role` changes.
 *
 * SQLite cannot alter a check constraint, so `users` is rebuilt as its documented 12-step
 * procedure says (https://www.sqlite.org/lang_altertable.html#otheralter): with foreign keys off,
 * so that dropping the old table deletes nothing of the many tables that point at it, then
 * checked before they are turned on again. Its indexes and triggers are re-created from their
 * own text.
 */
export async function up(db: AnyDb): Promise<void> {
  await replaceRoleCheck(db, OLD_CHECK, NEW_CHECK);
}

/** Back: the editors become members (their content stays theirs), then the check of migration 0001. */
export async function down(db: AnyDb): Promise<void> {
  await sql`update users set role = 'member' where role = 'editor'`.execute(db);
  await replaceRoleCheck(db, NEW_CHECK, OLD_CHECK);
}

async function replaceRoleCheck(db: AnyDb, from: string, to: string): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table users drop constraint users_role_check`.execute(db);
    await sql`alter table users add constraint users_role_check check (${sql.raw(to)})`.execute(db);
    return;
  }
  const { rows: tables } = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'table' and name = 'users'`.execute(db);
  const definition = tables[0]?.sql;
  if (!definition?.includes(from)) {
    throw new Error(`migration 0033: the users table's role check is not "${from}"`);
  }
  const { rows: dependents } = await sql<{ sql: string }>`
    select sql from sqlite_master
    where tbl_name = 'users' and type in ('index', 'trigger') and sql is not null`.execute(db);
  // Dropping the table drops its AUTOINCREMENT counter too: kept, so that no id of a deleted
  // account is ever given again (audit rows name accounts by id).
  const { rows: counters } = await sql<{ seq: number }>`
    select seq from sqlite_sequence where name = 'users'`.execute(db);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin`.execute(db);
    try {
      const rebuilt = definition
        .replace(from, to)
        .replace(/^create table\s+("users"|users)/i, 'create table "users_rebuilt"');
      await sql.raw(rebuilt).execute(db);
      await sql`insert into users_rebuilt select * from users`.execute(db);
      await sql`drop table users`.execute(db);
      await sql`alter table users_rebuilt rename to users`.execute(db);
      for (const { sql: statement } of dependents) await sql.raw(statement).execute(db);
      const counter = counters[0]?.seq ?? 0;
      await sql`delete from sqlite_sequence where name = 'users'`.execute(db);
      await sql`insert into sqlite_sequence (name, seq) values ('users', max(${counter}, coalesce((select max(id) from users), 0)))`.execute(
        db,
      );
      const { rows: broken } = await sql`pragma foreign_key_check`.execute(db);
      if (broken.length > 0) throw new Error(`migration 0033: ${broken.length} rows point at no user`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db).catch(() => undefined);
      throw error;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
