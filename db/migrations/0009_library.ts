import { sql } from "kysely";
import { type AnyDb, isPostgres, notNull, withId } from "./dialect";

/**
 * The document library (issue 14, decision 0025):
 * - paper_categories.is_public: 1 public, 0 members-only, null inherits the parent's (a root without
 *   one is members-only);
 * - papers.file_type / file_size / file_name: the current file's sniffed type, size and the name it
 *   was uploaded as (shown beside the download link);
 * - paper_revisions: earlier files of a paper, each with the labels it carried, served at their own
 *   stable address;
 * - paper_pages: the text of the current file, page by page; each page is a search entry
 *   (kind 'paper_page', ref_id = paper_pages.id), so that a hit can say on which page it is;
 * - search_documents.display_title: what a result shows when its indexed title is not what to show
 *   (a page of a document: indexed without a title, shown as the paper's name and the page);
 * - the library's existing search entries become members-only (they were found by visitors).
 * On PostgreSQL the papers' sort indexes are rebuilt NULLS FIRST, the order SQLite gives nulls, so that
 * both dialects list papers without a date (number, organisation) in the same place, from the index.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("paper_categories")
    .addColumn("is_public", "integer", (c) => c.check(sql`is_public in (0, 1)`))
    .execute();
  await db.schema.alterTable("papers").addColumn("file_type", "text").execute();
  await db.schema.alterTable("papers").addColumn("file_size", "integer").execute();
  await db.schema.alterTable("papers").addColumn("file_name", "text").execute();

  await withId(db, db.schema.createTable("paper_revisions"))
    .addColumn("paper_id", "integer", (c) => c.notNull().references("papers.id").onDelete("cascade"))
    .addColumn("uploaded_file", "text", notNull)
    .addColumn("file_type", "text")
    .addColumn("file_size", "integer")
    .addColumn("file_name", "text")
    .addColumn("revision", "text")
    .addColumn("version", "text")
    .addColumn("date", "text")
    .addColumn("created_at", "text", notNull)
    .execute();
  await db.schema
    .createIndex("paper_revisions_paper_idx")
    .on("paper_revisions")
    .columns(["paper_id", "created_at", "id"])
    .execute();

  await withId(db, db.schema.createTable("paper_pages"))
    .addColumn("paper_id", "integer", (c) => c.notNull().references("papers.id").onDelete("cascade"))
    .addColumn("page", "integer", notNull)
    .addColumn("text", "text", notNull)
    .execute();
  await db.schema.createIndex("paper_pages_paper_idx").on("paper_pages").columns(["paper_id", "page"]).execute();

  if (isPostgres(db)) {
    for (const column of ["name", "number", "date", "organization"]) {
      await sql`drop index ${sql.id(`papers_category_${column}_idx`)}`.execute(db);
      await sql`create index ${sql.id(`papers_category_${column}_idx`)}
        on papers (papers_category_id, ${sql.id(column)} asc nulls first, id)`.execute(db);
    }
  }

  await db.schema.alterTable("search_documents").addColumn("display_title", "text").execute();
  await db
    .updateTable("search_documents")
    .set({ audience: "members" })
    .where("kind", "in", ["category", "paper"])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) {
    for (const column of ["name", "number", "date", "organization"]) {
      await sql`drop index ${sql.id(`papers_category_${column}_idx`)}`.execute(db);
      await sql`create index ${sql.id(`papers_category_${column}_idx`)}
        on papers (papers_category_id, ${sql.id(column)}, id)`.execute(db);
    }
  }
  await db.deleteFrom("search_documents").where("kind", "=", "paper_page").execute();
  await db.schema.alterTable("search_documents").dropColumn("display_title").execute();
  await db.schema.dropTable("paper_pages").execute();
  await db.schema.dropTable("paper_revisions").execute();
  for (const column of ["file_name", "file_size", "file_type"]) {
    await db.schema.alterTable("papers").dropColumn(column).execute();
  }
  await db.schema.alterTable("paper_categories").dropColumn("is_public").execute();
}
