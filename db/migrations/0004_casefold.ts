import { sql } from "kysely";
import { type AnyDb, isPostgres } from "./dialect";

/**
 * `casefold(text)`: lower case for every alphabet, so that searching "émile"
 * finds "Émile" on both dialects. SQLite's own lower() folds only ASCII, so
 * SQLite gets the function from the connection (db/connect.ts registers it);
 * PostgreSQL's lower() already folds Unicode and is wrapped under the same name.
 */
export async function up(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create or replace function casefold(value text) returns text
    language sql immutable strict parallel safe as $$ select lower(value) $$`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) await sql`drop function if exists casefold(text)`.execute(db);
}
