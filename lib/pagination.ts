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
