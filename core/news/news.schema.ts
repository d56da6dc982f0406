import { z } from "zod";
import { pageNumberSchema } from "../../lib/pagination";
import { cleanTitle, showsSomething } from "../../lib/text";

/** SPEC §3 'Date filters': month-year strings, here MM-YYYY (e.g. 11-2026). */
export const MONTH_FILTER = /^(0[1-9]|1[0-2])-(\d{4})$/;
export const NEWS_PER_PAGE = 9;

export const postsQuerySchema = z.object({
  filters: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v === null || v === undefined || v === "" || v === "all" ? null : v))
    .refine((v) => v === null || MONTH_FILTER.test(v), { error: "The date filter must be a month such as 11-2026." }),
  search: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? "").trim().slice(0, 200)),
  page: pageNumberSchema,
});
export type PostsQuery = z.output<typeof postsQuerySchema>;

/** A post in a list, as every adapter answers it (the OpenAPI document shows this schema). */
export const postSummarySchema = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    title: z.string(),
    excerpt: z.string(),
    author_name: z.string().nullable(),
    image: z.string().nullable(),
    image_width: z.number().int().nullable(),
    image_height: z.number().int().nullable(),
    published_at: z.string(),
  })
  .meta({ id: "PostSummary" });
export type PostSummary = z.output<typeof postSummarySchema>;

/** A whole post: the list's fields without the excerpt, with the sanitized content and the image's sizes. */
export const postSchema = postSummarySchema
  .omit({ excerpt: true })
  .extend({ content: z.string(), image_srcset: z.string().nullable() })
  .meta({ id: "Post" });
export type Post = z.output<typeof postSchema>;

/** The months that have posts, newest first, as month filters. */
export const dateFiltersSchema = z
  .array(z.string().regex(MONTH_FILTER))
  .meta({ description: "Months with posts, newest first, as MM-YYYY.", example: ["11-2026", "10-2026"] });

/** "11-2026" → the UTC half-open range [2026-11-01, 2026-12-01). */
export function monthRange(filter: string): { from: string; to: string } {
  const [, month, year] = MONTH_FILTER.exec(filter) ?? [];
  const m = Number(month);
  const y = Number(year);
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
  return { from: `${y}-${month}-01`, to: `${next}-01` };
}

/** "2026-11" (as stored) → "11-2026" (as filtered). */
export function monthFilterOf(yearMonth: string): string {
  return `${yearMonth.slice(5, 7)}-${yearMonth.slice(0, 4)}`;
}

// One formatter for all labels: toLocaleDateString builds a new one per call (about 90 times slower).
const MONTH_FORMAT = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });

export function monthLabel(filter: string, now = new Date()): string {
  const current = `${String(now.getUTCMonth() + 1).padStart(2, "0")}-${now.getUTCFullYear()}`;
  if (filter === current) return "This month";
  const { from } = monthRange(filter);
  return MONTH_FORMAT.format(new Date(`${from}T00:00:00Z`));
}

/** An admin's post (SPEC §7 'POST /dashboard/news'); image_width/height from clients are ignored. */
export const postInputSchema = z.object({
  title: z
    .string({ error: "The title field is required." })
    .overwrite(cleanTitle)
    .min(1, { error: "The title field is required." })
    .max(200, { error: "The title may not be longer than 200 characters." }),
  // Required here as far as the raw HTML tells (so that every missing field is reported at once), and
  // again after sanitizing in news.service, where `<script>x</script>` is nothing.
  content: z
    .string({ error: "The content field is required." })
    .refine((v) => v.length <= 500_000, { error: "The content is too long.", abort: true })
    .refine(showsSomething, { error: "The content field is required." }),
  author_name: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => cleanTitle(v ?? "").slice(0, 120) || null),
});
export type PostInput = z.input<typeof postInputSchema>;
/** A post as the service takes it: already parsed by postInputSchema (by the route's contract or the page's action). */
export type PostData = z.output<typeof postInputSchema>;

export const adminListSchema = z.object({
  search: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? "").trim().slice(0, 200)),
  page: postsQuerySchema.shape.page,
});
/** The admin list query, parsed. */
export type AdminListQuery = z.output<typeof adminListSchema>;

/** A post's address on the site: the one place that knows news lives under /post/. */
export function postUrl(slug: string): string {
  return `/post/${slug}`;
}
