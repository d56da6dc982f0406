import { z } from "zod";
import { flag, given, isIsoDate } from "../../lib/form-fields";
import { listSearchSchema, pageNumberSchema } from "../../lib/pagination";
import { cleanTitle } from "../../lib/text";
import { flagSchema } from "../../lib/validation";
import { emailSchema } from "../accounts/accounts.schema";
import {
  COMPANY_STATUSES,
  IMPORT_ACTIONS,
  MAX_PRODUCTS,
  MEMBERSHIP_TYPES,
  PRODUCT_LENGTH,
  RENEWALS_DUE_DAYS,
} from "./members.values";

/**
 * Membership's inputs and answers (issue 31, decision 0044). Browser-safe: the country's format
 * is checked here, whether it is an assigned ISO 3166-1 code by the service (the kept list is
 * loaded on the server only, lib/countries.ts).
 */
export * from "./members.values";

export const NAME_REQUIRED = "The company name is required.";
export const COUNTRY_MESSAGE = "Choose a country: an ISO 3166-1 alpha-2 code such as NO or GB.";
export const WEBSITE_MESSAGE = "The website must be a full http:// or https:// address, such as https://example.com.";
export const SEATS_MESSAGE = "The seats must be a whole number of 1 or more (leave it empty for no limit).";
export const RENEWS_BEFORE_SINCE = "The renewal date may not be before the member-since date.";
export const TYPE_MESSAGE = "The membership type must be full or associate.";
export const STATUS_MESSAGE = "The status must be active, suspended or left.";
export const DATE_MESSAGE = (label: string) => `The ${label} must be a date such as 2026-11-22.`;
export const PRODUCTS_TOO_MANY = `A company may list at most ${MAX_PRODUCTS} products.`;
export const PRODUCT_TOO_LONG = `Each product may be at most ${PRODUCT_LENGTH} characters.`;
export const DESCRIPTION_MAX = 20_000;
const SEATS_MAX = 10_000;

/** An absolute http(s) address with a host, as a visitor's browser would follow it. */
export function isWebAddress(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || /[\s"'<>]/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.includes(".");
  } catch {
    return false;
  }
}

/** Empty text and null both mean "none" for the fields that may be empty. */
const blank = (v: unknown) => (v === "" || v === null ? null : v);

const nameField = z
  .string({ error: NAME_REQUIRED })
  .overwrite(cleanTitle)
  .min(1, { error: NAME_REQUIRED })
  .max(200, { error: "The company name may not be longer than 200 characters." });

const countryField = z
  .string({ error: COUNTRY_MESSAGE })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, { error: COUNTRY_MESSAGE });

const websiteField = z.preprocess(
  blank,
  z
    .string({ error: WEBSITE_MESSAGE })
    .trim()
    .max(300, { error: "The website address may not be longer than 300 characters." })
    .refine(isWebAddress, { error: WEBSITE_MESSAGE })
    .nullable(),
);

/** Rich text as typed (the service sanitizes it as news content is); empty when none. */
const descriptionField = z.preprocess(
  (v) => (v === null ? "" : v),
  z
    .string({ error: "The description must be text." })
    .max(DESCRIPTION_MAX, { error: `The description may not be longer than ${DESCRIPTION_MAX} characters.` }),
);

/**
 * Product tags: a list (JSON, or `products[]` in a form) or one text with commas between them.
 * Each is cleaned as a title; empty ones are dropped and the same tag in another case is kept once.
 */
export const productsField = z.preprocess(
  (v) => {
    if (v === null || v === undefined || v === "") return [];
    return typeof v === "string" ? v.split(",") : v;
  },
  z
    .array(z.string({ error: "Each product must be text." }), { error: "The products must be a list of short tags." })
    .transform((items) => {
      const seen = new Set<string>();
      const kept: string[] = [];
      for (const item of items) {
        const name = cleanTitle(item);
        const tag = name.toLowerCase();
        if (name && !seen.has(tag)) {
          seen.add(tag);
          kept.push(name);
        }
      }
      return kept;
    })
    .refine((items) => items.every((item) => item.length <= PRODUCT_LENGTH), { error: PRODUCT_TOO_LONG })
    .refine((items) => items.length <= MAX_PRODUCTS, { error: PRODUCTS_TOO_MANY }),
);

const typeField = z.enum(MEMBERSHIP_TYPES, { error: TYPE_MESSAGE });
const statusField = z.enum(COMPANY_STATUSES, { error: STATUS_MESSAGE });

const dayField = (label: string) =>
  z
    .string({ error: DATE_MESSAGE(label) })
    .trim()
    .refine(isIsoDate, { error: DATE_MESSAGE(label) });

const renewsOnField = z.preprocess(blank, dayField("renewal date").nullable());

const seatsField = z.preprocess((v) => {
  const b = blank(v);
  return typeof b === "string" && /^\s*\d+\s*$/.test(b) ? Number(b) : b;
}, z
  .number({ error: SEATS_MESSAGE })
  .int({ error: SEATS_MESSAGE })
  .min(1, { error: SEATS_MESSAGE })
  .max(SEATS_MAX, { error: SEATS_MESSAGE })
  .nullable());

const companyFields = {
  name: nameField,
  country: countryField,
  website: websiteField.optional(),
  description: descriptionField.optional(),
  products: productsField.optional(),
  membership_type: z.preprocess(given, typeField.optional()),
  member_since: z.preprocess(given, dayField("member-since date").optional()),
  renews_on: renewsOnField.optional(),
  seats: seatsField.optional(),
  status: z.preprocess(given, statusField.optional()),
};

/**
 * A new company (the secretariat's): name and country required; the type defaults to full, the
 * status to active, member_since to today. The logo comes as a file part (`logo`).
 */
export const companyCreateSchema = z.object(companyFields);
export type CompanyCreate = z.output<typeof companyCreateSchema>;

/**
 * A change to a company: only the fields sent change. A nullable field sent empty (or null)
 * is cleared (no website, no renewal date, no seat limit); `remove_logo` removes the logo.
 */
export const companyUpdateSchema = z.object({
  ...companyFields,
  name: nameField.optional(),
  country: countryField.optional(),
  membership_type: typeField.optional(),
  member_since: dayField("member-since date").optional(),
  status: statusField.optional(),
  remove_logo: flag,
});
export type CompanyUpdate = z.output<typeof companyUpdateSchema>;

/** What a primary contact may change: the public profile only (not the name, type, status or dates). */
export const companyProfileSchema = z.object({
  description: descriptionField.optional(),
  website: websiteField.optional(),
  products: productsField.optional(),
  remove_logo: flag,
});
export type CompanyProfileUpdate = z.output<typeof companyProfileSchema>;

const personName = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .overwrite(cleanTitle)
    .min(1, { error: `${label} is required.` })
    .max(100, { error: `${label} may not be longer than 100 characters.` });

/** A representative to add: an invitation, or the existing account with this e-mail linked. */
export const representativeInviteSchema = z.object({
  email: emailSchema,
  first_name: personName("First name"),
  last_name: personName("Last name"),
  primary: flag,
});
export type RepresentativeInvite = z.output<typeof representativeInviteSchema>;

/** Making a representative a primary contact, or not. */
export const representativeChangeSchema = z.object({
  primary: flagSchema("primary must be true or false."),
});
export type RepresentativeChange = z.output<typeof representativeChangeSchema>;

const optionalText = (max: number) =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v ?? "").trim().slice(0, max));

/** The public directory's filters (GET /api/members, /members-list). */
export const membersQuerySchema = z.object({
  search: listSearchSchema(100),
  country: optionalText(10).pipe(
    z.string().refine((v) => v === "" || /^[A-Za-z]{2}$/.test(v), { error: COUNTRY_MESSAGE }),
  ),
  type: z.preprocess((v) => (v === "" || v === null ? undefined : v), typeField.optional()),
  product: optionalText(PRODUCT_LENGTH),
  page: pageNumberSchema,
});
export type MembersQuery = z.output<typeof membersQuerySchema>;

/** The secretariat's list (GET /api/dashboard/companies): search in name, country and products, and filters. */
export const companiesQuerySchema = z.object({
  search: listSearchSchema(100),
  status: z.preprocess((v) => (v === "" || v === null ? undefined : v), statusField.optional()),
  current: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.enum(["current", "lapsed"], { error: "The current filter must be current or lapsed." }).optional(),
  ),
  type: z.preprocess((v) => (v === "" || v === null ? undefined : v), typeField.optional()),
  due: flag.meta({ description: `Only current companies whose renews_on is within ${RENEWALS_DUE_DAYS} days.` }),
  page: pageNumberSchema,
});
export type CompaniesQuery = z.output<typeof companiesQuerySchema>;

/** A member company as the directory and the public API show it. */
export const memberCompanySchema = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    name: z.string(),
    country: z.string().meta({ description: "ISO 3166-1 alpha-2 code." }),
    country_name: z.string().meta({ description: "The country's English name." }),
    website: z.string().nullable(),
    logo: z.string().nullable().meta({ description: "The logo's address (WebP), or null." }),
    description: z.string().meta({ description: "Sanitized HTML; empty when none." }),
    products: z.array(z.string()),
    membership_type: typeField,
    member_since: z.string().meta({ description: "YYYY-MM-DD." }),
  })
  .meta({ id: "MemberCompany" });
export type MemberCompany = z.output<typeof memberCompanySchema>;

/** A company as the secretariat sees it. */
export const adminCompanySchema = memberCompanySchema
  .extend({
    logo_width: z.number().int().nullable(),
    logo_height: z.number().int().nullable(),
    status: statusField,
    renews_on: z.string().nullable().meta({ description: "YYYY-MM-DD, or null: no renewal date." }),
    current: z.boolean().meta({
      description: "Active, and renews_on is none or not more than the grace period (setting) past.",
    }),
    seats: z.number().int().nullable().meta({ description: "How many representatives; null: no limit." }),
    seats_used: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "AdminCompany" });
export type AdminCompany = z.output<typeof adminCompanySchema>;

/** A company's representative. */
export const representativeSchema = z
  .object({
    user_id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    primary: z.boolean(),
    status: z.enum(["active", "invited", "deactivated"]).meta({
      description: "invited: has not chosen a password yet (the invitation flow).",
    }),
    since: z.string().meta({ description: "When they became a representative." }),
  })
  .meta({ id: "Representative" });
export type Representative = z.output<typeof representativeSchema>;

/** The company a representative sees on their dashboard: the secretariat's view, its people, and their own part. */
export const ownCompanySchema = adminCompanySchema
  .extend({
    representatives: z.array(representativeSchema),
    primary: z.boolean().meta({ description: "Whether the caller is a primary contact (may edit and invite)." }),
  })
  .meta({ id: "OwnCompany" });
export type OwnCompany = z.output<typeof ownCompanySchema>;

/** The signed-in user's company, as GET /api/dashboard/user carries it. */
export const userCompanySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    current: z.boolean(),
    primary: z.boolean(),
  })
  .meta({ id: "UserCompany" });

/**
 * A CSV import of companies (POST /api/dashboard/companies/import): the file as a multipart
 * `file`, or its text as `csv` (the screen's apply step sends back the text it checked).
 * Without `apply` it is a dry run: the same import, rolled back, reported row by row.
 */
export const companyImportBodySchema = z.object({
  csv: z.string({ error: "The CSV must be text." }).optional(),
  apply: flag.meta({ description: "true: apply the import; false (default): a dry run that changes nothing." }),
});

/** One row of an import's report. */
export const companyImportRowSchema = z
  .object({
    line: z.number().int().meta({ description: "The row's line in the file (the header is line 1)." }),
    name: z.string(),
    action: z.enum(IMPORT_ACTIONS).meta({
      description: "create: a new company; update: fields of an existing one change; unchanged; refuse: see errors.",
    }),
    company_id: z.number().int().nullable().meta({ description: "The company matched or created; null when none." }),
    changes: z.array(z.object({ field: z.string(), before: z.string(), after: z.string() })),
    errors: z.record(z.string(), z.array(z.string())),
  })
  .meta({ id: "CompanyImportRow" });
export type CompanyImportRow = z.output<typeof companyImportRowSchema>;

/** What an import did, or would do (a dry run). */
export const companyImportReportSchema = z
  .object({
    applied: z.boolean(),
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    refused: z.number().int(),
    ignored_columns: z.array(z.string()).meta({ description: "Columns of the file that the import does not read." }),
    rows: z.array(companyImportRowSchema),
  })
  .meta({ id: "CompanyImportReport" });
export type CompanyImportReport = z.output<typeof companyImportReportSchema>;
