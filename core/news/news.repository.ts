import { type Expression, type Insertable, type RawBuilder, type SqlBool, sql, type Updateable } from "kysely";
import type { Dialect } from "../../db/connect";
import type { Executor, NewsPostsTable } from "../../db/types";

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
 * Which posts a read takes (decisions 0070, 0071): those everyone sees at `now` ("visible": published,
 * and dated now or before), or for the admins' list those whose time is still ahead ("scheduled"),
 * drafts, or all of them.
 */
export type NewsState = "visible" | "scheduled" | "draft" | "all";

/**
 * `matching`: a subquery of post ids (the search module's full-text match), joined into the list's own
 * query. `state` (visible by default) as seen at `now` (ISO).
 */
export type NewsFilter = {
  from?: string;
  to?: string;
  matching?: Expression<number>;
  state?: NewsState;
  now: string;
};

/** Whether a post is seen by everyone at `now`: published and its time come (decisions 0070, 0071). For the search's `shownWhen`. */
export function isPublishedPost(postId: RawBuilder<number>, now: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from news_posts as shown_post
    where shown_post.id = ${postId} and shown_post.status = 'published' and shown_post.published_at <= ${now})`;
}

/** Runs on the executor it is given: the database, or the transaction of a write. */
export function createNewsRepository(db: Executor) {
  function filtered(filter: NewsFilter) {
    let query = db.selectFrom("news_posts");
    const state = filter.state ?? "visible";
    if (state === "draft") query = query.where("status", "=", "draft");
    if (state === "visible") {
      query = query.where("status", "=", "published").where("published_at", "<=", filter.now);
    }
    if (state === "scheduled") query = query.where("status", "=", "published").where("published_at", ">", filter.now);
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
    async months(now: string): Promise<string[]> {
      const { rows } = await sql<{ month: string }>`
        with recursive months(month) as (
          select (select substr(published_at, 1, 7) from news_posts
            where published_at <= ${now} and status = 'published'
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
    /** A post as everyone sees it at `now` (drafts and scheduled posts are the admins', read by id). */
    async findBySlug(slug: string, now: string) {
      return db
        .selectFrom("news_posts")
        .selectAll()
        .where("slug", "=", slug)
        .where("status", "=", "published")
        .where("published_at", "<=", now)
        .executeTakeFirst();
    },
    async latestExcept(slug: string, limit: number, now: string) {
      return db
        .selectFrom("news_posts")
        .select([...SUMMARY])
        .where("slug", "!=", slug)
        .where("status", "=", "published")
        .where("published_at", "<=", now)
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
    /**
     * The next moment a post becomes visible by itself (the earliest scheduled post's time), or null:
     * what is cached from now on lives no longer than that (decision 0071).
     */
    async nextAppearance(now: string): Promise<string | null> {
      const row = await db
        .selectFrom("news_posts")
        .select("published_at")
        .where("status", "=", "published")
        .where("published_at", ">", now)
        .orderBy("published_at")
        .limit(1)
        .executeTakeFirst();
      return row?.published_at ?? null;
    },
    /** The moment the latest visible post appeared (its date, now or before), or null. */
    async latestAppearance(now: string): Promise<string | null> {
      const row = await db
        .selectFrom("news_posts")
        .select("published_at")
        .where("status", "=", "published")
        .where("published_at", "<=", now)
        .orderBy("published_at", "desc")
        .limit(1)
        .executeTakeFirst();
      return row?.published_at ?? null;
    },
    /** Visible posts nobody was told of yet (scheduled ones whose time has come). */
    async dueUnannounced(now: string) {
      return db
        .selectFrom("news_posts")
        .select("id")
        .where("announced_at", "is", null)
        .where("status", "=", "published")
        .where("published_at", "<=", now)
        .orderBy("published_at")
        .execute();
    },
    /** Marks the post as told of; false when it was already (another process, another save). */
    async markAnnounced(id: number, at: string): Promise<boolean> {
      const result = await db
        .updateTable("news_posts")
        .set({ announced_at: at })
        .where("id", "=", id)
        .where("announced_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** Slugs and dates for the sitemap and feeds; bounded by the sitemap protocol's 50 000 entries. */
    async allForSitemap(now: string) {
      return db
        .selectFrom("news_posts")
        .select(["slug", "updated_at"])
        .where("status", "=", "published")
        .where("published_at", "<=", now)
        .orderBy("published_at", "desc")
        .limit(45_000)
        .execute();
    },
  };
}
export type NewsRepository = ReturnType<typeof createNewsRepository>;
