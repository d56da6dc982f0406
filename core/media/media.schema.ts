import { z } from "zod";

/** An image stored for rich content: the editor inserts `url` (the largest variant) with its `srcset`. */
export const contentImageSchema = z
  .object({
    url: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    srcset: z.string().nullable(),
  })
  .meta({ id: "ContentImage" });
export type ContentImage = z.output<typeof contentImageSchema>;
