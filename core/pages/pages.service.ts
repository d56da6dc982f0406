import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { sanitizeRichText } from "../../lib/html";
import { parseOrThrow } from "../../lib/validation";
import type { SearchService } from "../search/search.service";
import { CMS_GROUPS, PAGE_IN_PREPARATION } from "./fixed-pages";
import type { PagesRepository } from "./pages.repository";
import { type Page, type PageUpdate, pageUpdateSchema, pageUrlSchema } from "./pages.schema";

/** CMS pages: about, services, tributes, privacy policy and the like. */
export function createPagesService(deps: { repository: PagesRepository; search: SearchService; clock: Clock }) {
  const { repository, search, clock } = deps;

  function normalise(url: string): string {
    const parsed = pageUrlSchema.safeParse(url);
    if (!parsed.success) throw new AppError("not_found", "Page not found.");
    return parsed.data;
  }

  return {
    /** The page at a URL with its HTML sanitized again on the way out. */
    async getPage(url: string): Promise<Page> {
      const row = await repository.findByUrl(normalise(url));
      if (!row) throw new AppError("not_found", "Page not found.");
      return { url: row.url, title: row.title, content: sanitizeRichText(row.content), updated_at: row.updated_at };
    },

    /**
     * Creates the fixed pages (CMS_GROUPS) that do not exist yet, titled as in
     * the menu, with a neutral body for the admin to replace. Run at every
     * start: a page added to the menu later appears without a migration, and
     * an existing page is never touched. Not indexed: a placeholder is nothing to find.
     */
    async ensureFixedPages(): Promise<number> {
      const now = clock().toISOString();
      return repository.insertMissing(
        CMS_GROUPS.flatMap((group) => group.pages).map((page) => ({
          url: page.to,
          title: page.label,
          content: PAGE_IN_PREPARATION,
          created_at: now,
          updated_at: now,
        })),
      );
    },

    async listPages() {
      return repository.list();
    },

    async updatePage(url: string, input: PageUpdate): Promise<Page> {
      const update = parseOrThrow(pageUpdateSchema, input);
      const content = sanitizeRichText(update.content);
      const row = await repository.update(normalise(url), {
        title: update.title,
        content,
        updated_at: clock().toISOString(),
      });
      if (!row) throw new AppError("not_found", "Page not found.");
      await search.index({
        kind: "page",
        refId: row.url,
        url: row.url === "/home" ? "/" : row.url,
        title: row.title,
        html: content,
      });
      return { url: row.url, title: row.title, content, updated_at: row.updated_at };
    },
  };
}
export type PagesService = ReturnType<typeof createPagesService>;
