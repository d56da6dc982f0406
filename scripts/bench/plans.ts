import { sql } from "kysely";
import { openSqlite } from "../../db/connect";

/**
 * `npx tsx scripts/bench/plans.ts [db file]`: SQLite's query plans for the
 * news, meetings and papers list queries on the bench database, to check they use
 * their indexes rather than scanning the table.
 */
const file = process.argv[2] ?? "tmp/bench-data/site.db";
const { db, destroy } = openSqlite(file);
const queries: Record<string, ReturnType<typeof sql>> = {
  "first page": sql`select id from news_posts order by published_at desc, id desc limit 9 offset 0`,
  "a month": sql`select id from news_posts where published_at >= '2022-06-01' and published_at < '2022-07-01' order by published_at desc, id desc limit 9`,
  "count in a month": sql`select count(*) from news_posts where published_at >= '2022-06-01' and published_at < '2022-07-01'`,
  "date filters": sql`with recursive months(month) as (
    select substr(max(published_at), 1, 7) from news_posts
    union all
    select (select substr(max(published_at), 1, 7) from news_posts where published_at < months.month || '-01')
    from months where months.month is not null
  ) select month from months where month is not null`,
  "by slug": sql`select * from news_posts where slug = 'bench-post-5000'`,
  "meetings to come (visitors)": sql`select id from meetings where visibility = 'public' and start_date >= '2026-10-23' and coalesce(end_date, start_date) >= '2026-11-23' order by start_date, id limit 51`,
  "past meetings (visitors)": sql`select id from meetings where visibility = 'public' and start_date < '2026-11-23' and (start_date < '2026-10-23' or coalesce(end_date, start_date) < '2026-11-23') order by start_date desc, id desc limit 12`,
  "meetings of a type to come (members)": sql`select id from meetings where type = 'webinar' and start_date >= '2026-10-23' and coalesce(end_date, start_date) >= '2026-11-23' order by start_date, id limit 51`,
  "meetings from a date (API)": sql`select id from meetings where visibility = 'public' and start_date >= '2025-06-01' order by start_date, id limit 12`,
  "admin list": sql`select id from meetings order by created_at desc, id desc limit 12`,
  "a month grid": sql`select * from meetings where visibility = 'public' and start_date >= '2026-10-01' and start_date < '2026-12-01' order by start_date, id limit 200`,
  "programme of a page of meetings": sql`select * from schedules where event_id in (1, 2, 3) order by event_id, meeting_date, start, id`,
  ...Object.fromEntries(
    (
      [
        ["number", "asc nulls first", "asc"],
        ["number", "desc nulls last", "desc"],
        ["date", "asc nulls first", "asc"],
        ["date", "desc nulls last", "desc"],
        ["organization", "asc nulls first", "asc"],
        ["organization", "desc nulls last", "desc"],
        ["name", "asc nulls first", "asc"],
      ] as const
    ).map(([column, order, tie]) => [
      `papers by ${column} ${tie}`,
      sql`select * from papers where papers_category_id = 9001 order by ${sql.ref(column)} ${sql.raw(order)}, id ${sql.raw(tie)} limit 20 offset 7980`,
    ]),
  ),
  "papers, their count": sql`select count(*) from papers where papers_category_id = 9001`,
  "revisions of a page of papers": sql`select * from paper_revisions where paper_id in (1, 2, 3) order by created_at desc, id desc`,
  "pages of a page of papers": sql`select cast(id as text) from paper_pages where paper_id in (1, 2, 3)`,
};
for (const [name, query] of Object.entries(queries)) {
  const { rows } = await sql<{ detail: string }>`explain query plan ${query}`.execute(db);
  console.log(`${name}: ${rows.map((r) => r.detail).join(" | ")}`);
}
await destroy();
