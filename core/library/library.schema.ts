import { z } from "zod";
import { flag, given, line, lines, optionalDate, richTextInput } from "../../lib/form-fields";
import { MAX_ROW_ID } from "../../lib/ids";
import { listSearchSchema, pageNumberSchema } from "../../lib/pagination";
import { cleanTitle } from "../../lib/text";
import { AUDIENCES } from "../access/access";
import { groupIdsInput } from "../groups/groups.schema";
import { AUDIENCE_SETTINGS, SORT_VALUES, VIEW_TYPES } from "./library.values";

/**
 * The document library's contract (browser-safe; decisions 0024 and 0025).
 * Paper files are private: the only address of a paper's file is its download
 * route, which checks who asks; never an /uploads/ address.
 */

/** Views, sorts, fields and addresses (no Zod) live in library.values.ts, for the browser (decision 0028). */
export * from "./library.values";

// ---------------------------------------------------------------- answers

export const sortOptionSchema = z.object({ label: z.string(), value: z.enum(SORT_VALUES) }).meta({ id: "SortOption" });

export const breadcrumbSchema = z
  .object({ id: z.number().int(), name: z.string(), slug: z.string() })
  .meta({ id: "Breadcrumb" });
export type Breadcrumb = z.output<typeof breadcrumbSchema>;

const categoryFields = {
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  title: z.string().nullable(),
  title_description: z.string().nullable(),
  description: z.string().nullable(),
  content: z.string().nullable().meta({ description: "Sanitized HTML." }),
  view_type: z.enum(VIEW_TYPES).nullable().meta({ description: "null is the default view." }),
  parent_id: z.number().int().nullable(),
  is_active: z.boolean(),
  is_public: z.boolean().meta({ description: "Whether visitors may read it (its own setting or its parent's)." }),
  public_setting: z
    .enum(["inherit", "public", "members"])
    .meta({ description: "The category's own setting: inherit its parent's, public, or members-only." }),
  audience: z.enum(AUDIENCES).meta({
    description:
      "Who may read it, in effect (its own setting or its parent's): `public`, every member (`members`), or the members of `group_ids` (`groups`). Admins and editors read everything.",
  }),
  audience_setting: z.enum(AUDIENCE_SETTINGS).meta({
    description: "The category's own audience: inherit its parent's, public, members, or groups (its own `group_ids`).",
  }),
  group_ids: z
    .array(z.number().int())
    .meta({ description: "The working groups it is for (its own or inherited); empty unless `audience` is `groups`." }),
  is_root: z.boolean(),
  image: z.string().nullable(),
  position: z.number().int(),
  url: z.string().meta({ description: "The page the category is read at." }),
  children_display: z.enum(["tabs", "accordion"]),
  sort_options: z.array(sortOptionSchema),
  default_sort: z.enum(SORT_VALUES),
  papers_count: z.number().int(),
};

export const categorySchema = z.object(categoryFields).meta({ id: "Category" });
export type Category = z.output<typeof categorySchema>;

/** A category with its visible children, and theirs (SPEC §3 'children (nested)'). */
export type CategoryTree = Category & { children: CategoryTree[] };
export const categoryTreeSchema: z.ZodType<CategoryTree> = z
  .object({
    ...categoryFields,
    get children(): z.ZodArray<z.ZodType<CategoryTree>> {
      return z.array(categoryTreeSchema);
    },
  })
  .meta({ id: "CategoryTree" });

export const paperFileSchema = z
  .object({
    url: z.string(),
    type: z.string().meta({ description: "The content type, from the file's bytes." }),
    label: z.string().meta({ description: "PDF, Word, Excel, PowerPoint, XML, ZIP." }),
    size: z.number().int().nullable(),
  })
  .meta({ id: "PaperFile" });
export type PaperFile = z.output<typeof paperFileSchema>;

export const revisionSchema = z
  .object({
    id: z.number().int(),
    revision: z.string().nullable(),
    version: z.string().nullable(),
    date: z.string().nullable(),
    replaced_at: z.string(),
    file: paperFileSchema,
  })
  .meta({ id: "PaperRevision" });
export type Revision = z.output<typeof revisionSchema>;

export const paperMatchSchema = z
  .object({
    page: z.number().int().nullable().meta({ description: "The page of the hit inside the document, if it is there." }),
    snippet: z.string().meta({ description: "HTML: the text escaped, the matched words in <mark>." }),
    url: z.string().nullable().meta({ description: "Opens the document at the page of the hit." }),
  })
  .meta({ id: "PaperMatch" });

export const paperSchema = z
  .object({
    id: z.number().int(),
    papers_category_id: z.number().int(),
    name: z.string(),
    meeting: z.string().nullable(),
    description: z.string().nullable(),
    number: z.string().nullable(),
    organization: z.string().nullable(),
    reference: z.string().nullable(),
    revision: z.string().nullable(),
    version: z.string().nullable(),
    date: z.string().nullable(),
    publication_date: z.string().nullable(),
    forecast_date: z.string().nullable(),
    uploaded_file: z.string().nullable().meta({ description: "The address of the current file (its download)." }),
    // A union with null, not .nullable(): a named schema made nullable loses its name in the OpenAPI document.
    file: z.union([paperFileSchema, z.null()]),
    revisions: z.array(revisionSchema).meta({ description: "Earlier files, newest first." }),
    match: z.union([paperMatchSchema, z.null()]).meta({ description: "Where a searched list found the paper." }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Paper" });
export type Paper = z.output<typeof paperSchema>;

// ---------------------------------------------------------------- inputs

/** SPEC §7 'POST /dashboard/getPapersByCategory/{id} with search and sortBy'; the page is in the query. */
export const papersQuerySchema = z.object({
  search: listSearchSchema(),
  sortBy: z.preprocess(given, z.string().max(40).optional()),
});
export type PapersQuery = z.output<typeof papersQuerySchema>;
/** The address's part: the page, and the search if a client adds it to `next_page_url` (it may also be in the body). */
export const papersPageSchema = z.object({ page: pageNumberSchema, search: listSearchSchema() });

const PUBLIC_SETTINGS = ["inherit", "public", "members"] as const;
export type PublicSetting = (typeof PUBLIC_SETTINGS)[number];
/** `audience` as sent; absent: is_public decides, as SPEC has it. */
const audienceInput = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? undefined : v),
  z.enum(AUDIENCE_SETTINGS, { error: "The audience must be inherit, public, members or groups." }).optional(),
);

/**
 * is_public as a form or JSON sends it: true/false/1/0, or inherit (empty). Left out, it is
 * undefined: inherit for a new category, unchanged on an update (issue 36: a client that knows
 * nothing of audiences must not change one by leaving the field out).
 */
const publicSetting = z.preprocess((v) => {
  if (v === undefined) return undefined;
  if (v === null || v === "" || v === "inherit") return "inherit";
  if (v === true || v === "true" || v === "1" || v === 1 || v === "public") return "public";
  if (v === false || v === "false" || v === "0" || v === 0 || v === "members") return "members";
  return v;
}, z.enum(PUBLIC_SETTINGS, { error: "Public must be true, false or inherit." }).optional());

const nameField = z
  .string({ error: "The name field is required." })
  .overwrite(cleanTitle)
  .min(1, { error: "The name field is required." })
  .max(200, { error: "The name may not be longer than 200 characters." });

/** SPEC §7 'POST /dashboard/papers-categories/{id}': every field but the parent (moving is its own call). */
export const categoryUpdateSchema = z.object({
  name: nameField,
  title: line("title", 200),
  title_description: line("title description", 300),
  description: lines("description", 2000),
  content: richTextInput,
  view_type: z.preprocess(
    (v) => (v === undefined || v === null || v === "" || v === "default" ? null : v),
    z.enum(VIEW_TYPES, { error: `The view type must be one of: ${VIEW_TYPES.join(", ")}, default.` }).nullable(),
  ),
  // SPEC §3 'send is_active as a boolean'; absent means active.
  is_active: z.preprocess((v) => (v === undefined || v === null || v === "" ? true : v), flag),
  is_public: publicSetting,
  // Issue 36: `audience` (with `group_ids` for groups) wins over is_public when sent.
  audience: audienceInput,
  group_ids: groupIdsInput,
});
export type CategoryData = z.output<typeof categoryUpdateSchema>;

const parentId = z.preprocess(
  (v) => (v === undefined || v === null || v === "" || v === "null" || v === "0" || v === 0 ? null : v),
  z.coerce
    .number({ error: "The parent must be a category id." })
    .int({ error: "The parent must be a category id." })
    .positive({ error: "The parent must be a category id." })
    .max(MAX_ROW_ID, { error: "The parent must be a category id." })
    .nullable(),
);

/** SPEC §7 'POST /dashboard/papers-categories': a child of parent_id, or a root without one. */
export const categoryCreateSchema = categoryUpdateSchema.extend({ parent_id: parentId });
export type CategoryCreateData = z.output<typeof categoryCreateSchema>;

/** Moving a category: under another parent (or to the roots), at a place among its new siblings. */
export const categoryMoveSchema = z.object({
  parent_id: parentId,
  position: z.coerce
    .number({ error: "The position must be a whole number." })
    .int({ error: "The position must be a whole number." })
    .min(0, { error: "The position must be 0 or more." })
    .max(10_000)
    .optional(),
});
export type CategoryMoveData = z.output<typeof categoryMoveSchema>;

/** SPEC §7 'POST /dashboard/papers': the paper's fields; the file comes as uploaded_file. */
export const paperInputSchema = z.object({
  papers_category_id: z.coerce
    .number({ error: "The category field is required." })
    .int({ error: "The category must be a category id." })
    .positive({ error: "The category must be a category id." })
    .max(MAX_ROW_ID, { error: "The category must be a category id." }),
  name: nameField,
  description: lines("description", 5000),
  meeting: line("meeting", 200),
  number: line("number", 100),
  organization: line("organization", 200),
  reference: line("reference", 200),
  revision: line("revision", 100),
  version: line("version", 100),
  date: optionalDate("date"),
  publication_date: optionalDate("publication date"),
  forecast_date: optionalDate("forecast date"),
});
export type PaperData = z.output<typeof paperInputSchema>;

/** File types a paper may have, decided by the file's bytes (never its name or declared type). */
export const PAPER_TYPES = {
  "application/pdf": "PDF",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "Word",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "Excel",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "PowerPoint",
  "application/xml": "XML",
  "application/zip": "ZIP",
} as const;
export type PaperType = keyof typeof PAPER_TYPES;

/** The picker's hint (never a check): the extensions of PAPER_TYPES. */
export const PAPER_ACCEPT = ".pdf,.docx,.xlsx,.pptx,.xml,.xsd,.zip";

export function paperTypeLabel(type: string | null): string {
  return (type && PAPER_TYPES[type as PaperType]) || "File";
}
