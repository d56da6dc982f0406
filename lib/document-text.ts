/**
 * The searchable text of an uploaded document, page by page (Node-only).
 *
 * - PDF: pdf.js (unpdf's serverless build, worker inlined) in a worker
 *   thread of its own, so that a hostile file that loops or swells is ended
 *   by the time budget or the worker's heap limit, never the server.
 * - docx, pptx, xlsx: the parts' XML read from the zip (yauzl) with per-entry
 *   and total caps on the decompressed bytes, then a non-validating SAX parser
 *   (saxes) that never reads a DTD nor expands an entity it was not born with.
 * - XML, XSD: the text content, names, and for a schema its documentation and
 *   the names of its elements, types and attributes.
 * - ZIP and anything else: no text.
 *
 * Content problems (encrypted, malformed, timed out, too large) are never
 * thrown by readDocumentText: it answers them as `problem` for the caller to
 * log. extractDocumentText throws them as a DocumentTextError instead.
 */
import { open, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { posix } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { type SaxesAttributeNS, SaxesParser, type SaxesTagNS } from "saxes";
import yauzl from "yauzl";

export type ExtractedPage = { page: number; text: string };

export type TextLimits = {
  /** Pages (PDF pages, slides, sheets) read at most; the rest are left out. */
  maxPages: number;
  /** Characters of text kept at most, all pages together. */
  maxTextChars: number;
  /** A larger file is not read at all (problem "too_large"). */
  maxFileBytes: number;
  /** Bytes of a standalone XML file read at most. */
  maxXmlBytes: number;
  /** Decompressed bytes read from one zip entry at most (the rest of the entry is left out). */
  maxEntryBytes: number;
  /** Decompressed bytes read from all of a zip's entries together at most. */
  maxUnzippedBytes: number;
  /** Entries in a zip's directory looked at at most. */
  maxZipEntries: number;
  /** Time budget of one extraction; past it a PDF's worker is ended (problem "timeout"). */
  timeoutMs: number;
  /** Heap of the PDF worker, MB; past it the worker is ended (problem "too_large"). */
  pdfHeapMb: number;
};

export const DEFAULT_TEXT_LIMITS: TextLimits = {
  maxPages: 2_000,
  maxTextChars: 5_000_000,
  maxFileBytes: 200 * 1024 * 1024,
  maxXmlBytes: 50 * 1024 * 1024,
  maxEntryBytes: 25 * 1024 * 1024,
  maxUnzippedBytes: 50 * 1024 * 1024,
  maxZipEntries: 10_000,
  timeoutMs: 30_000,
  pdfHeapMb: 512,
};

export type DocumentTextProblemReason = "encrypted" | "malformed" | "timeout" | "too_large" | "failed";
export type DocumentTextProblem = { reason: DocumentTextProblemReason; message: string };

export type DocumentText = {
  /** Pages with text, in order; pages without text are left out. */
  pages: ExtractedPage[];
  /** True when a limit cut the text short (pages, characters, zip bytes). */
  truncated: boolean;
  /** Why the document gave no (or only part of its) text; null when it was read. */
  problem: DocumentTextProblem | null;
};

/** extractDocumentText's error for a document it could not read; `pages` holds what was read before. */
export class DocumentTextError extends Error {
  readonly reason: DocumentTextProblemReason;
  readonly pages: ExtractedPage[];
  constructor(problem: DocumentTextProblem, pages: ExtractedPage[] = []) {
    super(problem.message);
    this.name = "DocumentTextError";
    this.reason = problem.reason;
    this.pages = pages;
  }
}

export type DocumentSource = Blob | { path: string };

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

/** The MIME types that give text (application/zip and the rest give none). */
export const TEXT_TYPES = ["application/pdf", DOCX, XLSX, PPTX, "application/xml", "text/xml"] as const;

// ---------------------------------------------------------------------------
// One extraction at a time per process: pdf.js holds a whole PDF in memory.

let tail: Promise<unknown> = Promise.resolve();
let waiting = 0;

/** Runs fn once the extractions queued before it have finished (one at a time per process). */
export function withDocumentTextSlot<T>(fn: () => Promise<T>): Promise<T> {
  waiting += 1;
  const run = tail.then(
    () => {
      waiting -= 1;
      return fn();
    },
    () => {
      waiting -= 1;
      return fn();
    },
  );
  tail = run.catch(() => undefined);
  return run;
}

/** Extractions waiting for their turn in this process (the one running is not counted). */
export function documentTextQueueLength(): number {
  return waiting;
}

// ---------------------------------------------------------------------------
// Text clean-up.

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFD\uFFFE\uFFFF]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text as it is stored for search: NFC, no NUL (dropped) or other control
 * characters (as spaces, like U+FFFD from undecodable bytes),
 * no lone surrogates (PostgreSQL refuses both), runs of spaces as one space,
 * lines trimmed, no blank lines.
 */
export function normaliseText(raw: string): string {
  return raw
    .replaceAll("\u0000", "")
    .replace(LONE_SURROGATE, "")
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    .replace(CONTROL, " ")
    .replace(/[\u00AD\u200B\uFEFF]/g, "")
    .normalize("NFC")
    .replace(/[^\S\n]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .replace(/\n{2,}/g, "\n")
    .trim();
}

/** Collects pages under the character and page caps. */
/** Text gathered by an XML walk, which ends the walk once it holds more than its budget. */
export class TextParts {
  private readonly parts: string[] = [];
  private length = 0;
  cut = false;
  constructor(private readonly budget = Number.POSITIVE_INFINITY) {}

  push(...texts: string[]): void {
    for (const text of texts) {
      this.parts.push(text);
      this.length += text.length;
    }
  }

  get enough(): boolean {
    if (this.length > this.budget) this.cut = true;
    return this.cut;
  }

  toString(): string {
    return this.parts.join("");
  }
}

class PageCollector {
  readonly pages: ExtractedPage[] = [];
  truncated = false;
  private chars = 0;
  constructor(private readonly limits: TextLimits) {}

  get full(): boolean {
    return this.chars >= this.limits.maxTextChars;
  }

  /**
   * Where the next page's raw text is gathered: up to twice the room left
   * (normalising whitespace may shrink it) and a margin, so a huge part is
   * not walked to its end for text that would be cut off anyway.
   */
  parts(): TextParts {
    return new TextParts(2 * Math.max(this.limits.maxTextChars - this.chars, 0) + 1024 * 1024);
  }

  /** Adds a page's text (normalised here); false once no more text is taken. */
  add(page: number, raw: string | TextParts): boolean {
    if (page > this.limits.maxPages) {
      this.truncated = true;
      return false;
    }
    if (raw instanceof TextParts && raw.cut) this.truncated = true;
    let text = normaliseText(raw.toString());
    const room = this.limits.maxTextChars - this.chars;
    if (text.length > room) {
      this.truncated = true;
      text = text.slice(0, Math.max(room, 0)).replace(LONE_SURROGATE, "").trimEnd();
    }
    if (text) {
      this.pages.push({ page, text });
      this.chars += text.length;
    }
    return !this.full;
  }
}

// ---------------------------------------------------------------------------
// Entry points.

/**
 * The text of a document by its sniffed MIME type. Never throws for what is
 * in the file: an unreadable one answers its `problem` (with the pages read
 * before it, usually none). Runs one extraction at a time per process.
 */
export function readDocumentText(
  file: DocumentSource,
  mime: string,
  limits?: Partial<TextLimits>,
): Promise<DocumentText> {
  const all: TextLimits = { ...DEFAULT_TEXT_LIMITS, ...limits };
  if (!(TEXT_TYPES as readonly string[]).includes(mime)) {
    return Promise.resolve({ pages: [], truncated: false, problem: null });
  }
  return withDocumentTextSlot(() => readNow(file, mime, all));
}

/**
 * The text of a document by its sniffed MIME type, one entry per page from 1
 * (one entry, page 1, for formats without pages; a slide or a sheet is a page).
 * [] for ZIP and unknown types. Throws DocumentTextError (reason: encrypted,
 * malformed, timeout, too_large, failed) for a document that could not be
 * read: the caller logs the reason and indexes no text.
 */
export async function extractDocumentText(
  file: DocumentSource,
  mime: string,
  limits?: Partial<TextLimits>,
): Promise<ExtractedPage[]> {
  const result = await readDocumentText(file, mime, limits);
  if (result.problem) throw new DocumentTextError(result.problem, result.pages);
  return result.pages;
}

async function sizeOf(file: DocumentSource): Promise<number> {
  return file instanceof Blob ? file.size : (await stat(file.path)).size;
}

async function readNow(file: DocumentSource, mime: string, limits: TextLimits): Promise<DocumentText> {
  const collector = new PageCollector(limits);
  const done = (problem: DocumentTextProblem | null = null): DocumentText => ({
    pages: collector.pages,
    truncated: collector.truncated,
    problem,
  });
  try {
    const size = await sizeOf(file);
    if (size > limits.maxFileBytes) {
      return done({ reason: "too_large", message: `The file has ${size} bytes, over ${limits.maxFileBytes}.` });
    }
    if (mime === "application/pdf") return done(await readPdf(file, limits, collector));
    if (mime === "application/xml" || mime === "text/xml") {
      const bytes = await readBytes(file, limits.maxXmlBytes);
      if (bytes.length < size) collector.truncated = true;
      collector.add(1, xmlText(decodeXml(bytes), collector.parts()));
      return done();
    }
    await readOoxml(file, mime, limits, collector);
    return done();
  } catch (error) {
    if (error instanceof DocumentTextError) return done({ reason: error.reason, message: error.message });
    const message = error instanceof Error ? error.message : String(error);
    return done({ reason: "malformed", message });
  }
}

async function readBytes(file: DocumentSource, max: number): Promise<Uint8Array> {
  if (file instanceof Blob) return new Uint8Array(await file.slice(0, max).arrayBuffer());
  const handle = await open(file.path, "r");
  try {
    const size = Math.min((await handle.stat()).size, max);
    const buffer = Buffer.alloc(size);
    let offset = 0;
    while (offset < size) {
      const { bytesRead } = await handle.read(buffer, offset, size - offset, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    return buffer.subarray(0, offset);
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------
// PDF: pdf.js in a worker thread with a time budget and a heap limit.

/**
 * The worker, as CommonJS source (an eval worker): it needs no file of its
 * own next to this module, so the bundled server (build/server.js) runs it
 * as it is; unpdf stays in node_modules (esbuild's packages: "external") and
 * is imported by the file URL resolved here.
 */
const PDF_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { readFile } = require("node:fs/promises");
(async () => {
  const { maxPages, maxTextChars } = workerData;
  const data = workerData.path ? new Uint8Array(await readFile(workerData.path)) : new Uint8Array(workerData.data);
  const { getDocumentProxy } = await import(workerData.unpdf);
  const pdf = await getDocumentProxy(data, {
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    verbosity: 0,
  });
  const pages = Math.min(pdf.numPages, maxPages);
  parentPort.postMessage({ type: "pages", total: pdf.numPages });
  let chars = 0;
  for (let n = 1; n <= pages && chars < maxTextChars; n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    let text = "";
    for (const item of content.items) {
      if (typeof item.str === "string") text += item.str;
      if (item.hasEOL) text += "\\n";
      if (text.length > maxTextChars) break;
    }
    page.cleanup();
    chars += text.length;
    parentPort.postMessage({ type: "page", page: n, text });
  }
  await pdf.loadingTask.destroy().catch(() => {});
  parentPort.postMessage({ type: "done" });
})().catch((error) => {
  parentPort.postMessage({ type: "error", name: (error && error.name) || "Error", message: String((error && error.message) || error) });
});
`;

let unpdfUrl: string | undefined;
function unpdfEntry(): string {
  unpdfUrl ??= pathToFileURL(createRequire(import.meta.url).resolve("unpdf")).href;
  return unpdfUrl;
}

type PdfMessage =
  | { type: "pages"; total: number }
  | { type: "page"; page: number; text: string }
  | { type: "done" }
  | { type: "error"; name: string; message: string };

function pdfProblem(name: string, message: string): DocumentTextProblem {
  if (name === "PasswordException") return { reason: "encrypted", message: `Encrypted PDF: ${message}` };
  if (name === "InvalidPDFException" || name === "FormatError" || name === "MissingPDFException") {
    return { reason: "malformed", message: `Malformed PDF: ${message}` };
  }
  return { reason: "failed", message: `${name}: ${message}` };
}

async function readPdf(
  file: DocumentSource,
  limits: TextLimits,
  collector: PageCollector,
): Promise<DocumentTextProblem | null> {
  const data = file instanceof Blob ? await file.arrayBuffer() : undefined;
  const worker = new Worker(PDF_WORKER, {
    eval: true,
    workerData: {
      unpdf: unpdfEntry(),
      path: file instanceof Blob ? undefined : file.path,
      data,
      maxPages: limits.maxPages,
      maxTextChars: limits.maxTextChars,
    },
    transferList: data ? [data] : [],
    resourceLimits: { maxOldGenerationSizeMb: limits.pdfHeapMb, maxYoungGenerationSizeMb: 64 },
    stdout: true,
    stderr: true,
  });
  // pdf.js's warnings are not the server's log.
  worker.stdout.resume();
  worker.stderr.resume();
  return new Promise<DocumentTextProblem | null>((resolve) => {
    let settled = false;
    const finish = (problem: DocumentTextProblem | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(problem);
    };
    const timer = setTimeout(
      () => finish({ reason: "timeout", message: `PDF text extraction took over ${limits.timeoutMs} ms.` }),
      limits.timeoutMs,
    );
    worker.on("message", (message: PdfMessage) => {
      if (message.type === "pages") {
        if (message.total > limits.maxPages) collector.truncated = true;
      } else if (message.type === "page") {
        if (!collector.add(message.page, message.text)) finish(null);
      } else if (message.type === "done") finish(null);
      else finish(pdfProblem(message.name, message.message));
    });
    worker.on("error", (error: Error & { code?: string }) => {
      if (error.code === "ERR_WORKER_OUT_OF_MEMORY") {
        finish({ reason: "too_large", message: "PDF text extraction ran out of memory." });
      } else finish(pdfProblem(error.name, error.message));
    });
    worker.on("exit", (code) => finish({ reason: "failed", message: `The PDF worker stopped (exit code ${code}).` }));
  });
}

// ---------------------------------------------------------------------------
// XML.

/** XML bytes as text, by the byte order mark or the declared encoding (UTF-8 otherwise). */
export function decodeXml(bytes: Uint8Array): string {
  return xmlDecoder(bytes).decode(bytes);
}

/** Bytes of an XML file's head enough to choose its decoder (a BOM or the declaration). */
const XML_HEAD_BYTES = 200;

/** The decoder of an XML file, from its first bytes: a BOM, the declared encoding, else UTF-8. */
function xmlDecoder(head: Uint8Array): TextDecoder {
  if (head[0] === 0xff && head[1] === 0xfe) return new TextDecoder("utf-16le");
  if (head[0] === 0xfe && head[1] === 0xff) return new TextDecoder("utf-16be");
  const start = new TextDecoder("latin1").decode(head.subarray(0, XML_HEAD_BYTES));
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(start)?.[1];
  if (declared) {
    try {
      return new TextDecoder(declared);
    } catch {
      // An encoding TextDecoder does not know: read it as UTF-8.
    }
  }
  return new TextDecoder("utf-8");
}

type XmlHandlers = {
  open?: (tag: SaxesTagNS) => void;
  close?: (tag: SaxesTagNS) => void;
  text?: (text: string) => void;
  /** The text kept; the walk ends once it has enough. */
  out?: TextParts;
};

/** Characters given to saxes at a time, so that a walk can end early. */
const XML_CHUNK = 256 * 1024;

/**
 * Walks XML with saxes: no DTD is read, no external entity fetched, no entity
 * declared in the document expanded (its reference stays as the literal
 * "&name;"). Errors are passed over: a malformed document gives what it has.
 */
function walkXml(xml: string, handlers: XmlHandlers): void {
  const walk = xmlWalk(handlers);
  // saxes carries a surrogate pair split between two chunks over to the next one.
  for (let at = 0; at < xml.length; at += XML_CHUNK) {
    if (!walk.write(xml.slice(at, at + XML_CHUNK))) return;
  }
  walk.close();
}

/** A walk fed text piece by piece: write answers false once it has ended (enough text, or broken). */
function xmlWalk(handlers: XmlHandlers): { write(text: string): boolean; close(): void } {
  const parser = new SaxesParser({ xmlns: true, position: false });
  parser.on("error", () => undefined);
  if (handlers.open) parser.on("opentag", handlers.open);
  if (handlers.close) parser.on("closetag", handlers.close);
  if (handlers.text) {
    parser.on("text", handlers.text);
    parser.on("cdata", handlers.text);
  }
  let ended = false;
  return {
    write(text) {
      if (ended || handlers.out?.enough) return false;
      try {
        parser.write(text);
      } catch {
        // saxes reports through the handler; anything else ends the walk with what was read.
        ended = true;
      }
      return !ended;
    },
    close() {
      if (ended) return;
      ended = true;
      try {
        parser.close();
      } catch {
        // As above: what was read is kept.
      }
    },
  };
}

function attributeValue(tag: SaxesTagNS, local: string): string | undefined {
  for (const attribute of Object.values(tag.attributes) as SaxesAttributeNS[]) {
    if (attribute.local === local && !attribute.prefix) return attribute.value;
  }
  return undefined;
}

/**
 * The text of an XML document: its text content (an XML Schema's
 * xs:documentation is text content too) and, on lines of their own, the
 * values of unprefixed attributes that name things: name (a schema's
 * elements, types, attributes and groups; RTZ waypoints), routeName and
 * other …Name attributes.
 */
export function xmlText(xml: string, parts = new TextParts()): TextParts {
  let depth = 0;
  walkXml(xml, {
    out: parts,
    open(tag) {
      depth += 1;
      parts.push(" ");
      for (const attribute of Object.values(tag.attributes) as SaxesAttributeNS[]) {
        if (!attribute.prefix && (attribute.local === "name" || /Name$/.test(attribute.local))) {
          parts.push(`\n${attribute.value}\n`);
        }
      }
    },
    close() {
      depth -= 1;
      parts.push("\n");
    },
    text(text) {
      // Text outside the root element is junk (saxes reports it and goes on).
      if (depth > 0) parts.push(text);
    },
  });
  return parts;
}

// ---------------------------------------------------------------------------
// Office Open XML.

/** Gathers the text of a WordprocessingML or DrawingML part: runs of text, paragraphs as lines. */
function runsText(parts: TextParts): XmlHandlers {
  let inText = 0;
  return {
    out: parts,
    open(tag) {
      if (tag.local === "t") inText += 1;
      else if (tag.local === "tab") parts.push("\t");
      else if (tag.local === "br" || tag.local === "cr") parts.push("\n");
    },
    close(tag) {
      if (tag.local === "t") inText = Math.max(inText - 1, 0);
      else if (tag.local === "p" || tag.local === "tc") parts.push("\n");
    },
    text(text) {
      if (inText) parts.push(text);
    },
  };
}

/** A package relationship's target as a zip entry name, from the part that names it. */
function resolveTarget(base: string, target: string): string {
  if (target.startsWith("/")) return posix.normalize(target.slice(1));
  return posix.normalize(posix.join(posix.dirname(base), target));
}

/** Relationship id → entry name, from a part's .rels. */
function relationships(relsXml: string | undefined, part: string): Map<string, string> {
  const map = new Map<string, string>();
  if (!relsXml) return map;
  walkXml(relsXml, {
    open(tag) {
      if (tag.local !== "Relationship") return;
      const id = attributeValue(tag, "Id");
      const target = attributeValue(tag, "Target");
      const mode = attributeValue(tag, "TargetMode");
      if (id && target && mode !== "External") map.set(id, resolveTarget(part, target));
    },
  });
  return map;
}

/** The r:id attributes of elements with a local name, in document order (slides, sheets). */
function orderedParts(xml: string | undefined, local: string): { id: string; name?: string }[] {
  const out: { id: string; name?: string }[] = [];
  if (!xml) return out;
  walkXml(xml, {
    open(tag) {
      if (tag.local !== local) return;
      for (const attribute of Object.values(tag.attributes) as SaxesAttributeNS[]) {
        if (attribute.local === "id" && attribute.prefix) {
          out.push({ id: attribute.value, name: attributeValue(tag, "name") });
          return;
        }
      }
    },
  });
  return out;
}

function byNumber(a: string, b: string): number {
  return Number(/(\d+)\.xml$/.exec(a)?.[1] ?? 0) - Number(/(\d+)\.xml$/.exec(b)?.[1] ?? 0);
}

/** Reads zip entries under the decompressed-bytes caps. */
class ZipReader {
  private used = 0;
  private constructor(
    private readonly zip: yauzl.ZipFile,
    readonly entries: Map<string, yauzl.Entry>,
    private readonly limits: TextLimits,
    private readonly collector: PageCollector,
    private readonly deadline: number,
  ) {}

  static async open(
    file: DocumentSource,
    limits: TextLimits,
    collector: PageCollector,
    wanted: (name: string) => boolean,
  ): Promise<ZipReader> {
    const options = { autoClose: false, lazyEntries: true, strictFileNames: false };
    const zip =
      file instanceof Blob
        ? await yauzl.fromBufferPromise(Buffer.from(await file.arrayBuffer()), options)
        : await yauzl.openPromise(file.path, options);
    const entries = new Map<string, yauzl.Entry>();
    let count = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        count += 1;
        if (count > limits.maxZipEntries) {
          collector.truncated = true;
          break;
        }
        if (wanted(entry.fileName)) entries.set(entry.fileName, entry);
      }
    } catch (error) {
      zip.close();
      throw error;
    }
    return new ZipReader(zip, entries, limits, collector, Date.now() + limits.timeoutMs);
  }

  /** An entry's text (UTF-8 or as declared), cut at the caps; undefined when absent or past the budget. */
  async text(name: string): Promise<string | undefined> {
    const entry = this.entries.get(name);
    if (!entry || entry.fileName.endsWith("/")) return undefined;
    if (Date.now() > this.deadline) {
      throw new DocumentTextError({
        reason: "timeout",
        message: `Reading the document took over ${this.limits.timeoutMs} ms.`,
      });
    }
    const budget = Math.min(this.limits.maxEntryBytes, this.limits.maxUnzippedBytes - this.used);
    if (budget <= 0) {
      this.collector.truncated = true;
      return undefined;
    }
    if (entry.uncompressedSize > budget) this.collector.truncated = true;
    const chunks: Buffer[] = [];
    let length = 0;
    try {
      const stream = await this.zip.openReadStreamPromise(entry);
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          const room = budget - length;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          length += Math.min(chunk.length, room);
          if (length >= budget) {
            this.collector.truncated = true;
            break;
          }
        }
      } finally {
        stream.destroy();
      }
    } catch {
      // A corrupt entry or one larger than its declared size: what was read is kept.
      this.collector.truncated = true;
    }
    this.used += length;
    return decodeXml(Buffer.concat(chunks, length));
  }

  /**
   * Walks an entry's XML as it is inflated (no copy of the whole part in
   * memory), within the same caps as text(); false when it is absent or past
   * the budget.
   */
  async walk(name: string, handlers: XmlHandlers): Promise<boolean> {
    const entry = this.entries.get(name);
    if (!entry || entry.fileName.endsWith("/")) return false;
    if (Date.now() > this.deadline) {
      throw new DocumentTextError({
        reason: "timeout",
        message: `Reading the document took over ${this.limits.timeoutMs} ms.`,
      });
    }
    const budget = Math.min(this.limits.maxEntryBytes, this.limits.maxUnzippedBytes - this.used);
    if (budget <= 0) {
      this.collector.truncated = true;
      return false;
    }
    if (entry.uncompressedSize > budget) this.collector.truncated = true;
    const walk = xmlWalk(handlers);
    let decoder: TextDecoder | undefined;
    let head: Buffer[] = [];
    let length = 0;
    const feed = (bytes: Uint8Array, last: boolean) => {
      decoder ??= xmlDecoder(bytes);
      return walk.write(decoder.decode(bytes, { stream: !last }));
    };
    try {
      const stream = await this.zip.openReadStreamPromise(entry);
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          const room = budget - length;
          const bytes = chunk.length > room ? chunk.subarray(0, room) : chunk;
          length += bytes.length;
          let going = true;
          if (decoder) going = feed(bytes, false);
          else {
            head.push(bytes);
            if (length >= XML_HEAD_BYTES) {
              going = feed(Buffer.concat(head), false);
              head = [];
            }
          }
          if (length >= budget) {
            this.collector.truncated = true;
            break;
          }
          if (!going) break;
        }
      } finally {
        stream.destroy();
      }
    } catch {
      // A corrupt entry or one larger than its declared size: what was read is kept.
      this.collector.truncated = true;
    }
    this.used += length;
    feed(head.length ? Buffer.concat(head) : new Uint8Array(0), true);
    walk.close();
    return true;
  }

  close(): void {
    this.zip.close();
  }
}

const OOXML_PARTS: Record<string, RegExp> = {
  [DOCX]: /^word\/(document\.xml|_rels\/document\.xml\.rels)$/,
  [PPTX]: /^ppt\/(presentation\.xml|_rels\/presentation\.xml\.rels|slides\/slide\d+\.xml)$/,
  [XLSX]: /^xl\/(workbook\.xml|_rels\/workbook\.xml\.rels|sharedStrings\.xml|worksheets\/[^/]+\.xml)$/,
};

async function readOoxml(file: DocumentSource, mime: string, limits: TextLimits, collector: PageCollector) {
  const wanted = OOXML_PARTS[mime];
  if (!wanted) return;
  const zip = await ZipReader.open(file, limits, collector, (name) => wanted.test(name));
  try {
    if (mime === DOCX) {
      const parts = collector.parts();
      if (await zip.walk("word/document.xml", runsText(parts))) collector.add(1, parts);
    } else if (mime === PPTX) {
      for (const [index, slide] of (await slideOrder(zip)).entries()) {
        const parts = collector.parts();
        await zip.walk(slide, runsText(parts));
        if (!collector.add(index + 1, parts)) break;
      }
    } else {
      await readSheets(zip, collector);
    }
  } finally {
    zip.close();
  }
}

/** Slide parts in presentation order (p:sldIdLst), else by their numbers. */
async function slideOrder(zip: ZipReader): Promise<string[]> {
  const rels = relationships(await zip.text("ppt/_rels/presentation.xml.rels"), "ppt/presentation.xml");
  const listed = orderedParts(await zip.text("ppt/presentation.xml"), "sldId")
    .map(({ id }) => rels.get(id))
    .filter((name): name is string => !!name && zip.entries.has(name));
  if (listed.length) return listed;
  return [...zip.entries.keys()].filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name)).sort(byNumber);
}

/** One page per worksheet, in workbook order: its name, then its rows (cells by tabs). */
async function readSheets(zip: ZipReader, collector: PageCollector) {
  const strings: string[] = [];
  const shared = await zip.text("xl/sharedStrings.xml");
  if (shared) {
    let current: string[] | null = null;
    let inText = 0;
    let phonetic = 0;
    walkXml(shared, {
      open(tag) {
        if (tag.local === "si") current = [];
        else if (tag.local === "rPh") phonetic += 1;
        else if (tag.local === "t") inText += 1;
      },
      close(tag) {
        if (tag.local === "si" && current) {
          strings.push(current.join(""));
          current = null;
        } else if (tag.local === "rPh") phonetic -= 1;
        else if (tag.local === "t") inText -= 1;
      },
      text(text) {
        if (current && inText && !phonetic) current.push(text);
      },
    });
  }
  const rels = relationships(await zip.text("xl/_rels/workbook.xml.rels"), "xl/workbook.xml");
  let sheets = orderedParts(await zip.text("xl/workbook.xml"), "sheet")
    .map(({ id, name }) => ({ part: rels.get(id), name }))
    .filter(
      (sheet): sheet is { part: string; name: string | undefined } => !!sheet.part && zip.entries.has(sheet.part),
    );
  if (!sheets.length) {
    sheets = [...zip.entries.keys()]
      .filter((name) => /^xl\/worksheets\/sheet\d+\.xml$/.test(name))
      .sort(byNumber)
      .map((part) => ({ part, name: undefined }));
  }
  for (const [index, sheet] of sheets.entries()) {
    const parts = collector.parts();
    parts.push(sheet.name ?? "", "\n");
    await zip.walk(sheet.part, sheetText(strings, parts));
    if (!collector.add(index + 1, parts)) break;
  }
}

function sheetText(strings: string[], parts: TextParts): XmlHandlers {
  let type = "";
  let inValue = false;
  let inInline = 0;
  let value: string[] = [];
  return {
    out: parts,
    open(tag) {
      if (tag.local === "c") {
        type = attributeValue(tag, "t") ?? "";
        value = [];
      } else if (tag.local === "v") inValue = true;
      else if (tag.local === "is") inInline += 1;
    },
    close(tag) {
      if (tag.local === "v") inValue = false;
      else if (tag.local === "is") inInline -= 1;
      else if (tag.local === "c") {
        const raw = value.join("");
        const text = type === "s" ? (strings[Number(raw)] ?? "") : raw;
        if (text) parts.push(text, "\t");
      } else if (tag.local === "row") parts.push("\n");
    },
    text(text) {
      if (inValue || inInline) value.push(text);
    },
  };
}
