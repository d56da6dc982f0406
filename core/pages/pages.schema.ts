import { z } from "zod";
import { cleanTitle } from "../../lib/text";
import { publicationStatusSchema, publishAtInput } from "../publication/publication";
import { PAGE_SECTIONS, RESERVED_SLUGS } from "./fixed-pages";

/** A CMS page address: a path of lowercase words, e.g. /purpose-objectives. */
export const pageUrlSchema = z
  .string()
  .trim()
  .max(200)
  .transform((v) => `/${v.replace(/^\/+|\/+$/g, "")}`)
  .pipe(z.string().regex(/^\/[a-z0-9-]+(\/[a-z0-9-]+)*$/, { error: "Unknown page." }));

/** The longest page title: the schema's rule, and the form's maxLength. */
export const PAGE_TITLE_MAX = 200;

/** A checkbox or boolean; absent: as it was (an update from SPEC's clients sends title and content alone). */
const placementFlag = z
  .union([z.boolean(), z.string(), z.number(), z.null()])
  .optional()
  .transform((v) =>
    v === undefined || v === null ? undefined : v === true || v === "on" || v === "true" || v === "1" || v === 1,
  );

export const pageStatusSchema = publicationStatusSchema("page");

/** Where a page of the association's own belongs; "" or null: standing alone. */
const sectionInput = z
  .union([z.enum(PAGE_SECTIONS.map((s) => s.id) as ["about", "services"]), z.literal(""), z.null()], {
    error: "The section must be about, services or none.",
  })
  .optional()
  .transform((v) => (v === undefined ? undefined : v || null))
  .meta({
    description: "For a page of the association's own: `about`, `services`, or null for a page standing alone.",
  });

export const pageUpdateSchema = z.object({
  title: z
    .string({ error: "The title is required." })
    .overwrite(cleanTitle)
    .min(1, { error: "The title is required." })
    .max(PAGE_TITLE_MAX, {
      error: `The title may not be longer than ${PAGE_TITLE_MAX} characters.`,
    }),
  content: z.string({ error: "The content is required." }).max(500_000, { error: "The content is too long." }),
  // The fields below are optional: absent, each stays as it was. The fixed pages take none of them
  // but `status: published` (SPEC's structure: always there, always in its place).
  status: pageStatusSchema.optional(),
  publish_at: publishAtInput("page"),
  section: sectionInput,
  in_menu: placementFlag.meta({ description: "Listed in its section's submenu of the main menu (about or services)." }),
  in_footer: placementFlag.meta({ description: "Listed in the footer." }),
  position: z
    .union([z.number(), z.string(), z.null()])
    .optional()
    .transform((v) => (v === undefined || v === null || v === "" ? undefined : Number(v)))
    .pipe(
      z
        .number({ error: "The position must be a whole number." })
        .int({ error: "The position must be a whole number." })
        .min(0, { error: "The position must be 0 or more." })
        .max(999, { error: "The position may not be more than 999." })
        .optional(),
    )
    .meta({ description: "The order among the pages of the association's own in the same place (0 first)." }),
});
export type PageUpdate = z.input<typeof pageUpdateSchema>;

/** A page's own address: one segment of lowercase words, not one the site answers itself. */
export const pageSlugSchema = z
  .string({ error: "The address is required." })
  .trim()
  .toLowerCase()
  .transform((v) => v.replace(/^\/+|\/+$/g, ""))
  .pipe(
    z
      .string()
      .min(1, { error: "The address is required." })
      .max(80, { error: "The address may not be longer than 80 characters." })
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, {
        error: "The address may hold lowercase letters, digits and single hyphens only, such as annual-report.",
      })
      .refine((v) => !RESERVED_SLUGS.has(v), { error: "This address is the site's own: choose another." }),
  )
  .meta({ description: "The page's address, one segment: `annual-report` is read at /annual-report." });

export const pageCreateSchema = pageUpdateSchema.extend({ slug: pageSlugSchema });
export type PageCreate = z.input<typeof pageCreateSchema>;

const adminPageFields = {
  status: pageStatusSchema,
  publish_at: z.string().nullable().meta({
    description:
      "When a scheduled page appears, or when a published page of its own appeared; null for a draft or a fixed page.",
  }),
  fixed: z.boolean().meta({ description: "One of SPEC's fixed pages: always published, never removed." }),
  section: z.enum(["about", "services"]).nullable(),
  in_menu: z.boolean(),
  in_footer: z.boolean(),
  position: z.number().int(),
};

/** A CMS page as every adapter answers it: its content is sanitized HTML. */
export const pageSchema = z
  .object({ url: z.string(), title: z.string(), content: z.string(), updated_at: z.string() })
  .meta({ id: "Page" });
export type Page = z.output<typeof pageSchema>;

/** A page in the admin's list and the sitemap: without its content. */
export const pageSummarySchema = z
  .object({ id: z.number().int(), url: z.string(), title: z.string(), updated_at: z.string(), ...adminPageFields })
  .meta({ id: "PageSummary" });
export type PageSummary = z.output<typeof pageSummarySchema>;

/** A page as the admins read it: with its state and its place. */
export const adminPageSchema = pageSchema
  .extend({ id: z.number().int(), ...adminPageFields })
  .meta({ id: "AdminPage" });
export type AdminPage = z.output<typeof adminPageSchema>;

/** A page of the association's own in the menus: its label and address. */
export type PlacedPage = { label: string; to: string; section: "about" | "services" | null };
/** The menus' and the footer's pages of the association's own, in order. */
export type PagePlacements = { menu: PlacedPage[]; footer: PlacedPage[] };
