import { type Expression, type RawBuilder, sql } from "kysely";

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
