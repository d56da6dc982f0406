import { sql } from "kysely";
import { openSqlite } from "../../db/connect";

/**
 * `npx tsx scripts/bench/plans.ts [db file]`: SQLite's query plans for the
 * news list queries on the bench database, to check they use the
 * (published_at, id) index rather than scanning the table.
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
};
for (const [name, query] of Object.entries(queries)) {
  const { rows } = await sql<{ detail: string }>`explain query plan ${query}`.execute(db);
  console.log(`${name}: ${rows.map((r) => r.detail).join(" | ")}`);
}
await destroy();
