import { type Expression, type RawBuilder, type SqlBool, sql } from "kysely";
import type { Dialect } from "../../db/connect";
import type { Executor } from "../../db/types";

/**
 * `audience`: 'members' entries are found by signed-in users with members' access only (migration
 * 0008), and those with groups only by those groups' members (migration 0035).
 */
export type Audience = "public" | "members";
export type SearchDocument = {
  kind: string;
  refId: string;
  url: string;
  title: string;
  body: string;
  audience: Audience;
  /** Shown instead of the title (which is then not indexed): a page of a document. */
  displayTitle?: string | null;
  /** With the members' audience: found only by these working groups' members (none: every member). */
  groups?: readonly number[];
};
export type SearchHit = { kind: string; url: string; title: string; snippet: string };

/**
 * Who searches: `publicOnly` for those without members' access; otherwise the working groups whose
 * entries they may find (issue 36), or 'all' for admins and editors. A members' entry with groups
 * (search_document_groups) is found only by those groups' members.
 */
export type SearchAudience = { publicOnly: true } | { publicOnly: false; groups: readonly number[] | "all" };

/** The entries this audience may find (a condition on `d`, inside the query, before its limit). */
function audienceClause(audience: SearchAudience): RawBuilder<SqlBool> {
  if (audience.publicOnly) return sql<SqlBool>`d.audience = 'public'`;
  if (audience.groups === "all") return sql<SqlBool>`d.audience in ('public', 'members')`;
  const grouped = sql`select 1 from search_document_groups g where g.document_id = d.id`;
  const theirs =
    audience.groups.length === 0
      ? sql<SqlBool>`1 = 0`
      : sql<SqlBool>`exists (${grouped} and g.group_id in (${sql.join([...audience.groups])}))`;
  return sql<SqlBool>`(d.audience = 'public' or (d.audience = 'members' and (not exists (${grouped}) or ${theirs})))`;
}

/**
 * Kinds whose entries are found only while a condition on their row holds when the search runs
 * (a member company while it is current, decision 0046): kind → the condition, given the entry's
 * ref_id as an integer. Asked inside the query, before its limit, so nothing lingers and nothing
 * needs sweeping from the index.
 */
export type ShownWhen = Record<
  string,
  // Given the ref_id as an integer (a row's id); or, with `text`, as it is stored (a CMS page's address).
  ((refId: RawBuilder<number>) => RawBuilder<SqlBool>) | { text: (refId: RawBuilder<string>) => RawBuilder<SqlBool> }
>;

/** The entries `shown` lets through: other kinds always; its kinds while their condition holds. */
function shownClause(shown: ShownWhen): RawBuilder<SqlBool> {
  const kinds = Object.entries(shown);
  if (kinds.length === 0) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`(${sql.join(
    kinds.map(([kind, condition]) => {
      if (typeof condition !== "function") return sql`(d.kind <> ${kind} or ${condition.text(sql<string>`d.ref_id`)})`;
      // The cast runs for this kind's entries alone (other kinds' ref_ids need not be integers).
      const refId = sql<number>`cast(case when d.kind = ${kind} then d.ref_id end as integer)`;
      return sql`(d.kind <> ${kind} or ${condition(refId)})`;
    }),
    sql` and `,
  )})`;
}

/** Marks around matched words in snippets; control characters never found in text, escaped later. */
export const MATCH_START = "\u0002";
export const MATCH_END = "\u0003";

/**
 * The site's full-text index: FTS5 on SQLite, a weighted tsvector with a GIN
 * index on PostgreSQL. `terms` are already reduced to letters and digits.
 * It runs on the executor it is given: the database, or the transaction of the
 * content write whose index entry it keeps.
 */
export function createSearchRepository(db: Executor, dialect: Dialect) {
  return {
    async upsert(doc: SearchDocument, now: string) {
      const { id } = await db
        .insertInto("search_documents")
        .values({
          kind: doc.kind,
          ref_id: doc.refId,
          url: doc.url,
          title: doc.title,
          body: doc.body,
          audience: doc.audience,
          display_title: doc.displayTitle ?? null,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.columns(["kind", "ref_id"]).doUpdateSet({
            url: doc.url,
            title: doc.title,
            body: doc.body,
            audience: doc.audience,
            display_title: doc.displayTitle ?? null,
            updated_at: now,
          }),
        )
        .returning("id")
        .executeTakeFirstOrThrow();
      // Its groups as they are now (most entries have none: one delete that finds nothing).
      await db.deleteFrom("search_document_groups").where("document_id", "=", id).execute();
      const groups = doc.audience === "members" ? (doc.groups ?? []) : [];
      if (groups.length > 0) {
        await db
          .insertInto("search_document_groups")
          .values(groups.map((group_id) => ({ document_id: id, group_id })))
          .execute();
      }
    },

    async remove(kind: string, refId: string) {
      await db.deleteFrom("search_documents").where("kind", "=", kind).where("ref_id", "=", refId).execute();
    },

    /** Removes one kind's entries whose ref_id is among `refIds` (a list or a subquery of text ids). */
    async removeAmong(kind: string, refIds: string[] | Expression<string>) {
      if (Array.isArray(refIds) && refIds.length === 0) return;
      await db.deleteFrom("search_documents").where("kind", "=", kind).where("ref_id", "in", refIds).execute();
    },

    /**
     * Hits among some entries of one kind (their ref_ids as a subquery of text), best first, with a
     * snippet: where a searched list found each of its rows.
     */
    async hitsAmong(kind: string, refIds: Expression<string>, terms: string[], limit: number) {
      if (terms.length === 0) return [];
      if (dialect === "postgres") {
        const query = terms.map((t) => `${t}:*`).join(" & ");
        const { rows } = await sql<{ ref_id: string; snippet: string }>`
          select ref_id,
            ts_headline('english', body, q, ${`StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=28, MinWords=12, MaxFragments=1, FragmentDelimiter=" … "`}) as snippet
          from (
            select d.ref_id, d.body, q, ts_rank(d.tsv, q) as rank, d.id
            from search_documents d, to_tsquery('english', ${query}) q
            where d.kind = ${kind} and d.ref_id in ${refIds} and d.tsv @@ q
            order by rank desc, d.id
            limit ${limit}
          ) ranked
          order by rank desc, id`.execute(db);
        return rows;
      }
      const match = terms.map((t) => `"${t}"*`).join(" ");
      const { rows } = await sql<{ ref_id: string; snippet: string }>`
        select d.ref_id, snippet(search_fts, 1, ${MATCH_START}, ${MATCH_END}, ' … ', 24) as snippet
        from search_fts
        join search_documents d on d.id = search_fts.rowid
        where search_fts match ${match} and d.kind = ${kind} and d.ref_id in ${refIds}
        order by bm25(search_fts, 8.0, 1.0), d.id
        limit ${limit}`.execute(db);
      return rows;
    },

    /**
     * A subquery (not run here) of the integer ids (ref_id) of one kind's
     * documents matching all terms, for a list to join into its own query:
     * its count, order and pages stay the list's, for any number of matches.
     * No terms match nothing.
     */
    matchingIntegerRefIds(kind: string, terms: string[]): Expression<number> {
      if (terms.length === 0) return sql<number>`(select 0 where 1 = 0)`;
      if (dialect === "postgres") {
        const query = terms.map((t) => `${t}:*`).join(" & ");
        // Only this kind's ref_ids (integers for every list kind) are cast: the kind is filtered first.
        return sql<number>`(select case when d.kind = ${kind} then d.ref_id::integer end
          from search_documents d where d.kind = ${kind} and d.tsv @@ to_tsquery('english', ${query}))`;
      }
      const match = terms.map((t) => `"${t}"*`).join(" ");
      return sql<number>`(select cast(d.ref_id as integer) from search_fts
        join search_documents d on d.id = search_fts.rowid
        where search_fts match ${match} and d.kind = ${kind})`;
    },

    /**
     * The best matches; with `publicOnly`, members' entries are left out inside the query, before the
     * limit, as are the entries `shown` does not let through.
     */
    async search(
      terms: string[],
      limit: number,
      audience: SearchAudience,
      shown: ShownWhen = {},
    ): Promise<SearchHit[]> {
      if (terms.length === 0) return [];
      const audiences = audienceClause(audience);
      if (dialect === "postgres") {
        // Every term as a prefix, all required: 'standards' finds 'standard', 'navi' finds 'navigation'.
        const query = terms.map((t) => `${t}:*`).join(" & ");
        const { rows } = await sql<SearchHit>`
          select kind, url, coalesce(display_title, title) as title,
            ts_headline('english', body, q, ${`StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=28, MinWords=12, MaxFragments=1, FragmentDelimiter=" … "`}) as snippet
          from (
            select d.kind, d.url, d.title, d.display_title, d.body, q, ts_rank(d.tsv, q) as rank, d.id
            from search_documents d, to_tsquery('english', ${query}) q
            where d.tsv @@ q and ${audiences} and ${shownClause(shown)}
            order by rank desc, d.id
            limit ${limit}
          ) ranked
          order by rank desc, id`.execute(db);
        return rows;
      }
      const match = terms.map((t) => `"${t}"*`).join(" ");
      const { rows } = await sql<SearchHit>`
        select d.kind, d.url, coalesce(d.display_title, d.title) as title,
          snippet(search_fts, 1, ${MATCH_START}, ${MATCH_END}, ' … ', 24) as snippet
        from search_fts
        join search_documents d on d.id = search_fts.rowid
        where search_fts match ${match} and ${audiences} and ${shownClause(shown)}
        order by bm25(search_fts, 8.0, 1.0), d.id
        limit ${limit}`.execute(db);
      return rows;
    },
  };
}
export type SearchRepository = ReturnType<typeof createSearchRepository>;
