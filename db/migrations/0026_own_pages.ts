import { sql } from "kysely";
import type { AnyDb } from "./dialect";

/**
 * Pages of the association's own and the pages' states (issue 34, decision 0072).
 *
 * - `status`: 'published' (every page until now, and the default) or 'draft'. A published page is
 *   seen once its `published_at` has come; null means "since ever" (the fixed pages, and every page
 *   from before). A page scheduled for later is a published page dated ahead, as for news (0071).
 * - `section`: where a page of the association's own belongs: 'about', 'services', or null for a
 *   page standing alone. The fixed pages' places are the code's (core/pages/fixed-pages.ts).
 * - `in_menu`, `in_footer`, `position`: whether the page is listed in its section's submenu and in
 *   the footer, and in which order among the pages of its own there (after SPEC's fixed items).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("pages")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("published").check(sql`status in ('draft', 'published')`))
    .execute();
  await db.schema.alterTable("pages").addColumn("published_at", "text").execute();
  await db.schema
    .alterTable("pages")
    .addColumn("section", "text", (c) => c.check(sql`section in ('about', 'services')`))
    .execute();
  await db.schema
    .alterTable("pages")
    .addColumn("in_menu", "integer", (c) => c.notNull().defaultTo(0).check(sql`in_menu in (0, 1)`))
    .execute();
  await db.schema
    .alterTable("pages")
    .addColumn("in_footer", "integer", (c) => c.notNull().defaultTo(0).check(sql`in_footer in (0, 1)`))
    .execute();
  await db.schema
    .alterTable("pages")
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const column of ["position", "in_footer", "in_menu", "section", "published_at", "status"]) {
    await db.schema.alterTable("pages").dropColumn(column).execute();
  }
}
