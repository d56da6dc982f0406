import { z } from "zod";
import { DATE_MESSAGE, isIsoDate } from "../../lib/form-fields";
import { lenientPageSchema } from "../../lib/pagination";

/** The kinds of things the log names, with what the filter calls them. */
export const AUDIT_ENTITIES = {
  news: "News post",
  page: "Page",
  meeting: "Meeting",
  category: "Library category",
  paper: "Paper",
  company: "Member company",
  group: "Working group",
  user: "User",
  settings: "Site settings",
  request: "Join request or registration",
  session: "Sign-in of account",
  site: "Other",
} as const;

const optionalText = (max: number) =>
  z
    .union([z.string().trim().max(max), z.null()])
    .optional()
    .transform((v) => v || undefined);

const optionalDate = (label: string) =>
  z
    .union([z.string().trim(), z.null()])
    .optional()
    .transform((v) => v || undefined)
    .pipe(
      z
        .string()
        .refine(isIsoDate, { error: DATE_MESSAGE(label) })
        .optional(),
    );

/** The audit log's filters (`GET /api/dashboard/audit`, /manager/audit); dates are days in the site's zone. */
export const auditQuerySchema = z.object({
  actor: z
    .union([z.literal(""), z.string().regex(/^\d{1,12}$/, { error: "The actor must be a user's id." }), z.null()])
    .optional()
    .transform((v) => (v ? Number(v) : undefined))
    .meta({ description: "Only what this user did (their id)." }),
  entity: optionalText(40).meta({ description: `Only this kind: ${Object.keys(AUDIT_ENTITIES).join(", ")}.` }),
  entity_id: optionalText(200).meta({ description: "Only this one (its id, or a page's address), with `entity`." }),
  action: optionalText(40).meta({ description: "Only this action, e.g. create, update, delete, restore, sign_in." }),
  from: optionalDate("from date").meta({ description: "From this day (YYYY-MM-DD, the site's time zone)." }),
  to: optionalDate("to date").meta({ description: "To this day, inclusive (YYYY-MM-DD, the site's time zone)." }),
  page: z
    .union([z.string(), z.number(), z.null()])
    .optional()
    .transform((v) => lenientPageSchema.parse(v ?? undefined)),
});
export type AuditQuery = z.output<typeof auditQuerySchema>;

/** A field's value in the log: text (cut when long), a number, a flag, or nothing. */
const auditValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const auditRowSchema = z
  .object({
    id: z.number().int(),
    created_at: z.string(),
    actor: z.object({ id: z.number().int().nullable(), name: z.string() }),
    ip: z.string().nullable(),
    action: z.string(),
    entity: z.string(),
    entity_id: z.string().nullable(),
    summary: z.string(),
    changes: z
      .record(z.string(), z.object({ before: auditValue, after: auditValue }))
      .nullable()
      .meta({ description: "The fields that changed, before and after (long texts cut; never a secret)." }),
  })
  .meta({ id: "AuditRow" });
export type AuditRow = z.output<typeof auditRowSchema>;
