import { z } from "zod";

/** What a result is, as the search panel's subtitle says it. */
export const SEARCH_SUBTITLES = ["Page", "News", "Meetings", "Library", "Members"] as const;

/** A search hit as every adapter answers it. */
export const searchResultSchema = z
  .object({
    url: z.string(),
    title: z.string(),
    content: z.string().meta({ description: "A snippet as HTML: the text escaped, the matched words in <mark>." }),
    subtitle: z.enum(SEARCH_SUBTITLES),
  })
  .meta({ id: "SearchResult" });
export type SearchResult = z.output<typeof searchResultSchema>;
