import type { AnyDb } from "./dialect";

/**
 * news_posts.excerpt: the list's plain-text excerpt, written with the post, so
 * that lists no longer read every post's full HTML to cut one (decision 0020).
 * Existing posts are backfilled here with a copy of the rule as it stands
 * today; the application's own function may change later, this one must not.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("news_posts")
    .addColumn("excerpt", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  let after = 0;
  for (;;) {
    const rows: { id: number; content: string }[] = await db
      .selectFrom("news_posts")
      .select(["id", "content"])
      .where("id", ">", after)
      .orderBy("id")
      .limit(500)
      .execute();
    for (const row of rows) {
      await db
        .updateTable("news_posts")
        .set({ excerpt: excerptOf(row.content) })
        .where("id", "=", row.id)
        .execute();
    }
    if (rows.length < 500) break;
    after = rows[rows.length - 1].id;
  }
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("news_posts").dropColumn("excerpt").execute();
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

/** At most 220 characters of the HTML's text, cut at a word with an ellipsis. */
function excerptOf(html: string): string {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+\d*);/gi, (entity, name: string) => {
      const key = name.toLowerCase();
      if (key in ENTITIES) return ENTITIES[key];
      if (key.startsWith("#x")) return String.fromCodePoint(Number.parseInt(key.slice(2), 16) || 32);
      if (key.startsWith("#")) return String.fromCodePoint(Number(key.slice(1)) || 32);
      return entity;
    })
    .replace(/\s+/g, " ")
    .trim();
  return text.length > 220 ? `${text.slice(0, 217).replace(/\s+\S*$/, "")}…` : text;
}
