import { z } from "zod";

/** One page of a list, as every paginated answer carries it (SPEC §7); its type derives from the schema. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    last_page: z.number().int(),
  });
}
export type Page<T> = z.output<ReturnType<typeof pageSchema<z.ZodType<T>>>>;

export function pageOf<T>(data: T[], page: number, perPage: number, total: number): Page<T> {
  return { data, current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}

/** The `page` of a public list query: a client sending a bad one is told (422). */
export const pageNumberSchema = z.coerce
  .number({ error: "The page must be a number." })
  .int({ error: "The page must be a whole number." })
  .min(1, { error: "The page must be 1 or more." })
  .max(1_000_000)
  .default(1);

/** The `page` of an admin screen's address: anything odd shows the first page. */
export const lenientPageSchema = z.coerce.number().int().min(1).max(100_000).catch(1);

export const SEARCH_GIVEN_TWICE = "The search was given more than once with different values: send it once.";

/**
 * A list's `search` (SPEC §7): trimmed, at most `maxLength` characters, empty when not given.
 * Load-more is the `next_page_url` plus `&search=`, and a next address may already carry the
 * search, so the same words may come twice (a repeated parameter, or in the address and the
 * body): taken once. Different values cannot both be followed: a 422 that says so (decision 0036).
 */
export function listSearchSchema(maxLength = 200) {
  return z
    .union([z.string(), z.null(), z.array(z.union([z.string(), z.null()]))])
    .optional()
    .transform((value, ctx) => {
      const values = (Array.isArray(value) ? value : [value]).map((v) => (v ?? "").trim());
      const search = oneSearch(values);
      if (search === null) {
        ctx.addIssue({ code: "custom", message: SEARCH_GIVEN_TWICE });
        return z.NEVER;
      }
      return search.slice(0, maxLength);
    });
}

/** The one search among those given (empty ones do not count), or null if they differ. */
export function oneSearch(values: string[]): string | null {
  const given = values.filter((v) => v !== "");
  return given.every((v) => v === given[0]) ? (given[0] ?? "") : null;
}
