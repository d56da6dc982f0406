import { z } from "zod";

/** One field's change between a revision and the one before it (lib/text-diff). */
const changeSchema = z.object({
  field: z.string().meta({ description: "The field's name, e.g. `content`." }),
  label: z.string().meta({ description: "What the edit screen calls it, e.g. Content." }),
  formatting_only: z.boolean().meta({ description: "The text stayed the same; only its formatting changed." }),
  parts: z
    .array(z.object({ value: z.string(), added: z.boolean().optional(), removed: z.boolean().optional() }))
    .meta({ description: "The text in order: unchanged, `removed` (only before) and `added` (only after) runs." }),
});

/** A kept revision: who saved what when, and what changed from the one before. */
export const revisionSchema = z
  .object({
    id: z.number().int(),
    number: z.number().int().meta({ description: "1 for the oldest kept revision, counting up." }),
    created_at: z.string(),
    author: z.object({ id: z.number().int().nullable(), name: z.string() }),
    restored_from: z.number().int().nullable().meta({ description: "The revision a restore copied, if this is one." }),
    fields: z.record(z.string(), z.string().nullable()).meta({ description: "The fields as saved." }),
    changes: z
      .array(changeSchema)
      .meta({ description: "The difference from the revision before; empty for the first." }),
  })
  .meta({ id: "Revision" });
export type Revision = z.output<typeof revisionSchema>;

/** A revision in the API's path: digits. */
export const revisionParams = z.object({ revisionId: z.string().regex(/^\d+$/) });
