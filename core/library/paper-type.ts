import { fileTypeFromBuffer } from "file-type";
import { PAPER_TYPES, type PaperType } from "./library.schema";

/**
 * What a paper's file is, from its bytes alone (decision 0025, narrowed by decision 0036): never
 * its name or the type the client declared. The library takes documents, not pages or images that
 * a browser would run or render: PDF, Word, Excel and PowerPoint (OOXML), ZIP, and XML data
 * (XML, XSD); not SVG, not (X)HTML, not a file that hides a PDF behind something else.
 */

/**
 * Bytes read to decide: an Office file names its parts in its first ZIP entries, which may come
 * after a large one (a thumbnail); an XML file may open with a long comment. Reading a 50 MB file
 * through would cost time and memory for nothing.
 */
export const PAPER_HEAD_BYTES = 1024 * 1024;

export const PAPER_TYPES_MESSAGE =
  "The file must be a PDF, Word (docx), Excel (xlsx), PowerPoint (pptx), XML, XSD or ZIP file.";
export const PDF_NOT_AT_START_MESSAGE =
  "The file is not a PDF that starts with its %PDF- header: something else comes before it. Save it again as a PDF from the program that made it.";
export const RENDERED_XML_MESSAGE =
  "SVG images and HTML pages are not taken by the library: upload the document as a PDF.";

export type PaperTypeVerdict = { type: PaperType } | { refused: string };

const SVG_NAMESPACE = "http://www.w3.org/2000/svg";
const XHTML_NAMESPACE = "http://www.w3.org/1999/xhtml";
/** Roots a browser shows as a page or an image (and runs scripts in) rather than as data. */
const RENDERED_ROOTS = new Set(["svg", "html", "head", "body"]);
const RENDERED_NAMESPACES = new Set([SVG_NAMESPACE, XHTML_NAMESPACE]);

/** The type of a paper's file from its head (its first PAPER_HEAD_BYTES, or all of it if shorter). */
export async function paperTypeOf(head: Uint8Array): Promise<PaperTypeVerdict> {
  const sniffed = await fileTypeFromBuffer(head);
  // file-type knows a PDF only by `%PDF` at byte 0: the header where every writer puts it.
  // It also names any text opening with `<?xml` XML: that is checked below like other XML.
  if (sniffed && sniffed.mime !== "application/xml") {
    return sniffed.mime in PAPER_TYPES ? { type: sniffed.mime as PaperType } : { refused: PAPER_TYPES_MESSAGE };
  }
  const text = decoded(head);
  const root = text === null ? null : xmlRoot(text);
  // A PDF reader looks for the header further in (Acrobat within 1024 bytes, others anywhere): an
  // HTML page, or anything else that is not an XML data document, with a PDF after it would be a
  // page to a browser and a PDF to the reader. An XML document that only mentions `%PDF-` in its
  // content is data, like any other (decision 0036).
  if (hidesPdf(head, text, root)) return { refused: PDF_NOT_AT_START_MESSAGE };
  if (!root) return { refused: PAPER_TYPES_MESSAGE };
  if (
    RENDERED_ROOTS.has(root.local.toLowerCase()) ||
    (root.doctype !== null && RENDERED_ROOTS.has(root.doctype.toLowerCase())) ||
    (root.namespace !== null && RENDERED_NAMESPACES.has(root.namespace))
  ) {
    return { refused: RENDERED_XML_MESSAGE };
  }
  return { type: "application/xml" };
}

/**
 * Tag names that make a browser take a file of unknown type for an HTML page (the WHATWG MIME
 * Sniffing standard's HTML patterns, §7.1), beside the roots already refused as rendered.
 */
const HTML_SNIFFED = new Set([
  "html",
  "head",
  "body",
  "script",
  "iframe",
  "h1",
  "div",
  "font",
  "table",
  "a",
  "style",
  "title",
  "b",
  "br",
  "p",
]);

/**
 * Whether the head is a PDF with something put before its header (not at byte 0, or file-type
 * would have said PDF): bytes that are not text, or only white space; or markup, unless the markup
 * is an XML data document that holds the `%PDF-` in its content. So an HTML page (a root a
 * browser takes for one, or markup that does not open as XML) and anything after the end of the
 * XML document's root element count; an XML document that mentions `%PDF-` inside its root, or in
 * a comment before it, is text, and so is prose (not a type the library takes, but no hidden PDF).
 */
function hidesPdf(head: Uint8Array, text: string | null, root: XmlRoot | null): boolean {
  if (text === null) return Buffer.from(head.buffer, head.byteOffset, head.byteLength).includes("%PDF-");
  const at = text.indexOf("%PDF-");
  if (at < 0) return false;
  const before = text
    .slice(0, at)
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (before === "") return true;
  if (!before.startsWith("<")) return false;
  if (!root) return true;
  if (
    HTML_SNIFFED.has(root.local.toLowerCase()) ||
    root.doctype?.toLowerCase() === "html" ||
    root.namespace === XHTML_NAMESPACE
  ) {
    return true;
  }
  return text.lastIndexOf("%PDF-") > root.end;
}

/**
 * The head as text: UTF-16 when it starts with its byte order mark, else UTF-8; null if it is
 * neither (a character cut at the end of the head is fine).
 */
function decoded(head: Uint8Array): string | null {
  const encoding =
    head[0] === 0xff && head[1] === 0xfe ? "utf-16le" : head[0] === 0xfe && head[1] === 0xff ? "utf-16be" : "utf-8";
  for (const cut of [0, 1, 2, 3]) {
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(head.subarray(0, head.length - cut));
    } catch {
      // try again without the last bytes
    }
  }
  return null;
}

type XmlRoot = {
  local: string;
  namespace: string | null;
  doctype: string | null;
  /** Where the root element ends in the text: after its end tag, or Infinity if that is not within it. */
  end: number;
};

/**
 * The root element of an XML document from its start: past the declaration, processing
 * instructions, comments and a DOCTYPE, the first start tag, its local name and namespace
 * (the one its prefix or the default `xmlns` binds on the tag itself). Null when the text
 * does not open as XML, or its root is not within the head.
 */
export function xmlRoot(text: string): XmlRoot | null {
  let rest = text.replace(/^\uFEFF/, "");
  let doctype: string | null = null;
  for (;;) {
    rest = rest.trimStart();
    if (rest.startsWith("<?")) {
      const end = rest.indexOf("?>");
      if (end < 0) return null;
      rest = rest.slice(end + 2);
    } else if (rest.startsWith("<!--")) {
      const end = rest.indexOf("-->", 4);
      if (end < 0) return null;
      rest = rest.slice(end + 3);
    } else if (/^<!DOCTYPE\s/i.test(rest)) {
      doctype = /^<!DOCTYPE\s+([^\s>[]+)/i.exec(rest)?.[1] ?? "";
      // An internal subset in brackets may hold `>`; the declaration ends at the `>` after it.
      const open = rest.indexOf("[");
      const close = rest.indexOf(">");
      const end = open >= 0 && open < close ? rest.indexOf(">", rest.indexOf("]", open)) : close;
      if (end < 0) return null;
      rest = rest.slice(end + 1);
    } else {
      break;
    }
  }
  const tag = /^<(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)((?:\s[^>]*)?)\/?>/.exec(rest);
  if (!tag) return null;
  const [whole, prefix, local, attributes] = tag;
  const binding = prefix ? `xmlns:${prefix}` : "xmlns";
  const namespace =
    new RegExp(`(?:^|\\s)${binding.replace(".", "\\.")}\\s*=\\s*(["'])(.*?)\\1`).exec(attributes)?.[2] ?? null;
  const start = text.length - rest.length;
  let end = Number.POSITIVE_INFINITY;
  if (whole.endsWith("/>")) end = start + whole.length;
  else {
    // The last end tag of the root's name: an element of the same name nested inside closes before it.
    const name = (prefix ? `${prefix}:${local}` : local).replaceAll(".", "\\.");
    const closing = new RegExp(`</${name}\\s*>`, "g");
    for (const match of text.slice(start).matchAll(closing)) end = start + match.index + match[0].length;
  }
  return { local, namespace, doctype, end };
}
