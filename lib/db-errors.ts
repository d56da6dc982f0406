/**
 * Whether a database error is a unique-key conflict, on either dialect:
 * SQLite's SQLITE_CONSTRAINT_UNIQUE (message "UNIQUE constraint failed:
 * table.column") or PostgreSQL's SQLSTATE 23505 (with the constraint's name).
 * With `on`, only a conflict on that table's column counts, or on that unique index (an index on an
 * expression, which SQLite names as "index 'name'").
 */
export function isUniqueViolation(error: unknown, on?: { table: string; column: string } | { index: string }): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message, constraint } = error as { code?: unknown; message?: unknown; constraint?: unknown };
  // A composite primary key's conflict is SQLite's own code, with the same message ("UNIQUE constraint failed: …").
  if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    if (!on) return true;
    const names = "index" in on ? `index '${on.index}'` : `${on.table}.${on.column}`;
    return typeof message === "string" && message.includes(names);
  }
  if (code === "23505") {
    // PostgreSQL names a column's unique constraint <table>_<column>_key.
    return !on || constraint === ("index" in on ? on.index : `${on.table}_${on.column}_key`);
  }
  return false;
}

/**
 * Whether a write failed because a row it points at is gone (SQLite's SQLITE_CONSTRAINT_FOREIGNKEY,
 * PostgreSQL's SQLSTATE 23503): what another person deleted between a service's checks and its write.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === "SQLITE_CONSTRAINT_FOREIGNKEY" || code === "23503";
}
