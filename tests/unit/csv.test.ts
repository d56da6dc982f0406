import { describe, expect, it } from "vitest";
import { CsvReadError, csvCell, readCsv, toCsv } from "../../lib/csv";

describe("CSV for spreadsheets", () => {
  it("quotes every cell and doubles quotes inside", () => {
    expect(csvCell('Say "hi"')).toBe('"Say ""hi"""');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(42)).toBe('"42"');
  });

  it("defuses every cell a spreadsheet would run as a formula", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) {
      expect(csvCell(`${start}1+1`)).toBe(`"'${start}1+1"`);
    }
    expect(csvCell("Kongsberg -1")).toBe('"Kongsberg -1"');
  });

  it("starts with a byte-order mark and ends rows with CRLF, so Excel reads UTF-8", () => {
    const csv = toCsv(["Company"], [["Ødegård AS"]]);
    expect(csv).toBe('\uFEFF"Company"\r\n"Ødegård AS"\r\n');
  });

  it("writes an empty cell as two quote marks, so a one-column row is never an empty line", () => {
    expect(toCsv(["Note"], [[null], [""]])).toBe('\uFEFF"Note"\r\n""\r\n""\r\n');
  });
});

describe("reading CSV from a spreadsheet", () => {
  const lower = (name: string) => name.toLowerCase();

  it("reads what toCsv wrote, formulas defused and taken back, cells with line breaks and commas", () => {
    const text = toCsv(
      ["Name", "Note"],
      [
        ["=SUM(A1)", "two\nlines, and a comma"],
        ["Ødegård", 'say "hi"'],
      ],
    );
    expect(readCsv(text, lower, 10)).toEqual({
      columns: ["name", "note"],
      records: [
        { line: 2, cells: { name: "=SUM(A1)", note: "two\nlines, and a comma" } },
        { line: 4, cells: { name: "Ødegård", note: 'say "hi"' } },
      ],
    });
  });

  it("takes the semicolon when the header has more of them (Excel where the comma is the decimal mark)", () => {
    const { records } = readCsv("Name;Seats\r\nAcme, Inc.;3\r\n", lower, 10);
    expect(records).toEqual([{ line: 2, cells: { name: "Acme, Inc.", seats: "3" } }]);
  });

  it("skips empty lines, and a row shorter than the header lacks the cells it does not have", () => {
    const { records } = readCsv("Name,Country,Website\n\nAcme,NO\n", lower, 10);
    expect(records).toEqual([{ line: 3, cells: { name: "Acme", country: "NO" } }]);
  });

  it("refuses what it cannot read, saying where and what to do", () => {
    const message = (text: string) => {
      try {
        readCsv(text, lower, 10);
      } catch (error) {
        expect(error).toBeInstanceOf(CsvReadError);
        return (error as Error).message;
      }
      return "read";
    };
    expect(message("Name\nA,B\n")).toMatch(/more cells than the header has columns \(line 2\)/);
    expect(message('Name\n"open\n')).toMatch(/never closed/);
    expect(message(`Name\n${"x\n".repeat(11)}`)).toBe(
      "The file has 11 rows; at most 10 can be read at once: split it.",
    );
  });
});
