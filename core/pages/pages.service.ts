import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { sanitizeRichText } from "../../lib/html";
import { parseOrThrow } from "../../lib/validation";
import type { SearchService } from "../search/search.service";
import { CMS_GROUPS, HOME_PAGE, PAGE_IN_PREPARATION, publicPageUrl } from "./fixed-pages";
import { createPagesRepository } from "./pages.repository";
import { type Page, type PageSummary, type PageUpdate, pageUpdateSchema, pageUrlSchema } from "./pages.schema";

/** CMS pages: about, services, tributes, privacy policy and the like. */
export function createPagesService(deps: { db: Kysely<Database>; search: SearchService; clock: Clock }) {
  const { db, search, clock } = deps;
  const repository = createPagesRepository(db);

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

    /** The home page's own text (the /home page), or null on a site that has none. */
    async homePage(): Promise<Page | null> {
      const row = await repository.findByUrl(HOME_PAGE);
      if (!row) return null;
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

    async listPages(): Promise<PageSummary[]> {
      return repository.list();
    },

    /** The page and its search entry change together, in one transaction. */
    async updatePage(url: string, input: PageUpdate): Promise<Page> {
      const update = parseOrThrow(pageUpdateSchema, input);
      const content = sanitizeRichText(update.content);
      const at = normalise(url);
      const row = await db.transaction().execute(async (trx) => {
        const row = await createPagesRepository(trx).update(at, {
          title: update.title,
          content,
          updated_at: clock().toISOString(),
        });
        if (!row) throw new AppError("not_found", "Page not found.");
        await search.index(
          { kind: "page", refId: row.url, url: publicPageUrl(row.url), title: row.title, html: content },
          trx,
        );
        return row;
      });
      return { url: row.url, title: row.title, content, updated_at: row.updated_at };
    },
  };
}
export type PagesService = ReturnType<typeof createPagesService>;
