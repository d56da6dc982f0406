import { sql } from "kysely";
import { type AnyDb, isPostgres } from "./dialect";

/**
 * A meeting's seats taken, kept by the database itself (issue 32's bench, decision 0069).
 *
 * `meetings.registration_seats`: how many of its registrations hold a seat (pending or confirmed,
 * probable spam included, as before). Counting them on every registration read thousands of index
 * entries (a seventh of a registration's time at 5 000 registrations); triggers on join_requests keep
 * the number instead, in the same transaction as the change, whichever code or script makes it, so
 * that it cannot drift from the rows it counts.
 *
 * A later migration that rebuilds join_requests on SQLite (create, copy, drop, rename) drops these
 * triggers with the old table: it must create them again (`registrationSeatTriggers` below is this
 * migration's own and must not change; copy it).
 */
const HOLDING = "('pending', 'confirmed')";

async function sqliteTriggers(db: AnyDb): Promise<void> {
  await sql
    .raw(`create trigger join_requests_seats_insert after insert on join_requests
      when new.meeting_id is not null and new.registration_status in ${HOLDING}
      begin update meetings set registration_seats = registration_seats + 1 where id = new.meeting_id; end`)
    .execute(db);
  await sql
    .raw(`create trigger join_requests_seats_delete after delete on join_requests
      when old.meeting_id is not null and old.registration_status in ${HOLDING}
      begin update meetings set registration_seats = registration_seats - 1 where id = old.meeting_id; end`)
    .execute(db);
  await sql
    .raw(`create trigger join_requests_seats_update after update of registration_status, meeting_id on join_requests
      when old.registration_status is not new.registration_status or old.meeting_id is not new.meeting_id
      begin
        update meetings set registration_seats = registration_seats - 1
          where id = old.meeting_id and old.registration_status in ${HOLDING};
        update meetings set registration_seats = registration_seats + 1
          where id = new.meeting_id and new.registration_status in ${HOLDING};
      end`)
    .execute(db);
}

async function postgresTriggers(db: AnyDb): Promise<void> {
  await sql
    .raw(`create function join_requests_seats() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' and old.meeting_id is not null and old.registration_status in ${HOLDING} then
          update meetings set registration_seats = registration_seats - 1 where id = old.meeting_id;
        end if;
        if tg_op <> 'DELETE' and new.meeting_id is not null and new.registration_status in ${HOLDING} then
          update meetings set registration_seats = registration_seats + 1 where id = new.meeting_id;
        end if;
        return null;
      end $$`)
    .execute(db);
  await sql
    .raw(`create trigger join_requests_seats_insert after insert on join_requests for each row
      when (new.registration_status in ${HOLDING}) execute function join_requests_seats()`)
    .execute(db);
  await sql
    .raw(`create trigger join_requests_seats_delete after delete on join_requests for each row
      when (old.registration_status in ${HOLDING}) execute function join_requests_seats()`)
    .execute(db);
  await sql
    .raw(`create trigger join_requests_seats_update after update of registration_status, meeting_id on join_requests
      for each row when (old.registration_status is distinct from new.registration_status
        or old.meeting_id is distinct from new.meeting_id)
      execute function join_requests_seats()`)
    .execute(db);
}

export async function registrationSeatTriggers(db: AnyDb): Promise<void> {
  if (isPostgres(db)) await postgresTriggers(db);
  else await sqliteTriggers(db);
}

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("meetings")
    .addColumn("registration_seats", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql
    .raw(`update meetings set registration_seats = (
      select count(*) from join_requests
      where join_requests.meeting_id = meetings.id and join_requests.registration_status in ${HOLDING})`)
    .execute(db);
  await registrationSeatTriggers(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (const name of ["join_requests_seats_insert", "join_requests_seats_delete", "join_requests_seats_update"]) {
    await sql.raw(`drop trigger ${name}${isPostgres(db) ? " on join_requests" : ""}`).execute(db);
  }
  if (isPostgres(db)) await sql.raw("drop function join_requests_seats()").execute(db);
  await db.schema.alterTable("meetings").dropColumn("registration_seats").execute();
}
