/**
 * The largest row id: ids are `integer` columns, 32-bit on PostgreSQL, where a larger number in a
 * query is an error (a 500), not "no such row".
 */
export const MAX_ROW_ID = 2_147_483_647;

/** Whether a number can be a row id; anything else is found nowhere, without asking the database. */
export function isRowId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= MAX_ROW_ID;
}

/**
 * A row id sent by a client (path segment or form field): decimal digits only, within the
 * columns' range. Number() alone would also read "0x10", "1e3" or " 7" as ids.
 */
export function parseId(raw: unknown): number | null {
  if (typeof raw !== "string" || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return isRowId(id) ? id : null;
}
