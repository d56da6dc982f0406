import { type Expression, type Insertable, type RawBuilder, type SqlBool, sql, type Updateable } from "kysely";
import type { Dialect } from "../../db/connect";
import type { Executor, NewsPostStatus, NewsPostsTable } from "../../db/types";

const SUMMARY = [
  "id",
  "slug",
  "title",
  "excerpt",
  "author_name",
  "image",
  "image_width",
  "image_height",
  "image_alt",
  "image_decorative",
  "published_at",
  "status",
] as const;

/**
 * `matching`: a subquery of post ids (the search module's full-text match), joined into the list's own
 * query. `state`: the posts everyone sees ("published", the default), or for the admins' list also
 * their drafts ("all") or only them ("draft").
 */
export type NewsFilter = {
  from?: string;
  to?: string;
  matching?: Expression<number>;
  state?: NewsPostStatus | "all";
};

/** Whether a post is seen by everyone: not a draft (decision 0070). For the search's `shownWhen`. */
export function isPublishedPost(postId: RawBuilder<number>): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from news_posts as shown_post
    where shown_post.id = ${postId} and shown_post.status = 'published')`;
}

/** Runs on the executor it is given: the database, or the transaction of a write. */
export function createNewsRepository(db: Executor) {
  function filtered(filter: NewsFilter) {
    let query = db.selectFrom("news_posts");
    const state = filter.state ?? "published";
    if (state !== "all") query = query.where("status", "=", state);
    if (filter.from) query = query.where("published_at", ">=", filter.from);
    if (filter.to) query = query.where("published_at", "<", filter.to);
    if (filter.matching) query = query.where("id", "in", filter.matching);
    return query;
  }

  return {
    /** Newest first, on the (published_at, id) index. */
    async list(filter: NewsFilter, offset: number, limit: number) {
      return filtered(filter)
        .select([...SUMMARY])
        .orderBy("published_at", "desc")
        .orderBy("id", "desc")
        .offset(offset)
        .limit(limit)
        .execute();
    },
    async count(filter: NewsFilter): Promise<number> {
      const row = await filtered(filter)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /**
     * The months (YYYY-MM) that have published posts, newest first. One index seek per month (the
     * newest published post before the month found last, read backwards on (published_at, id) until
     * the first that is not a draft) instead of reading every post: ten thousand posts over nine
     * years cost 107 seeks, not 10 000 rows.
     */
    async months(): Promise<string[]> {
      const { rows } = await sql<{ month: string }>`
        with recursive months(month) as (
          select (select substr(published_at, 1, 7) from news_posts where status = 'published'
            order by published_at desc limit 1)
          union all
          select (select substr(published_at, 1, 7) from news_posts
            where published_at < months.month || '-01' and status = 'published'
            order by published_at desc limit 1)
          from months where months.month is not null
        )
        select month from months where month is not null`.execute(db);
      return rows.map((r) => r.month);
    },
    /** A post as everyone sees it: published (drafts are the admins', read by id). */
    async findBySlug(slug: string) {
      return db
        .selectFrom("news_posts")
        .selectAll()
        .where("slug", "=", slug)
        .where("status", "=", "published")
        .executeTakeFirst();
    },
    async latestExcept(slug: string, limit: number) {
      return db
        .selectFrom("news_posts")
        .select([...SUMMARY])
        .where("slug", "!=", slug)
        .where("status", "=", "published")
        .orderBy("published_at", "desc")
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
    },
    async findById(id: number) {
      return db.selectFrom("news_posts").selectAll().where("id", "=", id).executeTakeFirst();
    },
    /**
     * The post a write is about to change, read in that write's transaction: locked until it commits
     * on PostgreSQL, so what the write decided from it (whether the post has an image) still holds when
     * it writes. SQLite has no row locks; its one connection runs the transaction alone.
     */
    async findForWrite(id: number, dialect: Dialect) {
      const query = db.selectFrom("news_posts").selectAll().where("id", "=", id);
      return (dialect === "postgres" ? query.forUpdate() : query).executeTakeFirst();
    },
    /** Slugs that are taken among a base slug and its numbered variants (base, base-2, …). */
    async slugsLike(base: string): Promise<string[]> {
      const rows = await db
        .selectFrom("news_posts")
        .select("slug")
        .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", `${base}-%`)]))
        .execute();
      return rows.map((r) => r.slug);
    },
    async insert(row: Insertable<NewsPostsTable>) {
      return db.insertInto("news_posts").values(row).returningAll().executeTakeFirstOrThrow();
    },
    async update(id: number, values: Updateable<NewsPostsTable>) {
      return db.updateTable("news_posts").set(values).where("id", "=", id).returningAll().executeTakeFirst();
    },
    async remove(id: number) {
      return db.deleteFrom("news_posts").where("id", "=", id).returningAll().executeTakeFirst();
    },
    /** Slugs and dates for the sitemap and feeds; bounded by the sitemap protocol's 50 000 entries. */
    async allForSitemap() {
      return db
        .selectFrom("news_posts")
        .select(["slug", "updated_at"])
        .where("status", "=", "published")
        .orderBy("published_at", "desc")
        .limit(45_000)
        .execute();
    },
  };
}
export type NewsRepository = ReturnType<typeof createNewsRepository>;
