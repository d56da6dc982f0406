import { sql } from "kysely";
import type { AnyDb } from "./dialect";

/**
 * Drafts of news posts (issue 34, decision 0070). `news_posts.status`: 'published' (every post
 * until now, and the default, so that SPEC's clients keep publishing) or 'draft', which nobody but
 * the admins sees anywhere.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("news_posts")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("published").check(sql`status in ('draft', 'published')`))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("news_posts").dropColumn("status").execute();
}
