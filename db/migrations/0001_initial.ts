import { sql } from "kysely";
import { type AnyDb, isPostgres, notNull, withId } from "./dialect";

/** Every entity of SPEC §3 and what the product needs around them. */
export async function up(db: AnyDb): Promise<void> {
  const pg = isPostgres(db);
  const ts = (name: string) => [name, "text", notNull] as const;

  await withId(db, db.schema.createTable("users"))
    .addColumn("first_name", "text", notNull)
    .addColumn("last_name", "text", notNull)
    .addColumn("email", "text", notNull)
    .addColumn("phone_number", "text")
    .addColumn("avatar", "text")
    .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('admin', 'member')`))
    .addColumn("password_hash", "text")
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn(...ts("created_at"))
    .addColumn(...ts("updated_at"))
    .execute();
  await db.schema.createIndex("users_email_unique").on("users").unique().expression(sql`lower(email)`).execute();
  await db.schema.createIndex("users_role_idx").on("users").columns(["role", "id"]).execute();

  await withId(db, db.schema.createTable("sessions"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("remember", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn(...ts("expires_at"))
    .addColumn(...ts("created_at"))
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_expires_idx").on("sessions").column("expires_at").execute();

  await withId(db, db.schema.createTable("one_time_tokens"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('password_reset', 'invitation')`))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn(...ts("expires_at"))
    .addColumn("used_at", "text")
    .addColumn(...ts("created_at"))
    .execute();
  await db.schema.createIndex("one_time_tokens_user_idx").on("one_time_tokens").columns(["user_id", "kind"]).execute();

  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("count", "integer", notNull)
    .addColumn(...ts("reset_at"))
    .execute();

  await db.schema
    .createTable("settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", notNull)
    .addColumn(...ts("updated_at"))
    .execute();

  await withId(db, db.schema.createTable("pages"))
    .addColumn("url", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", notNull)
    .addColumn("content", "text", notNull)
    .addColumn(...ts("created_at"))
    .addColumn(...ts("updated_at"))
    .execute();

  await withId(db, db.schema.createTable("paper_categories"))
    .addColumn("parent_id", "integer", (c) => c.references("paper_categories.id").onDelete("cascade"))
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", notNull)
    .addColumn("title", "text")
    .addColumn("title_description", "text")
    .addColumn("description", "text")
    .addColumn("content", "text")
    .addColumn("view_type", "text")
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("is_root", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("image", "text")
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn(...ts("created_at"))
    .addColumn(...ts("updated_at"))
    .execute();
  await db.schema
    .createIndex("paper_categories_parent_idx")
    .on("paper_categories")
    .columns(["parent_id", "position", "id"])
    .execute();

  await withId(db, db.schema.createTable("papers"))
    .addColumn("papers_category_id", "integer", (c) =>
      c.notNull().references("paper_categories.id").onDelete("cascade"),
    )
    .addColumn("name", "text", notNull)
    .addColumn("meeting", "text")
    .addColumn("description", "text")
    .addColumn("number", "text")
    .addColumn("organization", "text")
    .addColumn("reference", "text")
    .addColumn("revision", "text")
    .addColumn("version", "text")
    .addColumn("date", "text")
    .addColumn("publication_date", "text")
    .addColumn("forecast_date", "text")
    .addColumn("uploaded_file", "text")
    .addColumn(...ts("created_at"))
    .addColumn(...ts("updated_at"))
    .execute();
  for (const column of ["name", "number", "date", "organization"]) {
    await db.schema
      .createIndex(`papers_category_${column}_idx`)
      .on("papers")
      .columns(["papers_category_id", column, "id"])
      .execute();
  }

  await withId(db, db.schema.createTable("meetings"))
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", notNull)
    .addColumn("type", "text", notNull)
    .addColumn("meeting_type", "text")
    .addColumn("organization", "text")
    .addColumn("start_date", "text", notNull)
    .addColumn("end_date", "text")
    .addColumn("location", "text")
    .addColumn("information", "text")
    .addColumn("health", "text")
    .addColumn("registration", "text")
    .addColumn("content_title", "text")
    .addColumn("content", "text")
    .addColumn(...ts("created_at"))
    .addColumn(...ts("updated_at"))
    .execute();
  await db.schema.createIndex("meetings_start_idx").on("meetings").columns(["start_date", "id"]).execute();
  await db.schema.createIndex("meetings_type_start_idx").on("meetings").columns(["type", "start_date", "id"]).execute();

  await withId(db, db.schema.createTable("meeting_images"))
    .addColumn("meeting_id", "integer", (c) => c.notNull().references("meetings.id").onDelete("cascade"))
    .addColumn("path", "text", notNull)
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn(...ts("created_at"))
    .execute();
  await db.schema
    .createIndex("meeting_images_meeting_idx")
    .on("meeting_images")
    .columns(["meeting_id", "position"])
    .execute();

  await withId(db, db.schema.createTable("schedules"))
    .addColumn("event_id", "integer", (c) => c.notNull().references("meetings.id").onDelete("cascade"))
    .addColumn("meeting_date", "text", notNull)
    .addColumn("is_evening", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("start", "text")
    .addColumn("finish", "text")
    .addColumn("meeting_date_info", "text")
    .addColumn("description", "text")
    .execute();
  await db.schema
    .createIndex("schedules_event_idx")
    .on("schedules")
    .columns(["event_id", "meeting_date", "start"])
    .execute();

  await withId(db, db.schema.createTable("sponsors"))
    .addColumn("event_id", "integer", (c) => c.notNull().references("meetings.id").onDelete("cascade"))
    .addColumn("name", "text", notNull)
    .addColumn("link", "text")
    .addColumn("image", "text")
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("sponsors_event_idx").on("sponsors").columns(["event_id", "position"]).execute();

  await withId(db, db.schema.createTable("news_posts"))
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", notNull)
    .addColumn("content", "text", notNull)
    .addColumn("author_name", "text")
    .addColumn("image", "text")
    .addColumn("image_width", "integer")
    .addColumn("image_height", "integer")
    .addColumn(...ts("published_at"))
    .addColumn(...ts("created_at"))
    .addColumn(...ts("updated_at"))
    .execute();
  await db.schema.createIndex("news_posts_published_idx").on("news_posts").columns(["published_at", "id"]).execute();

  await withId(db, db.schema.createTable("join_requests"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('join', 'registration')`))
    .addColumn("meeting_id", "integer", (c) => c.references("meetings.id").onDelete("set null"))
    .addColumn("company_name", "text", notNull)
    .addColumn("representative_name", "text", notNull)
    .addColumn("email", "text", notNull)
    .addColumn("phone_number", "text", notNull)
    .addColumn("page_path", "text")
    .addColumn("ip", "text")
    .addColumn("handled_at", "text")
    .addColumn(...ts("created_at"))
    .execute();
  await db.schema.createIndex("join_requests_created_idx").on("join_requests").columns(["created_at", "id"]).execute();
  await db.schema
    .createIndex("join_requests_kind_idx")
    .on("join_requests")
    .columns(["kind", "created_at", "id"])
    .execute();

  await withId(db, db.schema.createTable("member_companies"))
    .addColumn("name", "text", notNull)
    .addColumn("country", "text", notNull)
    .addColumn("website", "text")
    .addColumn("logo", "text")
    .addColumn("joined_year", "integer")
    .addColumn(...ts("created_at"))
    .addColumn(...ts("updated_at"))
    .execute();
  await db.schema.createIndex("member_companies_name_idx").on("member_companies").column("name").execute();
  await db.schema
    .createIndex("member_companies_country_idx")
    .on("member_companies")
    .columns(["country", "name"])
    .execute();

  // Site search: one row per searchable thing, full text by the dialect's own engine.
  await withId(db, db.schema.createTable("search_documents"))
    .addColumn("kind", "text", notNull)
    .addColumn("ref_id", "text", notNull)
    .addColumn("url", "text", notNull)
    .addColumn("title", "text", notNull)
    .addColumn("body", "text", notNull)
    .addColumn(...ts("updated_at"))
    .addUniqueConstraint("search_documents_ref_unique", ["kind", "ref_id"])
    .execute();
  if (pg) {
    await sql`alter table search_documents add column tsv tsvector generated always as
      (setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')) stored`.execute(
      db,
    );
    await sql`create index search_documents_tsv_idx on search_documents using gin (tsv)`.execute(db);
  } else {
    await sql`create virtual table search_fts using fts5(title, body, content='search_documents', content_rowid='id', tokenize='porter unicode61')`.execute(
      db,
    );
    await sql`create trigger search_documents_ai after insert on search_documents begin
      insert into search_fts(rowid, title, body) values (new.id, new.title, new.body); end`.execute(db);
    await sql`create trigger search_documents_ad after delete on search_documents begin
      insert into search_fts(search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body); end`.execute(
      db,
    );
    await sql`create trigger search_documents_au after update on search_documents begin
      insert into search_fts(search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body);
      insert into search_fts(rowid, title, body) values (new.id, new.title, new.body); end`.execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (!isPostgres(db)) await sql`drop table if exists search_fts`.execute(db);
  for (const table of [
    "search_documents",
    "member_companies",
    "join_requests",
    "news_posts",
    "sponsors",
    "schedules",
    "meeting_images",
    "meetings",
    "papers",
    "paper_categories",
    "pages",
    "settings",
    "rate_limits",
    "one_time_tokens",
    "sessions",
    "users",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
