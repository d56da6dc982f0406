/**
 * A row id sent by a client (path segment or form field): decimal digits only.
 * Number() alone would also read "0x10", "1e3" or " 7" as ids.
 */
export function parseId(raw: unknown): number | null {
  if (typeof raw !== "string" || !/^[1-9]\d{0,14}$/.test(raw)) return null;
  return Number(raw);
}
