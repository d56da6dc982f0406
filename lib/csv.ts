/**
 * CSV for spreadsheets: every cell quoted, and a cell a spreadsheet would read
 * as a formula (=, +, -, @, tab, carriage return first) starts with a quote
 * mark instead (OWASP 'CSV injection').
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function toCsv(header: string[], rows: unknown[][]): string {
  // A byte-order mark so that Excel reads UTF-8 (company names with accents).
  return `\uFEFF${[header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
