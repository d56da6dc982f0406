import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { isUniqueViolation } from "../../lib/db-errors";
import { AppError } from "../../lib/errors";
import { sanitizeRichText } from "../../lib/html";
import { invalidInput, parseOrThrow } from "../../lib/validation";
import { previewLinks } from "../publication/preview-links";
import { placed, stateOf } from "../publication/publication";
import type { Revision } from "../revisions/revisions.schema";
import type { RevisionFields, RevisionsService } from "../revisions/revisions.service";
import type { SearchService } from "../search/search.service";
import { CMS_GROUPS, FIXED_PAGE_URLS, HOME_PAGE, PAGE_IN_PREPARATION, publicPageUrl } from "./fixed-pages";
import { createPagesRepository, type PageValues } from "./pages.repository";
import {
  type AdminPage,
  type Page,
  type PageCreate,
  type PagePlacements,
  type PageSummary,
  type PageUpdate,
  pageCreateSchema,
  pageUpdateSchema,
  pageUrlSchema,
} from "./pages.schema";

type PageRow = NonNullable<Awaited<ReturnType<ReturnType<typeof createPagesRepository>["findByUrl"]>>>;
type Parsed = ReturnType<typeof pageUpdateSchema.parse>;

/**
 * CMS pages: SPEC's fixed ones (about, services, tributes, privacy policy: always there, always
 * published) and the association's own (decision 0072), which an admin adds, places in the menus
 * and the footer, drafts or schedules, and removes.
 */
/** The texts a page's revisions keep (decision 0073). */
export const PAGE_REVISION_FIELDS: RevisionFields = [
  { name: "title", label: "Title" },
  { name: "content", label: "Content", rich: true },
];

/** How long the menu's pages are kept without a sign of change (a change by another process outside a request). */
const PLACEMENTS_KEPT_MS = 60_000;

export function createPagesService(deps: {
  db: Kysely<Database>;
  search: SearchService;
  clock: Clock;
  revisions?: RevisionsService;
  /** The key that signs preview links (core/secrets: the same in every process). */
  previewKey?: () => Promise<Buffer>;
  /** The content version as known without waiting (content-version.service `known`); null: not known. */
  version?: () => number | null;
}) {
  const { db, search, clock } = deps;
  const repository = createPagesRepository(db);
  const previews = previewLinks({ key: deps.previewKey, clock, purpose: "page-preview" });
  let keptPlacements: { version: number; at: number; until: string | null; value: PagePlacements } | null = null;

  function normalise(url: string): string {
    const parsed = pageUrlSchema.safeParse(url);
    if (!parsed.success) throw new AppError("not_found", "Page not found.");
    return parsed.data;
  }

  const toPage = (row: PageRow, content = sanitizeRichText(row.content)): Page => ({
    url: row.url,
    title: row.title,
    content,
    updated_at: row.updated_at,
  });

  function adminFields(row: Omit<PageRow, "content" | "created_at">, now: string) {
    const fixed = FIXED_PAGE_URLS.has(row.url);
    const status = stateOf(row, now);
    return {
      status,
      publish_at: status === "draft" || fixed ? null : row.published_at,
      fixed,
      section: row.section,
      in_menu: row.in_menu === 1,
      in_footer: row.in_footer === 1,
      position: row.position,
    };
  }

  /**
   * The stored values after a save: the state (core/publication) and the place. A fixed page keeps
   * SPEC's: always published, placed by the code; asking otherwise is a 422 that says why.
   */
  function valuesOf(url: string, input: Parsed, before: PageRow | null, now: string): PageValues {
    const content = sanitizeRichText(input.content);
    if (FIXED_PAGE_URLS.has(url)) {
      const errors: Record<string, string[]> = {};
      if (input.status && input.status !== "published")
        errors.status = ["This page is part of the site's structure: it is always published."];
      for (const field of ["section", "in_menu", "in_footer", "position"] as const) {
        if (input[field] !== undefined && before && input[field] !== (adminFields(before, now)[field] ?? null))
          errors[field] = ["This page is part of the site's structure: its place in the menus is fixed."];
      }
      if (Object.keys(errors).length > 0) throw invalidInput(errors);
      return {
        title: input.title,
        content,
        status: "published",
        published_at: null,
        section: null,
        in_menu: 0,
        in_footer: 0,
        position: 0,
        updated_at: now,
      };
    }
    const section = input.section === undefined ? (before?.section ?? null) : input.section;
    const inMenu = input.in_menu ?? before?.in_menu === 1;
    if (inMenu && section === null) {
      throw invalidInput({
        in_menu: ["A page standing alone has no submenu: choose About or Services to list it in the menu."],
      });
    }
    const state = placed(input, before, now, "page");
    return {
      title: input.title,
      content,
      status: state.status,
      published_at: state.published_at,
      section,
      in_menu: inMenu ? 1 : 0,
      in_footer: (input.in_footer ?? before?.in_footer === 1) ? 1 : 0,
      position: input.position ?? before?.position ?? 0,
      updated_at: now,
    };
  }

  const indexed = (row: PageRow, content: string) => ({
    kind: "page",
    refId: row.url,
    url: publicPageUrl(row.url),
    title: row.title,
    html: content,
  });

  const service = {
    /** The page at a URL as visitors see it (a draft or a page not yet due is not found), sanitized again on the way out. */
    async getPage(url: string): Promise<Page> {
      const row = await repository.findVisibleByUrl(normalise(url), clock().toISOString());
      if (!row) throw new AppError("not_found", "Page not found.");
      return toPage(row);
    },

    /** A visible page with its section: a fixed page's group, or the section of a page of its own. */
    async getPageView(url: string): Promise<{ page: Page; section: string | null }> {
      const row = await repository.findVisibleByUrl(normalise(url), clock().toISOString());
      if (!row) throw new AppError("not_found", "Page not found.");
      const group = CMS_GROUPS.find((g) => g.pages.some((p) => p.to === row.url));
      return { page: toPage(row), section: group?.id ?? row.section };
    },

    /** A page as the admins edit it, in any state. */
    async getAdminPage(url: string): Promise<AdminPage> {
      const row = await repository.findByUrl(normalise(url));
      if (!row) throw new AppError("not_found", "Page not found.");
      return { ...toPage(row), id: row.id, ...adminFields(row, clock().toISOString()) };
    },

    /**
     * A link that shows a draft or scheduled page as it will look, to anyone who has it, for
     * PREVIEW_DAYS (as a post's, decision 0070).
     */
    async previewLink(url: string): Promise<{ path: string; expires_at: string }> {
      const row = await repository.findByUrl(normalise(url));
      if (!row) throw new AppError("not_found", "Page not found.");
      const { token, expires_at } = await previews.sign(row.id);
      return { path: `/pages/preview/${token}`, expires_at };
    },

    /** The page a preview link shows, whatever its state, with where it belongs; null when not a link of ours, expired, or gone. */
    async preview(token: string): Promise<{ page: AdminPage; section: string | null; expires_at: string } | null> {
      const found = await previews.read(token);
      const row = found ? await repository.findById(found.id) : undefined;
      if (!found || !row) return null;
      const group = CMS_GROUPS.find((g) => g.pages.some((p) => p.to === row.url));
      return {
        page: { ...toPage(row), id: row.id, ...adminFields(row, clock().toISOString()) },
        section: group?.id ?? row.section,
        expires_at: found.expires_at,
      };
    },

    /** The home page's own text (the /home page), or null on a site that has none. */
    async homePage(): Promise<Page | null> {
      const row = await repository.findByUrl(HOME_PAGE);
      return row ? toPage(row) : null;
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

    /**
     * Every page for the admins (a few dozen: filtered here), SPEC's first then the association's own;
     * `search` in the title or the address, `status` a state, `kind` fixed or own.
     */
    async listPages(filter: { search?: string; status?: string; kind?: string } = {}): Promise<PageSummary[]> {
      const now = clock().toISOString();
      const needle = filter.search?.trim().toLowerCase() ?? "";
      return (await repository.list())
        .map((row) => ({
          id: row.id,
          url: row.url,
          title: row.title,
          updated_at: row.updated_at,
          ...adminFields(row, now),
        }))
        .filter(
          (page) =>
            (!needle || page.title.toLowerCase().includes(needle) || page.url.includes(needle)) &&
            (!filter.status || page.status === filter.status) &&
            (!filter.kind || (filter.kind === "fixed") === page.fixed),
        )
        .sort((a, b) => Number(b.fixed) - Number(a.fixed) || a.url.localeCompare(b.url));
    },

    /** The pages visitors can open, for the sitemap. */
    async sitemapEntries(): Promise<{ url: string; updated_at: string }[]> {
      return repository.listVisible(clock().toISOString());
    },

    /** The pages of the association's own in the menus and the footer, as visitors see them now. */
    /**
     * The menu's and the footer's pages of our own. Every page render asks (the root loader), so
     * they are kept while the content version stays where it was, until the next scheduled page
     * appears, and for a minute at most (as the settings are, decision 0069).
     */
    async placements(): Promise<PagePlacements> {
      const version = deps.version?.() ?? null;
      const now = clock();
      const at = performance.now();
      if (
        keptPlacements &&
        version !== null &&
        keptPlacements.version === version &&
        at - keptPlacements.at < PLACEMENTS_KEPT_MS &&
        (keptPlacements.until === null || now.toISOString() < keptPlacements.until)
      ) {
        return keptPlacements.value;
      }
      const [rows, until] = await Promise.all([
        repository.placed(now.toISOString()),
        repository.nextAppearance(now.toISOString()),
      ]);
      const link = (row: (typeof rows)[number]) => ({ label: row.title, to: row.url, section: row.section });
      const value = {
        menu: rows.filter((row) => row.in_menu === 1 && row.section !== null).map(link),
        footer: rows.filter((row) => row.in_footer === 1).map(link),
      };
      keptPlacements = version === null ? null : { version, at, until: until ?? null, value };
      return value;
    },

    /** A page of the association's own at /{slug}; its search entry is written with it. */
    async createPage(input: PageCreate): Promise<AdminPage> {
      const data = parseOrThrow(pageCreateSchema, input);
      const url = `/${data.slug}`;
      const now = clock().toISOString();
      const values = valuesOf(url, data, null, now);
      try {
        const row = await db.transaction().execute(async (trx) => {
          const row = await createPagesRepository(trx).insert({ ...values, url, created_at: now });
          if (!row) throw invalidInput({ slug: ["Another page has this address: choose another."] });
          await search.index(indexed(row, values.content), trx);
          await deps.revisions?.record(
            trx,
            "page",
            row.id,
            { title: row.title, content: row.content },
            { action: "create" },
          );
          return row;
        });
        keptPlacements = null;
        return { ...toPage(row, values.content), id: row.id, ...adminFields(row, now) };
      } catch (error) {
        if (isUniqueViolation(error)) throw invalidInput({ slug: ["Another page has this address: choose another."] });
        throw error;
      }
    },

    /** The page and its search entry change together, in one transaction, and the save is kept as a revision. */
    async updatePage(url: string, input: PageUpdate, restoredFrom: number | null = null): Promise<AdminPage> {
      const update = parseOrThrow(pageUpdateSchema, input);
      const at = normalise(url);
      const now = clock().toISOString();
      const row = await db.transaction().execute(async (trx) => {
        const pages = createPagesRepository(trx);
        const before = await pages.findByUrl(at);
        if (!before) throw new AppError("not_found", "Page not found.");
        const values = valuesOf(at, update, before, now);
        const row = await pages.update(at, values);
        if (!row) throw new AppError("not_found", "Page not found.");
        await search.index(indexed(row, values.content), trx);
        await deps.revisions?.record(
          trx,
          "page",
          row.id,
          { title: row.title, content: row.content },
          { restoredFrom, before: { title: before.title, content: before.content } },
        );
        return row;
      });
      keptPlacements = null;
      return { ...toPage(row, row.content), id: row.id, ...adminFields(row, now) };
    },

    /** A page's kept revisions, newest first, each with what changed (decision 0073). */
    async revisions(url: string): Promise<Revision[]> {
      const row = await repository.findByUrl(normalise(url));
      if (!row) throw new AppError("not_found", "Page not found.");
      return deps.revisions ? deps.revisions.list("page", row.id, PAGE_REVISION_FIELDS) : [];
    },

    /**
     * The number of the page's revision in force at `at` (ISO), or null when it had none then (a
     * page not edited since revisions were kept): which Privacy Policy a form showed (decision 0077).
     */
    async revisionNumberAt(url: string, at: string): Promise<number | null> {
      const row = await repository.findByUrl(normalise(url));
      return row && deps.revisions ? deps.revisions.numberAt("page", row.id, at) : null;
    },

    /** Puts a revision's title and text back as a new save: the page keeps its state and place. */
    async restoreRevision(url: string, revisionId: number): Promise<AdminPage> {
      const row = await repository.findByUrl(normalise(url));
      if (!row || !deps.revisions) throw new AppError("not_found", "Page not found.");
      const kept = await deps.revisions.fields("page", row.id, revisionId);
      return service.updatePage(
        row.url,
        { title: kept.title ?? row.title, content: kept.content ?? row.content },
        revisionId,
      );
    },

    /** Removes a page of the association's own and its search entry; SPEC's fixed pages stay. */
    async deletePage(url: string): Promise<void> {
      const at = normalise(url);
      if (FIXED_PAGE_URLS.has(at)) {
        throw new AppError("conflict", "This page is part of the site's structure and cannot be deleted.");
      }
      await db.transaction().execute(async (trx) => {
        const removed = await createPagesRepository(trx).remove(at);
        if (!removed) throw new AppError("not_found", "Page not found.");
        await search.remove("page", at, trx);
        await deps.revisions?.removeAll(trx, "page", removed.id);
      });
      keptPlacements = null;
    },

    /** The schedule's moments for the caches (decision 0071): the next and latest page to appear. */
    nextAppearance: () => repository.nextAppearance(clock().toISOString()),
    latestAppearance: () => repository.latestAppearance(clock().toISOString()),
  };
  return service;
}
export type PagesService = ReturnType<typeof createPagesService>;
