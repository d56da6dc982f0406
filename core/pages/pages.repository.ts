import { type RawBuilder, type SqlBool, sql } from "kysely";
import type { Executor, PageSection, PageStatus } from "../../db/types";

/** Whether the page at this address is seen by everyone at `now` (decision 0072). For the search's `shownWhen`. */
export function isVisiblePage(url: RawBuilder<string>, now: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from pages as shown_page where shown_page.url = ${url}
    and shown_page.status = 'published' and (shown_page.published_at is null or shown_page.published_at <= ${now}))`;
}

export type PageValues = {
  title: string;
  content: string;
  status: PageStatus;
  published_at: string | null;
  section: PageSection | null;
  in_menu: number;
  in_footer: number;
  position: number;
  updated_at: string;
};

const SUMMARY = [
  "id",
  "url",
  "title",
  "updated_at",
  "status",
  "published_at",
  "section",
  "in_menu",
  "in_footer",
  "position",
] as const;

/** Runs on the executor it is given: the database, or the transaction of a write. */
export function createPagesRepository(db: Executor) {
  /** Seen by everyone at `now`: published, and its time come (none: since ever). */
  const visible = (now: string) =>
    db
      .selectFrom("pages")
      .where("status", "=", "published")
      .where((eb) => eb.or([eb("published_at", "is", null), eb("published_at", "<=", now)]));

  return {
    /** In any state: the admins' screens. */
    async findByUrl(url: string) {
      return db.selectFrom("pages").selectAll().where("url", "=", url).executeTakeFirst();
    },
    async findById(id: number) {
      return db.selectFrom("pages").selectAll().where("id", "=", id).executeTakeFirst();
    },
    async findVisibleByUrl(url: string, now: string) {
      return visible(now).selectAll().where("url", "=", url).executeTakeFirst();
    },
    async list() {
      return db.selectFrom("pages").select(SUMMARY).orderBy("url").limit(500).execute();
    },
    async listVisible(now: string) {
      return visible(now).select(["url", "updated_at"]).orderBy("url").limit(500).execute();
    },
    /** The visible pages of the association's own placed in a menu or the footer, in their order. */
    async placed(now: string) {
      return visible(now)
        .select(["url", "title", "section", "in_menu", "in_footer"])
        .where((eb) => eb.or([eb("in_menu", "=", 1), eb("in_footer", "=", 1)]))
        .orderBy("position")
        .orderBy("title")
        .orderBy("id")
        .limit(200)
        .execute();
    },
    /** Inserts the pages whose URL is not taken yet; returns how many were new. */
    async insertMissing(
      pages: { url: string; title: string; content: string; created_at: string; updated_at: string }[],
    ) {
      if (pages.length === 0) return 0;
      const inserted = await db
        .insertInto("pages")
        .values(pages)
        .onConflict((oc) => oc.column("url").doNothing())
        .returning("id")
        .execute();
      return inserted.length;
    },
    /** A new page; undefined when the address is taken. */
    async insert(values: PageValues & { url: string; created_at: string }) {
      return db
        .insertInto("pages")
        .values(values)
        .onConflict((oc) => oc.column("url").doNothing())
        .returningAll()
        .executeTakeFirst();
    },
    async update(url: string, values: PageValues) {
      return db.updateTable("pages").set(values).where("url", "=", url).returningAll().executeTakeFirst();
    },
    async remove(url: string) {
      return db.deleteFrom("pages").where("url", "=", url).returning("id").executeTakeFirst();
    },
    /** The next moment a scheduled page appears, after `now`. */
    async nextAppearance(now: string): Promise<string | null> {
      const row = await db
        .selectFrom("pages")
        .select((eb) => eb.fn.min("published_at").as("at"))
        .where("status", "=", "published")
        .where("published_at", ">", now)
        .executeTakeFirst();
      return row?.at ?? null;
    },
    /** The latest moment a page became visible, now or before. */
    async latestAppearance(now: string): Promise<string | null> {
      const row = await db
        .selectFrom("pages")
        .select((eb) => eb.fn.max("published_at").as("at"))
        .where("status", "=", "published")
        .where("published_at", "<=", now)
        .executeTakeFirst();
      return row?.at ?? null;
    },
  };
}
export type PagesRepository = ReturnType<typeof createPagesRepository>;
