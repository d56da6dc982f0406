import { sql } from "kysely";
import type { AnyDb } from "./dialect";

/**
 * Drafts and scheduled news posts (issue 34, decisions 0070 and 0071).
 *
 * `news_posts.status`: 'published' (every post until now, and the default, so that SPEC's clients
 * keep publishing) or 'draft', which nobody but the admins sees anywhere. A published post is seen
 * once its published_at has come: a post scheduled for later is a published post dated ahead.
 *
 * `news_posts.announced_at`: when those following the news were told of the post (a notice event
 * written), once, when it first became visible: at its save, or for a scheduled post by the notices
 * job once its time has come. Null until then; every existing post counts as told at its date.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("news_posts")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("published").check(sql`status in ('draft', 'published')`))
    .execute();
  await db.schema.alterTable("news_posts").addColumn("announced_at", "text").execute();
  await sql`update news_posts set announced_at = published_at`.execute(db);
  // The posts not yet told of: a few drafts and scheduled posts among thousands.
  await db.schema.createIndex("news_posts_unannounced_idx").on("news_posts").column("announced_at").execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex("news_posts_unannounced_idx").execute();
  await db.schema.alterTable("news_posts").dropColumn("announced_at").execute();
  await db.schema.alterTable("news_posts").dropColumn("status").execute();
}
