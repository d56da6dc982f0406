import type { Expression, Kysely } from "kysely";
import type { Dialect } from "../../db/connect";
import type { Database, Executor } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { escapeHtml, htmlToText } from "../../lib/html";
import type { GroupsSeen } from "../access/access";
import {
  type Audience,
  createSearchRepository,
  MATCH_END,
  MATCH_START,
  type SearchAudience,
  type ShownWhen,
} from "./search.repository";
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
  paper_page: "Library",
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
  /** With the members' audience: only these working groups' members find it (issue 36). */
  groups?: readonly number[] | null;
  /** Shown instead of the title, which is then left empty so that it does not rank (a page of a document). */
  displayTitle?: string;
};

/** Entries read from the site search before keeping one per address (a document's pages share one). */
const CANDIDATES = RESULT_LIMIT * 3;

/**
 * One indexing mechanism that every content type feeds on create, update and
 * delete. Its writes take the executor of the content's own write, so that the
 * row and its index entry commit or roll back together.
 */
export function createSearchService(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  /** Kinds found only while their row says so at the time of the search (search.repository `ShownWhen`). */
  shownWhen?: () => Promise<ShownWhen>;
}) {
  const repository = (executor: Executor = deps.db) => createSearchRepository(executor, deps.dialect);
  return {
    async index(input: IndexInput, executor: Executor): Promise<void> {
      await repository(executor).upsert(
        {
          kind: input.kind,
          refId: String(input.refId),
          url: input.url,
          title: input.displayTitle ? "" : input.title,
          body: htmlToText(input.html),
          audience: input.audience ?? "public",
          displayTitle: input.displayTitle ?? null,
          groups: input.groups ?? [],
        },
        deps.clock().toISOString(),
      );
    },

    async remove(kind: string, refId: string | number, executor: Executor): Promise<void> {
      await repository(executor).remove(kind, String(refId));
    },

    /** Removes one kind's entries by ref_id (a list, or a subquery of text ids). */
    async removeAmong(kind: string, refIds: (string | number)[] | Expression<string>, executor: Executor) {
      await repository(executor).removeAmong(kind, Array.isArray(refIds) ? refIds.map(String) : refIds);
    },

    /** Where a searched list found some of its rows: their ref_ids with a snippet (HTML), best first. */
    async hitsAmong(kind: string, refIds: Expression<string>, query: string, limit: number) {
      const hits = await repository().hitsAmong(kind, refIds, searchTerms(query), limit);
      return hits.map((hit) => ({ refId: hit.ref_id, snippet: snippetHtml(hit.snippet) }));
    },

    /**
     * Searching inside a list: a subquery of the ids of one content type that
     * match a visitor's query, for the list's repository to filter its own
     * query with (`where id in …`), so that its total, order and pages are exact.
     */
    matchingIds(kind: string, query: string): Expression<number> {
      return repository().matchingIntegerRefIds(kind, searchTerms(query));
    },

    /**
     * The site search, as this viewer may see it: visitors never find members' entries, members
     * never those of a group they are not in (core/access viewerOf).
     */
    async search(
      query: string,
      viewer: { signedIn: boolean; admin?: boolean; groups?: GroupsSeen },
    ): Promise<SearchResult[]> {
      const terms = searchTerms(query);
      if (terms.length === 0) return [];
      const shown = (await deps.shownWhen?.()) ?? {};
      const audience: SearchAudience = viewer.admin
        ? { publicOnly: false, groups: "all" }
        : viewer.signedIn
          ? { publicOnly: false, groups: viewer.groups ?? [] }
          : { publicOnly: true };
      const candidates = await repository().search(terms, CANDIDATES, audience, shown);
      // One result per address: the best page of a document stands for the others.
      const seen = new Set<string>();
      const hits = candidates
        .filter((hit) => {
          const address = hit.url.replace(/#page=\d+$/, "");
          if (seen.has(address)) return false;
          seen.add(address);
          return true;
        })
        .slice(0, RESULT_LIMIT);
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
