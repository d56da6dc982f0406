import { type Expression, type RawBuilder, sql } from "kysely";
import type { Dialect } from "./connect";

/**
 * The working groups of the `users` row in the query as one text ('3,7'; null: none), or those it
 * chairs, as a correlated subquery (issue 36): what the access decision needs with the account, in
 * its query.
 */
export function groupIdsOfUser(dialect: Dialect, chairsOnly = false): RawBuilder<string | null> {
  const chairs = chairsOnly ? sql` and gm.is_chair = 1` : sql``;
  return dialect === "postgres"
    ? sql<
        string | null
      >`(select string_agg(gm.group_id::text, ',') from group_members gm where gm.user_id = users.id${chairs})`
    : sql<
        string | null
      >`(select group_concat(gm.group_id, ',') from group_members gm where gm.user_id = users.id${chairs})`;
}

/** The ids of groupIdsOfUser's text, ascending. */
export function groupIdsFromText(text: string | null | undefined): number[] {
  return text
    ? text
        .split(",")
        .map(Number)
        .sort((a, b) => a - b)
    : [];
}

/**
 * A case-insensitive "contains" test where the visitor's text is a literal:
 * %, _ and \ are escaped, with the escape character named so SQLite (which
 * has no default escape) and PostgreSQL read the pattern alike. Both sides
 * are folded for every alphabet (`casefold`, migration 0004), not only ASCII.
 */
export function containsText(column: Expression<unknown> | RawBuilder<unknown>, text: string): RawBuilder<boolean> {
  return sql<boolean>`casefold(${column}) like ${likePattern(text)} escape '\\'`;
}

/** `%text%` folded, with %, _ and \\ escaped. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The same "contains" test on a column that already holds the folded form (written with
 * toLowerCase, as `casefold` folds): no function call per row, so SQLite compares with its own LIKE
 * instead of calling back into JavaScript for every row scanned.
 */
export function containsFoldedText(
  folded: Expression<unknown> | RawBuilder<unknown>,
  text: string,
): RawBuilder<boolean> {
  return sql<boolean>`${folded} like ${likePattern(text)} escape '\\'`;
}

/** Whether a write failed on a unique index (better-sqlite3 and pg report it differently). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE";
}
