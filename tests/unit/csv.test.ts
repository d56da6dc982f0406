import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "../../lib/csv";

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
});
