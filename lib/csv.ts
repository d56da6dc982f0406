import { CsvError, parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";

/**
 * CSV for spreadsheets, written and read with the csv project's kept libraries (csv-stringify,
 * csv-parse: quoting, doubled quotes, line breaks inside cells, a byte-order mark). What is ours
 * is what a spreadsheet needs beyond RFC 4180: a cell a spreadsheet would read as a formula
 * (=, +, -, @, tab, carriage return first) starts with a quote mark instead (OWASP 'CSV
 * injection'), and the reader takes that quote mark off again, so an export imports unchanged.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell's text, defused when a spreadsheet would run it. */
function defused(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One cell as toCsv writes it: always quoted, quotes doubled, a formula defused. */
export function csvCell(value: unknown): string {
  return stringify([[defused(value)]], { quoted: true, quoted_empty: true, record_delimiter: "" });
}

export function toCsv(header: string[], rows: unknown[][]): string {
  // A byte-order mark so that Excel reads UTF-8 (company names with accents); CRLF as Excel writes.
  return stringify(
    [header, ...rows].map((row) => row.map(defused)),
    {
      bom: true,
      quoted: true,
      quoted_empty: true,
      record_delimiter: "\r\n",
    },
  );
}

export type CsvRecord = { line: number; cells: Record<string, string> };
export type CsvTable = { columns: string[]; records: CsvRecord[] };

/** Why a text could not be read as CSV, for the person who sent it. */
export class CsvReadError extends Error {}

/**
 * Reads a CSV text whose first row names the columns. The separator is the comma, or the
 * semicolon when the header has more of those (what Excel writes where the comma is the
 * decimal mark). Column names go through `column` (e.g. to fold "Member since" to
 * member_since); empty lines are skipped; a row shorter than the header lacks the cells it
 * does not have (a spreadsheet drops trailing empty cells), one longer is refused. A cell's
 * defusing quote mark (see toCsv) is taken off. `line` is the record's first line in the file.
 */
export function readCsv(text: string, column: (name: string) => string, maxRecords: number): CsvTable {
  const firstLine = text.slice(0, Math.max(0, text.indexOf("\n")) || text.length);
  const delimiter = count(firstLine, ";") > count(firstLine, ",") ? ";" : ",";
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text, {
      bom: true,
      delimiter,
      info: true,
      skip_empty_lines: true,
      relax_column_count_less: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    if (error instanceof CsvError) throw new CsvReadError(readableCsvError(error));
    throw error;
  }
  const [header, ...body] = rows;
  if (!header) return { columns: [], records: [] };
  if (body.length > maxRecords) {
    throw new CsvReadError(`The file has ${body.length} rows; at most ${maxRecords} can be read at once: split it.`);
  }
  const columns = header.record.map((name) => column(name.trim()));
  const records = body.map(({ record, info }) => {
    const cells: Record<string, string> = {};
    record.forEach((cell, i) => {
      const name = columns[i];
      if (name && !(name in cells)) cells[name] = undefused(cell);
    });
    // info.lines is the line the record ends on; a record with line breaks in a cell starts earlier.
    const breaks = record.reduce((n, cell) => n + count(cell, "\n"), 0);
    return { line: info.lines - breaks, cells };
  });
  return { columns, records };
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}

function undefused(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/** csv-parse's codes, said for a person: where and what to do. */
function readableCsvError(error: CsvError): string {
  const line = (error as CsvError & { lines?: number }).lines;
  const where = line ? ` (line ${line})` : "";
  switch (error.code) {
    case "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH":
      return `A row has more cells than the header has columns${where}: check for a separator inside a cell that is not in quotes.`;
    case "CSV_QUOTE_NOT_CLOSED":
      return `A quoted cell is never closed${where}: check its quote marks.`;
    case "INVALID_OPENING_QUOTE":
    case "CSV_INVALID_CLOSING_QUOTE":
      return `A cell has a quote mark in the wrong place${where}: quote the whole cell and double the quote marks inside it.`;
    default:
      return `The file could not be read as CSV${where}: save it from your spreadsheet as "CSV UTF-8" and try again.`;
  }
}
