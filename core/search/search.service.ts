import type { Expression, Kysely } from "kysely";
import type { Dialect } from "../../db/connect";
import type { Database, Executor } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { escapeHtml, htmlToText } from "../../lib/html";
import { type Audience, createSearchRepository, MATCH_END, MATCH_START } from "./search.repository";
import type { SearchResult } from "./search.schema";

const MAX_QUERY_LENGTH = 200;
const MAX_TERMS = 8;
const RESULT_LIMIT = 20;

/** Each kind's subtitle in the search panel. */
const SUBTITLES: Record<string, SearchResult["subtitle"]> = {
  page: "Page",
  news: "News",
  meeting: "Meetings",
  category: "Library",
  paper: "Library",
  member: "Members",
};

/**
 * Words of a visitor's query, reduced to letters and digits so that nothing
 * they type is ever read as SQL or full-text syntax.
 */
export function searchTerms(query: string): string[] {
  const words =
    query
      .slice(0, MAX_QUERY_LENGTH)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_TERMS);
}

/** Snippet text with matches marked: everything escaped, then the marks become <mark>. */
function snippetHtml(snippet: string): string {
  return escapeHtml(snippet).replaceAll(MATCH_START, "<mark>").replaceAll(MATCH_END, "</mark>");
}

export type IndexInput = {
  kind: keyof typeof SUBTITLES | string;
  refId: string | number;
  url: string;
  title: string;
  html: string;
  /** Who may find it: everyone (default) or signed-in users only (members-only meetings, the library). */
  audience?: Audience;
};

/**
 * One indexing mechanism that every content type feeds on create, update and
 * delete. Its writes take the executor of the content's own write, so that the
 * row and its index entry commit or roll back together.
 */
export function createSearchService(deps: { db: Kysely<Database>; dialect: Dialect; clock: Clock }) {
  const repository = (executor: Executor = deps.db) => createSearchRepository(executor, deps.dialect);
  return {
    async index(input: IndexInput, executor: Executor): Promise<void> {
      await repository(executor).upsert(
        {
          kind: input.kind,
          refId: String(input.refId),
          url: input.url,
          title: input.title,
          body: htmlToText(input.html),
          audience: input.audience ?? "public",
        },
        deps.clock().toISOString(),
      );
    },

    async remove(kind: string, refId: string | number, executor: Executor): Promise<void> {
      await repository(executor).remove(kind, String(refId));
    },

    /**
     * Searching inside a list: a subquery of the ids of one content type that
     * match a visitor's query, for the list's repository to filter its own
     * query with (`where id in …`), so that its total, order and pages are exact.
     */
    matchingIds(kind: string, query: string): Expression<number> {
      return repository().matchingIntegerRefIds(kind, searchTerms(query));
    },

    /** The site search, as this viewer may see it: visitors never find members' entries. */
    async search(query: string, viewer: { signedIn: boolean }): Promise<SearchResult[]> {
      const hits = await repository().search(searchTerms(query), RESULT_LIMIT, !viewer.signedIn);
      return hits.map((hit) => ({
        url: hit.url,
        title: hit.title,
        content: snippetHtml(hit.snippet),
        subtitle: SUBTITLES[hit.kind] ?? "Page",
      }));
    },
  };
}
export type SearchService = ReturnType<typeof createSearchService>;
