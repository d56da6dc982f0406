import type { AnyDb } from "./dialect";

/**
 * Alt text for the images that carry content (decision 0041): a news post's image and each of a
 * meeting's pictures get `alt` text and a `decorative` flag (alt="" on purpose). Existing images
 * become "not described yet" (alt '', not decorative): they render as before (alt="") and the
 * admin's form asks for their text at the next save. A title is no description of a picture.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("news_posts")
    .addColumn("image_alt", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema
    .alterTable("news_posts")
    .addColumn("image_decorative", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("meeting_images")
    .addColumn("alt", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema
    .alterTable("meeting_images")
    .addColumn("decorative", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("meeting_images").dropColumn("decorative").execute();
  await db.schema.alterTable("meeting_images").dropColumn("alt").execute();
  await db.schema.alterTable("news_posts").dropColumn("image_decorative").execute();
  await db.schema.alterTable("news_posts").dropColumn("image_alt").execute();
}
