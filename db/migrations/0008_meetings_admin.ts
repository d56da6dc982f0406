import { sql } from "kysely";
import type { AnyDb } from "./dialect";

/**
 * Meetings, complete (issue 13, decision 0023):
 * - meetings.timezone: the IANA zone schedule times are wall-clock times in (existing rows: Europe/London,
 *   the site's default zone);
 * - meetings.visibility: 'public' or 'members' (members-only meetings are never shown to visitors);
 * - registration settings: open or closed, the last day registrations are taken, a capacity;
 * - meetings.sequence: the ICS SEQUENCE, raised on every change, so calendar apps take the new version;
 * - search_documents.audience: 'public' or 'members', so that site search answers by who asks;
 * - users.calendar_token_hash: the hash of the secret in a member's private calendar feed URL.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("meetings")
    .addColumn("timezone", "text", (c) => c.notNull().defaultTo("Europe/London"))
    .execute();
  await db.schema
    .alterTable("meetings")
    .addColumn("visibility", "text", (c) =>
      c.notNull().defaultTo("public").check(sql`visibility in ('public', 'members')`),
    )
    .execute();
  await db.schema
    .alterTable("meetings")
    .addColumn("registration_open", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable("meetings").addColumn("registration_closes_on", "text").execute();
  await db.schema.alterTable("meetings").addColumn("capacity", "integer").execute();
  await db.schema
    .alterTable("meetings")
    .addColumn("sequence", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // Visitors' lists: public meetings in calendar order (the members' lists use the existing indexes).
  await db.schema
    .createIndex("meetings_visibility_start_idx")
    .on("meetings")
    .columns(["visibility", "start_date", "id"])
    .execute();
  // The admin list: newest first.
  await db.schema.createIndex("meetings_created_idx").on("meetings").columns(["created_at", "id"]).execute();
  // Registrations of one meeting (count against capacity, the CSV export).
  await db.schema
    .createIndex("join_requests_meeting_idx")
    .on("join_requests")
    .columns(["meeting_id", "created_at"])
    .execute();

  await db.schema
    .alterTable("search_documents")
    .addColumn("audience", "text", (c) => c.notNull().defaultTo("public").check(sql`audience in ('public', 'members')`))
    .execute();

  await db.schema.alterTable("users").addColumn("calendar_token_hash", "text").execute();
  await db.schema.createIndex("users_calendar_token_idx").on("users").column("calendar_token_hash").unique().execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex("users_calendar_token_idx").execute();
  await db.schema.alterTable("users").dropColumn("calendar_token_hash").execute();
  await db.schema.alterTable("search_documents").dropColumn("audience").execute();
  await db.schema.dropIndex("join_requests_meeting_idx").execute();
  await db.schema.dropIndex("meetings_created_idx").execute();
  await db.schema.dropIndex("meetings_visibility_start_idx").execute();
  for (const column of [
    "sequence",
    "capacity",
    "registration_closes_on",
    "registration_open",
    "visibility",
    "timezone",
  ]) {
    await db.schema.alterTable("meetings").dropColumn(column).execute();
  }
}
