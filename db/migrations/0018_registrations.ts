import { sql } from "kysely";
import { type AnyDb, isPostgres } from "./dialect";

/**
 * Registrations for real (issue 32, decision 0052). A registration stays a join_requests row of
 * kind 'registration' (the inbox, spam marks and mail history keep working on it) and gains:
 * - registration_status: 'pending' (the default), 'confirmed', 'waitlisted', 'declined',
 *   'cancelled'; null for the other kinds. Existing registrations become 'pending'.
 * - registration_email: the e-mail folded (casefold) while the registration holds or waits for a
 *   seat, null once declined or cancelled (so the person may register again). Unique per meeting:
 *   the same address never takes two seats. Existing duplicates keep their seats as they did; only
 *   the oldest of each is keyed.
 * - note (optional), user_id (the signed-in sender; gone with the account), attended_at (check-in).
 * - join_request_events may record each state reached ('registration_<state>'), with who and why:
 *   the check on its event names is widened (SQLite cannot alter a check: the table is rebuilt).
 * - meetings: registration_auto_confirm (new registrations confirmed at once while seats remain,
 *   off by default) and registration_waitlist (on by default; only matters with a capacity).
 */
const STATES = sql`registration_status in ('pending', 'confirmed', 'waitlisted', 'declined', 'cancelled')`;
const OLD_EVENTS = ["approved", "declined"];
const NEW_EVENTS = [
  ...OLD_EVENTS,
  "registration_pending",
  "registration_confirmed",
  "registration_waitlisted",
  "registration_declined",
  "registration_cancelled",
  "registration_attended",
  "registration_not_attended",
];

async function eventsCheck(db: AnyDb, events: string[]): Promise<void> {
  const list = sql.join(events.map((e) => sql.lit(e)));
  if (isPostgres(db)) {
    await sql`alter table join_request_events drop constraint if exists join_request_events_event_check`.execute(db);
    await sql`alter table join_request_events add constraint join_request_events_event_check check (event in (${list}))`.execute(
      db,
    );
    return;
  }
  await sql`create table join_request_events_next (
    id integer primary key autoincrement,
    join_request_id integer not null references join_requests(id) on delete cascade,
    event text not null check (event in (${list})),
    user_id integer references users(id) on delete set null,
    user_name text not null,
    company_id integer references member_companies(id) on delete set null,
    company_name text,
    reason text,
    created_at text not null
  )`.execute(db);
  await sql`insert into join_request_events_next
    (id, join_request_id, event, user_id, user_name, company_id, company_name, reason, created_at)
    select id, join_request_id, event, user_id, user_name, company_id, company_name, reason, created_at
    from join_request_events`.execute(db);
  await sql`drop table join_request_events`.execute(db);
  await sql`alter table join_request_events_next rename to join_request_events`.execute(db);
  await db.schema
    .createIndex("join_request_events_request_idx")
    .on("join_request_events")
    .columns(["join_request_id", "id"])
    .execute();
}

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("join_requests")
    .addColumn("registration_status", "text", (c) => c.check(STATES))
    .execute();
  await db.schema.alterTable("join_requests").addColumn("registration_email", "text").execute();
  await db.schema.alterTable("join_requests").addColumn("note", "text").execute();
  await db.schema
    .alterTable("join_requests")
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .execute();
  await db.schema.alterTable("join_requests").addColumn("attended_at", "text").execute();
  await sql`update join_requests set registration_status = 'pending' where kind = 'registration'`.execute(db);
  await sql`update join_requests set registration_email = casefold(email)
    where kind = 'registration' and meeting_id is not null`.execute(db);
  await sql`update join_requests set registration_email = null
    where registration_email is not null and exists (
      select 1 from join_requests older
      where older.meeting_id = join_requests.meeting_id
        and older.registration_email = join_requests.registration_email
        and older.id < join_requests.id)`.execute(db);
  await db.schema
    .createIndex("join_requests_registration_email_idx")
    .on("join_requests")
    .columns(["meeting_id", "registration_email"])
    .unique()
    .execute();
  // The admin's list of one meeting's registrations by state, newest first; the seat count by state.
  await db.schema
    .createIndex("join_requests_registration_idx")
    .on("join_requests")
    .columns(["meeting_id", "registration_status", "created_at", "id"])
    .execute();
  await db.schema
    .alterTable("meetings")
    .addColumn("registration_auto_confirm", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("meetings")
    .addColumn("registration_waitlist", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await eventsCheck(db, NEW_EVENTS);
}

/** Back to registrations without states; their history rows of states go (the rows stay). */
export async function down(db: AnyDb): Promise<void> {
  await sql`delete from join_request_events where event like 'registration_%'`.execute(db);
  await eventsCheck(db, OLD_EVENTS);
  await db.schema.alterTable("meetings").dropColumn("registration_waitlist").execute();
  await db.schema.alterTable("meetings").dropColumn("registration_auto_confirm").execute();
  await db.schema.dropIndex("join_requests_registration_idx").execute();
  await db.schema.dropIndex("join_requests_registration_email_idx").execute();
  for (const column of ["attended_at", "user_id", "note", "registration_email", "registration_status"]) {
    await db.schema.alterTable("join_requests").dropColumn(column).execute();
  }
}
