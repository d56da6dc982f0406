import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Zippable, zipSync } from "fflate";
import { PDFDocument, PDFHexString, StandardFonts } from "pdf-lib";
import { afterAll, describe, expect, it } from "vitest";
import {
  DocumentTextError,
  documentTextQueueLength,
  extractDocumentText,
  normaliseText,
  readDocumentText,
  TextParts,
  xmlText,
} from "../../lib/document-text";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-doc-text-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const utf8 = (text: string) => new TextEncoder().encode(text);
const blob = (bytes: Uint8Array | string) =>
  new Blob([typeof bytes === "string" ? utf8(bytes) : new Uint8Array(bytes)]);

async function pdf(pages: string[], encrypt = false): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = doc.addPage();
    page.drawText(text, { x: 50, y: 700, size: 12, font });
    page.drawText("Masthead technical paper", { x: 50, y: 40, size: 9, font });
  }
  if (encrypt) {
    // The standard security handler with a user password that is not empty:
    // pdf.js asks for the password it cannot have.
    const { context } = doc;
    context.trailerInfo.Encrypt = context.register(
      context.obj({
        Filter: "Standard",
        V: 1,
        R: 2,
        P: -4,
        O: PDFHexString.of("11".repeat(32)),
        U: PDFHexString.of("22".repeat(32)),
      }),
    );
    context.trailerInfo.ID = context.obj([PDFHexString.of("33".repeat(16)), PDFHexString.of("33".repeat(16))]);
  }
  return doc.save({ useObjectStreams: !encrypt });
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const S = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const RELS = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"';
const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

function zip(parts: Record<string, string | Uint8Array>): Uint8Array {
  const files: Zippable = {};
  for (const [name, content] of Object.entries(parts))
    files[name] = typeof content === "string" ? utf8(content) : content;
  return zipSync(files, { level: 6 });
}

function docxDocument(body: string): string {
  return `${DECL}<w:document ${W}><w:body>${body}</w:body></w:document>`;
}

function docx(body: string | Uint8Array): Uint8Array {
  return zip({
    "[Content_Types].xml": `${DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
    "word/document.xml": typeof body === "string" ? docxDocument(body) : body,
  });
}

function slide(lines: string[]): string {
  const paragraphs = lines.map((line) => `<a:p><a:r><a:t>${line}</a:t></a:r></a:p>`).join("");
  return `${DECL}<p:sld ${A} ${P}><p:cSld><p:spTree><p:sp><p:txBody>${paragraphs}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
}

describe("document text: PDF", () => {
  it("reads every page on its own, and a word only on page 3 is found on page 3", async () => {
    const bytes = await pdf([
      "Introduction to route exchange",
      "Waypoints and legs",
      "Annex: the albatross schema",
      "End",
    ]);
    const pages = await extractDocumentText(blob(bytes), "application/pdf");
    expect(pages.map((page) => page.page)).toEqual([1, 2, 3, 4]);
    expect(pages[0].text).toContain("Introduction to route exchange");
    expect(pages.filter((page) => page.text.includes("albatross")).map((page) => page.page)).toEqual([3]);
    for (const page of pages) {
      expect(page.text.includes("\u0000")).toBe(false);
      expect(page.text).not.toMatch(/ {2}|^\s|\s$/);
    }
  });

  it("reads a file by its path too, and stops at the page cap", async () => {
    const file = path.join(dir, "paper.pdf");
    fs.writeFileSync(file, await pdf(["one", "two", "three"]));
    const result = await readDocumentText({ path: file }, "application/pdf", { maxPages: 2 });
    expect(result.pages.map((page) => page.text.split("\n")[0])).toEqual(["one", "two"]);
    expect(result.truncated).toBe(true);
    expect(result.problem).toBeNull();
  });

  it("caps the text in total", async () => {
    const result = await readDocumentText(blob(await pdf(["a".repeat(50), "b".repeat(50)])), "application/pdf", {
      maxTextChars: 60,
    });
    expect(result.pages.reduce((sum, page) => sum + page.text.length, 0)).toBeLessThanOrEqual(60);
    expect(result.truncated).toBe(true);
  });

  it("answers a malformed PDF with no text and the reason", async () => {
    const bytes = await pdf(["whole"]);
    const result = await readDocumentText(blob(bytes.subarray(0, 300)), "application/pdf");
    expect(result.pages).toEqual([]);
    expect(result.problem?.reason).toBe("malformed");
    const error = await extractDocumentText(blob("%PDF-1.7\n garbage"), "application/pdf").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentTextError);
    expect((error as DocumentTextError).reason).toBe("malformed");
    expect((error as DocumentTextError).pages).toEqual([]);
  });

  it("answers an encrypted PDF with no text and the reason", async () => {
    const result = await readDocumentText(blob(await pdf(["classified"], true)), "application/pdf");
    expect(result).toMatchObject({ pages: [], problem: { reason: "encrypted" } });
  });

  it("ends the extraction past its time budget", async () => {
    const result = await readDocumentText(blob(await pdf(["slow"])), "application/pdf", { timeoutMs: 1 });
    expect(result.problem?.reason).toBe("timeout");
  });

  it("refuses a file over the size cap without reading it", async () => {
    const result = await readDocumentText(blob(await pdf(["big"])), "application/pdf", { maxFileBytes: 100 });
    expect(result).toMatchObject({ pages: [], problem: { reason: "too_large" } });
  });

  it("runs one extraction at a time, in order", async () => {
    const bytes = await pdf(["queued"]);
    const runs = [1, 2, 3].map(() => extractDocumentText(blob(bytes), "application/pdf"));
    expect(documentTextQueueLength()).toBeGreaterThanOrEqual(2);
    const results = await Promise.all(runs);
    for (const pages of results) expect(pages[0].text).toContain("queued");
    expect(documentTextQueueLength()).toBe(0);
  });
});

describe("document text: Office Open XML", () => {
  it("reads a docx's paragraphs as lines, one page", async () => {
    const bytes = docx(
      '<w:p><w:r><w:t>Route exchange</w:t></w:r><w:r><w:t xml:space="preserve"> format</w:t></w:r></w:p>' +
        "<w:p><w:r><w:t>Second</w:t><w:tab/><w:t>paragraph &amp; more</w:t></w:r></w:p>" +
        "<w:p><w:r><w:instrText>HYPERLINK x</w:instrText><w:delText>deleted</w:delText></w:r></w:p>",
    );
    expect(await extractDocumentText(blob(bytes), DOCX)).toEqual([
      { page: 1, text: "Route exchange format\nSecond paragraph & more" },
    ]);
  });

  it("reads a pptx one page per slide, in the presentation's order", async () => {
    const bytes = zip({
      "ppt/presentation.xml": `${DECL}<p:presentation ${P} ${R}><p:sldIdLst><p:sldId id="256" r:id="rId7"/><p:sldId id="257" r:id="rId3"/></p:sldIdLst></p:presentation>`,
      "ppt/_rels/presentation.xml.rels": `${DECL}<Relationships ${RELS}><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide1.xml"/><Relationship Id="rId7" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide2.xml"/></Relationships>`,
      // Moved to the front in the editor: its file keeps its number.
      "ppt/slides/slide2.xml": slide(["Agenda", "Opening"]),
      "ppt/slides/slide1.xml": slide(["Results", "Cormorant trials"]),
    });
    expect(await extractDocumentText(blob(bytes), PPTX)).toEqual([
      { page: 1, text: "Agenda\nOpening" },
      { page: 2, text: "Results\nCormorant trials" },
    ]);
  });

  it("reads a pptx's slides by their numbers when the presentation part is missing", async () => {
    const bytes = zip({
      "ppt/slides/slide10.xml": slide(["ten"]),
      "ppt/slides/slide2.xml": slide(["two"]),
    });
    expect((await extractDocumentText(blob(bytes), PPTX)).map((page) => page.text)).toEqual(["two", "ten"]);
  });

  it("reads an xlsx one page per sheet: its name, shared and inline strings, numbers", async () => {
    const bytes = zip({
      "xl/workbook.xml": `${DECL}<workbook ${S} ${R}><sheets><sheet name="Members" sheetId="1" r:id="rId1"/><sheet name="Fees" sheetId="2" r:id="rId2"/></sheets></workbook>`,
      "xl/_rels/workbook.xml.rels": `${DECL}<Relationships ${RELS}><Relationship Id="rId1" Type="x" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="x" Target="/xl/worksheets/sheet2.xml"/></Relationships>`,
      "xl/sharedStrings.xml": `${DECL}<sst ${S} count="3"><si><t>Company</t></si><si><r><t>Kongs</t></r><r><t>berg</t></r><rPh><t>phonetic</t></rPh></si><si><t>Furuno</t></si></sst>`,
      "xl/worksheets/sheet1.xml": `${DECL}<worksheet ${S}><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2"><f>1+1</f><v>2</v></c></row><row r="3"><c r="A3" t="s"><v>2</v></c><c r="B3" t="inlineStr"><is><t>Osaka</t></is></c></row></sheetData></worksheet>`,
      "xl/worksheets/sheet2.xml": `${DECL}<worksheet ${S}><sheetData><row r="1"><c r="A1"><v>1250.5</v></c></row></sheetData></worksheet>`,
    });
    expect(await extractDocumentText(blob(bytes), XLSX)).toEqual([
      { page: 1, text: "Members\nCompany\nKongsberg 2\nFuruno Osaka" },
      { page: 2, text: "Fees\n1250.5" },
    ]);
  });

  it("caps a zip-bomb-like entry (a huge, highly compressible part) without running out of memory", async () => {
    const paragraph = utf8("<w:p><w:r><w:t>bomb</w:t></w:r></w:p>");
    const size = 64 * 1024 * 1024;
    const body = new Uint8Array(size);
    const head = utf8(`${DECL}<w:document ${W}><w:body>`);
    body.set(head);
    for (let at = head.length; at + paragraph.length <= size; at += paragraph.length) body.set(paragraph, at);
    const bytes = docx(body);
    expect(bytes.length).toBeLessThan(size / 50);
    const before = process.memoryUsage().rss;
    const result = await readDocumentText(blob(bytes), DOCX);
    expect(result.truncated).toBe(true);
    expect(result.problem).toBeNull();
    expect(result.pages[0].text.startsWith("bomb\nbomb")).toBe(true);
    expect(result.pages[0].text.length).toBeLessThanOrEqual(5_000_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 * 1024);

    const small = await readDocumentText(blob(bytes), DOCX, { maxEntryBytes: 1024 });
    expect(small.truncated).toBe(true);
    expect(small.pages[0].text.length).toBeLessThan(200);
  });

  it("keeps what it read of an entry that inflates past the size it declares", async () => {
    const bytes = docx(docxDocument(`<w:p><w:r><w:t>${"liar ".repeat(2000)}</w:t></w:r></w:p>`));
    // Declare 100 bytes in the central directory (and the local header) for word/document.xml.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 0; at < bytes.length - 30; at++) {
      const signature = view.getUint32(at, true);
      if (
        signature === 0x02014b50 &&
        new TextDecoder().decode(bytes.subarray(at + 46, at + 63)) === "word/document.xml"
      ) {
        view.setUint32(at + 24, 100, true);
      }
      if (
        signature === 0x04034b50 &&
        new TextDecoder().decode(bytes.subarray(at + 30, at + 47)) === "word/document.xml"
      ) {
        view.setUint32(at + 22, 100, true);
      }
    }
    const result = await readDocumentText(blob(bytes), DOCX);
    expect(result.problem).toBeNull();
    expect(result.truncated).toBe(true);
  });

  it("answers a docx that is no zip with no text and the reason", async () => {
    const result = await readDocumentText(blob("PK\u0003\u0004 not really a zip"), DOCX);
    expect(result).toMatchObject({ pages: [], problem: { reason: "malformed" } });
  });

  it("gives no text for a plain zip or an unknown type", async () => {
    const bytes = zip({ "notes.xml": "<a>hidden</a>" });
    expect(await extractDocumentText(blob(bytes), "application/zip")).toEqual([]);
    expect(await extractDocumentText(blob("hello"), "image/png")).toEqual([]);
  });
});

describe("document text: XML and XSD", () => {
  it("ends a walk once it holds more text than its budget, and says it was cut", () => {
    const xml = `<doc>${"<p>words and more words</p>".repeat(400_000)}</doc>`;
    expect(xml.length).toBeGreaterThan(10_000_000);
    const whole = xmlText(xml);
    expect(whole.cut).toBe(false);
    expect(whole.toString().length).toBeGreaterThan(8_000_000);

    const parts = xmlText(xml, new TextParts(1_000));
    expect(parts.cut).toBe(true);
    // It stops between the chunks given to the parser: one chunk's text at most past the budget.
    expect(parts.toString().length).toBeLessThan(300_000);
    expect(parts.toString().trimStart().startsWith("words and more words\n")).toBe(true);
  });

  it("reads a schema's documentation and the names of its elements and types", async () => {
    const xsd = `${DECL}
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.cirm.org/RTZ/1/2">
  <xs:element name="route" type="Route">
    <xs:annotation><xs:documentation>Root element of a route &amp; its schedules.</xs:documentation></xs:annotation>
  </xs:element>
  <xs:complexType name="Waypoint">
    <xs:annotation><xs:documentation xml:lang="en">A point where the <![CDATA[vessel]]> turns.</xs:documentation></xs:annotation>
    <xs:attribute name="radius" type="xs:double"/>
  </xs:complexType>
</xs:schema>`;
    const [page, ...rest] = await extractDocumentText(blob(xsd), "application/xml");
    expect(rest).toEqual([]);
    expect(page.page).toBe(1);
    const lines = page.text.split("\n");
    for (const name of ["route", "Waypoint", "radius"]) expect(lines).toContain(name);
    expect(page.text).toContain("Root element of a route & its schedules.");
    expect(page.text).toContain("A point where the vessel turns.");
  });

  it("reads an RTZ route's text and waypoint names, for text/xml too", async () => {
    const rtz = `<?xml version="1.0" encoding="ISO-8859-1"?><route version="1.1"><routeInfo routeName="Bergen – Ålesund"/><waypoints><waypoint id="1" name="Fl\xf8rli"/></waypoints></route>`;
    const latin1 = Uint8Array.from(rtz, (c) => c.charCodeAt(0) & 0xff);
    const [page] = await extractDocumentText(blob(latin1), "text/xml");
    expect(page.text).toContain("Flørli");
  });

  it("never fetches nor expands an external entity, nor a declared one", async () => {
    const secret = path.join(dir, "secret.txt");
    fs.writeFileSync(secret, "TOP-SECRET-MARKER");
    const xml = `<?xml version="1.0"?>
<!DOCTYPE doc [
  <!ENTITY xxe SYSTEM "file://${secret}">
  <!ENTITY remote SYSTEM "http://127.0.0.1:9/evil.dtd">
  <!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
]>
<doc>before &xxe; &remote; &lol2; after &lt;tag&gt;</doc>`;
    const [page] = await extractDocumentText(blob(xml), "application/xml");
    expect(page.text).not.toContain("TOP-SECRET-MARKER");
    expect(page.text).not.toContain("lollol");
    expect(page.text).toContain("before");
    expect(page.text).toContain("after <tag>");
  });

  it("gives what a malformed XML has, and nothing for binary junk", async () => {
    const [page] = await extractDocumentText(blob("<a><b>kept</b><c>unclosed"), "application/xml");
    expect(page.text).toContain("kept");
    expect(await extractDocumentText(blob(new Uint8Array([0, 1, 2, 3, 255, 254])), "application/xml")).toEqual([]);
  });
});

describe("document text: clean-up", () => {
  it("drops NUL and control characters and lone surrogates, and collapses white space", () => {
    expect(normaliseText("  a\u0000b\u0007c\t\td\r\n\r\n\n  e \u00a0 f\u000c g \uD800h \uDE00 i\u00ad\uFEFF ")).toBe(
      "ab c d\ne f g h i",
    );
    expect(normaliseText("e\u0301")).toBe("é");
  });
});
