import { z } from "zod";
import { cleanTitle } from "../../lib/text";

/** A CMS page address: a path of lowercase words, e.g. /purpose-objectives. */
export const pageUrlSchema = z
  .string()
  .trim()
  .max(200)
  .transform((v) => `/${v.replace(/^\/+|\/+$/g, "")}`)
  .pipe(z.string().regex(/^\/[a-z0-9-]+(\/[a-z0-9-]+)*$/, { error: "Unknown page." }));

export const pageUpdateSchema = z.object({
  title: z
    .string({ error: "The title is required." })
    .overwrite(cleanTitle)
    .min(1, { error: "The title is required." })
    .max(200, {
      error: "The title may not be longer than 200 characters.",
    }),
  content: z.string({ error: "The content is required." }).max(500_000, { error: "The content is too long." }),
});
export type PageUpdate = z.input<typeof pageUpdateSchema>;

export type Page = { url: string; title: string; content: string; updated_at: string };
