import { type Expression, type Insertable, type Selectable, sql, type Updateable } from "kysely";
import type { Database, Executor, PaperCategoriesTable, PapersTable } from "../../db/types";

export type CategoryRow = Selectable<PaperCategoriesTable>;
export type PaperRow = Selectable<PapersTable>;
export type RevisionRow = Selectable<Database["paper_revisions"]>;
export type PaperOrder = { column: "name" | "number" | "date" | "organization"; direction: "asc" | "desc" };

/**
 * The library's SQL: the category tree, papers with their revisions, and the pages of their text.
 * It runs on the executor it is given (the database, or the transaction of a write).
 */
export function createLibraryRepository(db: Executor) {
  return {
    /** What it runs on: the database, or a write's transaction. */
    executor: db,
    /** The whole tree, parents' children in their order: small (tens of rows), read whole. */
    allCategories() {
      return db.selectFrom("paper_categories").selectAll().orderBy("position").orderBy("id").execute();
    },

    /** Every category's own working groups (issue 36): category id → group ids, ascending. */
    async categoryGroups(): Promise<Map<number, number[]>> {
      const rows = await db
        .selectFrom("category_groups")
        .select(["category_id", "group_id"])
        .orderBy("category_id")
        .orderBy("group_id")
        .execute();
      const byCategory = new Map<number, number[]>();
      for (const row of rows) {
        const ids = byCategory.get(row.category_id);
        if (ids) ids.push(row.group_id);
        else byCategory.set(row.category_id, [row.group_id]);
      }
      return byCategory;
    },

    /** Sets a category's own working groups (none: for every member, or as its is_public says). */
    async setCategoryGroups(categoryId: number, groupIds: readonly number[]) {
      await db.deleteFrom("category_groups").where("category_id", "=", categoryId).execute();
      if (groupIds.length > 0) {
        await db
          .insertInto("category_groups")
          .values(groupIds.map((group_id) => ({ category_id: categoryId, group_id })))
          .execute();
      }
    },

    findCategory(id: number) {
      return db.selectFrom("paper_categories").selectAll().where("id", "=", id).executeTakeFirst();
    },

    categorySlugsLike(base: string) {
      return db
        .selectFrom("paper_categories")
        .select("slug")
        .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", `${base}-%`)]))
        .execute()
        .then((rows) => rows.map((r) => r.slug));
    },

    insertCategory(values: Insertable<PaperCategoriesTable>) {
      return db.insertInto("paper_categories").values(values).returningAll().executeTakeFirstOrThrow();
    },

    updateCategory(id: number, values: Updateable<PaperCategoriesTable>) {
      return db
        .updateTable("paper_categories")
        .set(values)
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    deleteCategory(id: number) {
      return db.deleteFrom("paper_categories").where("id", "=", id).execute();
    },

    /** Places siblings in the given order (positions 0, 1, …). */
    async orderSiblings(ids: number[], now: string) {
      for (const [position, id] of ids.entries()) {
        await db.updateTable("paper_categories").set({ position, updated_at: now }).where("id", "=", id).execute();
      }
    },

    /** Papers directly in each category. */
    paperCounts() {
      return db
        .selectFrom("papers")
        .select(["papers_category_id", (eb) => eb.fn.countAll<number | string>().as("n")])
        .groupBy("papers_category_id")
        .execute();
    },

    /**
     * One page of a category's papers in one of the indexed orders
     * (papers_category_{column}_idx): ties by id in the same direction, so the index is read as it is.
     */
    async papersPage(input: {
      categoryId: number;
      order: PaperOrder;
      /** Search: ids of papers whose fields match, and of pages of their text that match. */
      matching: { fields: Expression<number>; pages: Expression<number> } | null;
      limit: number;
      offset: number;
    }) {
      let query = db.selectFrom("papers").where("papers_category_id", "=", input.categoryId);
      const matching = input.matching;
      if (matching) {
        query = query.where((eb) =>
          eb.or([
            eb("id", "in", matching.fields),
            eb("id", "in", eb.selectFrom("paper_pages").select("paper_id").where("id", "in", matching.pages)),
          ]),
        );
      }
      const [rows, count] = await Promise.all([
        query
          .selectAll()
          // Nulls first ascending, last descending: SQLite's own order, and PostgreSQL's indexes are built so (0009).
          .orderBy(
            sql`${sql.ref(input.order.column)} ${sql.raw(input.order.direction === "asc" ? "asc nulls first" : "desc nulls last")}`,
          )
          .orderBy("id", input.order.direction)
          .limit(input.limit)
          .offset(input.offset)
          .execute(),
        query.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    /** The page ids of some papers, as text (search entries' ref_id), for looking their hits up. */
    pageRefsOf(paperIds: number[]): Expression<string> {
      return db
        .selectFrom("paper_pages")
        .select(sql<string>`cast(id as text)`.as("ref"))
        .where("paper_id", "in", paperIds.length > 0 ? paperIds : [0]) as unknown as Expression<string>;
    },

    pagesById(ids: number[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom("paper_pages").select(["id", "paper_id", "page"]).where("id", "in", ids).execute();
    },

    papersByIds(ids: number[]) {
      if (ids.length === 0) return Promise.resolve([]);
      return db.selectFrom("papers").selectAll().where("id", "in", ids).orderBy("id").execute();
    },
    /** Each paper's first page of text (the one with the lowest number), for a notice's excerpt. */
    firstPageTexts(paperIds: number[]) {
      if (paperIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom("paper_pages as p")
        .select(["p.paper_id", "p.text"])
        .where("p.paper_id", "in", paperIds)
        .where("p.page", "=", (eb) =>
          eb
            .selectFrom("paper_pages as q")
            .select((q) => q.fn.min("q.page").as("m"))
            .whereRef("q.paper_id", "=", "p.paper_id"),
        )
        .execute();
    },
    findPaper(id: number) {
      return db.selectFrom("papers").selectAll().where("id", "=", id).executeTakeFirst();
    },

    insertPaper(values: Insertable<PapersTable>) {
      return db.insertInto("papers").values(values).returningAll().executeTakeFirstOrThrow();
    },

    updatePaper(id: number, values: Updateable<PapersTable>) {
      return db.updateTable("papers").set(values).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
    },

    deletePaper(id: number) {
      return db.deleteFrom("papers").where("id", "=", id).execute();
    },

    /** Earlier files of some papers, newest first. */
    /** The papers of these categories last added or changed, newest first (a category's feed). */
    recentPapers(categoryIds: number[], limit: number) {
      if (categoryIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom("papers")
        .selectAll()
        .where("papers_category_id", "in", categoryIds)
        .orderBy("updated_at", "desc")
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
    },
    revisionsOf(paperIds: number[]) {
      if (paperIds.length === 0) return Promise.resolve([] as RevisionRow[]);
      return db
        .selectFrom("paper_revisions")
        .selectAll()
        .where("paper_id", "in", paperIds)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .execute();
    },

    findRevision(paperId: number, revisionId: number) {
      return db
        .selectFrom("paper_revisions")
        .selectAll()
        .where("id", "=", revisionId)
        .where("paper_id", "=", paperId)
        .executeTakeFirst();
    },

    insertRevision(values: Insertable<Database["paper_revisions"]>) {
      return db.insertInto("paper_revisions").values(values).returningAll().executeTakeFirstOrThrow();
    },

    deleteRevision(id: number) {
      return db.deleteFrom("paper_revisions").where("id", "=", id).execute();
    },

    /** Every file key of a paper (current and earlier), for removing them with it. */
    async fileKeysOf(paperId: number): Promise<string[]> {
      const [paper, revisions] = await Promise.all([
        db.selectFrom("papers").select("uploaded_file").where("id", "=", paperId).executeTakeFirst(),
        db.selectFrom("paper_revisions").select("uploaded_file").where("paper_id", "=", paperId).execute(),
      ]);
      return [paper?.uploaded_file ?? null, ...revisions.map((r) => r.uploaded_file)].filter(
        (key): key is string => !!key,
      );
    },

    /** Replaces a paper's pages of text; returns the new pages with their ids. */
    async replacePages(paperId: number, pages: { page: number; text: string }[]) {
      const old = await db.selectFrom("paper_pages").select("id").where("paper_id", "=", paperId).execute();
      await db.deleteFrom("paper_pages").where("paper_id", "=", paperId).execute();
      const inserted: { id: number; page: number; text: string }[] = [];
      // A few hundred rows per statement stays within both dialects' parameter limits.
      for (let i = 0; i < pages.length; i += 200) {
        const rows = await db
          .insertInto("paper_pages")
          .values(pages.slice(i, i + 200).map((p) => ({ paper_id: paperId, page: p.page, text: p.text })))
          .returning(["id", "page", "text"])
          .execute();
        inserted.push(...rows);
      }
      return { removedIds: old.map((r) => r.id), inserted };
    },

    pagesOf(paperId: number) {
      return db
        .selectFrom("paper_pages")
        .select(["id", "page", "text"])
        .where("paper_id", "=", paperId)
        .orderBy("page")
        .execute();
    },

    pageIdsOf(paperId: number) {
      return db
        .selectFrom("paper_pages")
        .select("id")
        .where("paper_id", "=", paperId)
        .execute()
        .then((rows) => rows.map((r) => r.id));
    },

    /** The papers of some categories with their pages, for rebuilding their search entries. */
    papersIn(categoryId: number) {
      return db.selectFrom("papers").selectAll().where("papers_category_id", "=", categoryId).execute();
    },

    pagesOfPapersIn(categoryId: number, afterId: number, limit: number) {
      return db
        .selectFrom("paper_pages")
        .innerJoin("papers", "papers.id", "paper_pages.paper_id")
        .select(["paper_pages.id", "paper_pages.paper_id", "paper_pages.page", "paper_pages.text", "papers.name"])
        .where("papers.papers_category_id", "=", categoryId)
        .where("paper_pages.id", ">", afterId)
        .orderBy("paper_pages.id")
        .limit(limit)
        .execute();
    },

    /** A paper's file and the fields its download name is made from. */
    findPaperFile(id: number) {
      return db
        .selectFrom("papers")
        .select(["id", "name", "number", "uploaded_file", "file_type", "papers_category_id"])
        .where("id", "=", id)
        .executeTakeFirst();
    },

    /** Papers' file keys after `afterId`, by id, a page at a time. */
    paperFilesAfter(afterId: number, limit: number) {
      return db
        .selectFrom("papers")
        .select(["id", "uploaded_file", "file_size"])
        .where("id", ">", afterId)
        .where("uploaded_file", "is not", null)
        .orderBy("id")
        .limit(limit)
        .execute();
    },

    /** Papers stored before their file's type was recorded (migration 0009), after `afterId`. */
    papersWithoutFileFacts(afterId: number, limit: number) {
      return db
        .selectFrom("papers")
        .selectAll()
        .where("id", ">", afterId)
        .where("uploaded_file", "is not", null)
        .where("file_type", "is", null)
        .orderBy("id")
        .limit(limit)
        .execute();
    },

    setFileFacts(id: number, facts: { file_type: string; file_size: number }) {
      return db.updateTable("papers").set(facts).where("id", "=", id).execute();
    },
  };
}
export type LibraryRepository = ReturnType<typeof createLibraryRepository>;
