import { z } from "zod";
import { altTextField, decorativeField } from "../../lib/image-text";
import { listSearchSchema, pageNumberSchema } from "../../lib/pagination";
import { cleanTitle, showsSomething } from "../../lib/text";
import { publicationStatusSchema, publishAtInput } from "../publication/publication";
import { MONTH_FILTER } from "./news.values";

/** Plain values and helpers (no Zod) live in news.values.ts, for the browser (decision 0028). */
export { MONTH_FILTER, monthFilterOf, monthLabel, monthRange, NEWS_PER_PAGE, postUrl } from "./news.values";

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
    image_alt: z.string().meta({
      description: "The image's alt text; empty when there is no image, it is decorative, or it is not described yet.",
    }),
    image_decorative: z.boolean().meta({ description: 'The image is decorative: shown with alt="".' }),
    published_at: z.string(),
  })
  .meta({ id: "PostSummary" });
export type PostSummary = z.output<typeof postSummarySchema>;

/**
 * A post's state (decisions 0070, 0071): a draft, or a post scheduled for later, is seen by the
 * admins alone, everywhere; a published one by everyone.
 */
export const postStatusSchema = publicationStatusSchema("post");

/** A post in the admins' list: with its state. */
export const adminPostSummarySchema = postSummarySchema
  .extend({
    status: postStatusSchema,
    publish_at: z.string().nullable().meta({
      description: "When it is (or was) published: a scheduled post's time ahead; null for a draft.",
    }),
  })
  .meta({ id: "AdminPostSummary" });
export type AdminPostSummary = z.output<typeof adminPostSummarySchema>;

/** A whole post: the list's fields without the excerpt, with the sanitized content and the image's sizes. */
export const postSchema = postSummarySchema
  .omit({ excerpt: true })
  .extend({ content: z.string(), image_srcset: z.string().nullable() })
  .meta({ id: "Post" });
export type Post = z.output<typeof postSchema>;

/** A whole post as the admins read it: with its state. */
export const adminPostSchema = postSchema
  .extend({ status: postStatusSchema, publish_at: adminPostSummarySchema.shape.publish_at })
  .meta({ id: "AdminPost" });
export type AdminPost = z.output<typeof adminPostSchema>;

/** The months that have posts, newest first, as month filters. */
export const dateFiltersSchema = z
  .array(z.string().regex(MONTH_FILTER))
  .meta({ description: "Months with posts, newest first, as MM-YYYY.", example: ["11-2026", "10-2026"] });

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
  // Required when the post has an image that is not decorative: news.service knows whether it has one.
  image_alt: altTextField.meta({
    description:
      "The image's alt text: required whenever the post has an image, the one uploaded with the request or the one it " +
      "keeps, unless `image_decorative` is true. An update replaces every field, so a PATCH of a post whose image has " +
      'no alt text yet (posts from before alt text was asked for, which answer `image_alt: ""` and ' +
      "`image_decorative: false`) must send `image_alt` or `image_decorative`, or it is a 422 on `image_alt`.",
  }),
  image_decorative: decorativeField.meta({ description: 'The image only decorates: no alt text (alt="").' }),
  // Optional: a new post without it is published (SPEC's clients keep publishing); an update without it
  // keeps the post's state, so that a client that knows nothing of drafts never publishes one.
  status: postStatusSchema.optional(),
  // Required with `scheduled` (news.service checks it against the clock); ignored otherwise.
  publish_at: publishAtInput("post"),
});
export type PostInput = z.input<typeof postInputSchema>;
/** A post as the service takes it: already parsed by postInputSchema (by the route's contract or the page's action). */
export type PostData = z.output<typeof postInputSchema>;

export const adminListSchema = z.object({
  search: listSearchSchema(),
  page: postsQuerySchema.shape.page,
  /** Only the posts in this state; every post without it. */
  status: z
    .union([postStatusSchema, z.literal(""), z.null()])
    .optional()
    .transform((v) => v || undefined),
});
/** The admin list query, parsed. */
export type AdminListQuery = z.output<typeof adminListSchema>;
