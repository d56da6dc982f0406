import { z } from "zod";
import { cleanTitle } from "../../lib/text";

/** A CMS page address: a path of lowercase words, e.g. /purpose-objectives. */
export const pageUrlSchema = z
  .string()
  .trim()
  .max(200)
  .transform((v) => `/${v.replace(/^\/+|\/+$/g, "")}`)
  .pipe(z.string().regex(/^\/[a-z0-9-]+(\/[a-z0-9-]+)*$/, { error: "Unknown page." }));

/** The longest page title: the schema's rule, and the form's maxLength. */
export const PAGE_TITLE_MAX = 200;

export const pageUpdateSchema = z.object({
  title: z
    .string({ error: "The title is required." })
    .overwrite(cleanTitle)
    .min(1, { error: "The title is required." })
    .max(PAGE_TITLE_MAX, {
      error: `The title may not be longer than ${PAGE_TITLE_MAX} characters.`,
    }),
  content: z.string({ error: "The content is required." }).max(500_000, { error: "The content is too long." }),
});
export type PageUpdate = z.input<typeof pageUpdateSchema>;

/** A CMS page as every adapter answers it: its content is sanitized HTML. */
export const pageSchema = z
  .object({ url: z.string(), title: z.string(), content: z.string(), updated_at: z.string() })
  .meta({ id: "Page" });
export type Page = z.output<typeof pageSchema>;

/** A page in the admin's list and the sitemap: without its content. */
export const pageSummarySchema = z
  .object({ id: z.number().int(), url: z.string(), title: z.string(), updated_at: z.string() })
  .meta({ id: "PageSummary" });
export type PageSummary = z.output<typeof pageSummarySchema>;
