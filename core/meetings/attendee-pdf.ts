import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { deflateSync } from "node:zlib";
import fontkit from "@pdf-lib/fontkit";
import transliterate from "@sindresorhus/transliterate";
import { type Color, PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";

/**
 * A meeting's printable attendee list and name badges (issue 32, decision 0054): pure functions of
 * plain data, no database. The secretariat's registrations screen calls them and sends the bytes.
 *
 * Text is set in Noto Sans (Latin with its extensions and Vietnamese, Greek, Cyrillic), embedded,
 * because pdf-lib's standard Helvetica encodes WinAnsi only and throws on 'Ł' or 'Ζ'.
 * A character Noto Sans lacks (CJK, Hebrew, Arabic, …) is transliterated where a mapping exists
 * and shown as '?' otherwise: a name is never dropped and generation never fails.
 */

export const ATTENDEE_STATUSES = ["pending", "confirmed", "waitlisted", "declined", "cancelled"] as const;
export type AttendeeStatus = (typeof ATTENDEE_STATUSES)[number];

export const ATTENDEE_STATUS_LABELS: Record<AttendeeStatus, string> = {
  pending: "Pending",
  confirmed: "Confirmed",
  waitlisted: "Waiting list",
  declined: "Declined",
  cancelled: "Cancelled",
};

export type AttendeePdfMeeting = {
  title: string;
  /** The meeting's dates as the site shows them, e.g. '12–14 May 2027'. */
  dates: string;
  place?: string | null;
  /** IANA zone the check-in times and the generation time are shown in; UTC when absent. */
  timeZone?: string | null;
  capacity?: number | null;
};

export type AttendeePdfRow = {
  name: string;
  company?: string | null;
  email: string;
  status: AttendeeStatus;
  attended_at?: Date | string | null;
};

export type AttendeeListInput = {
  meeting: AttendeePdfMeeting;
  siteName: string;
  generatedAt: Date;
  attendees: readonly AttendeePdfRow[];
};

export type BadgesInput = {
  meeting: AttendeePdfMeeting;
  siteName: string;
  attendees: readonly Pick<AttendeePdfRow, "name" | "company">[];
};

// ---------------------------------------------------------------------------
// Fonts

type Fonts = { regular: PDFFont; bold: PDFFont };
type FontFiles = {
  regular: Uint8Array;
  bold: Uint8Array;
  /** The files deflated once, as the PDF stores them. */
  packed: Map<Uint8Array, Uint8Array>;
  covers: (codePoint: number) => boolean;
};

let fontFiles: FontFiles | undefined;

/** Read once per process: two 630 KB files, embedded whole in each document (about 640 KB compressed). */
function loadFontFiles(): FontFiles {
  if (fontFiles) return fontFiles;
  const require = createRequire(import.meta.url);
  const read = (file: string) => new Uint8Array(readFileSync(require.resolve(`@expo-google-fonts/noto-sans/${file}`)));
  const regular = read("400Regular/NotoSans_400Regular.ttf");
  const bold = read("700Bold/NotoSans_700Bold.ttf");
  // Regular and Bold of one family cover the same characters; ask one of them (a cmap lookup).
  const face = fontkit.create(regular);
  const covers = (codePoint: number) => face.hasGlyphForCodePoint(codePoint);
  const packed = new Map([regular, bold].map((file) => [file, new Uint8Array(deflateSync(file))]));
  fontFiles = { regular, bold, packed, covers };
  return fontFiles;
}

/** Off: fontkit's shaping runs every lookup of Noto Sans on each string, about 2 ms a call. */
const NO_FEATURES = Object.fromEntries(
  ["ccmp", "locl", "rlig", "rclt", "rvrn", "calt", "clig", "liga", "kern", "mark", "mkmk", "dist"].map((f) => [
    f,
    false,
  ]),
);

async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  const files = loadFontFiles();
  doc.registerFontkit(fontkit);
  // pdf-lib deflates a font file in JavaScript for every document (about 150 ms each on this
  // machine); the files never change, so each document takes the bytes deflated once.
  const context = doc.context;
  const flate = context.flateStream.bind(context);
  context.flateStream = (contents, dict = {}) => {
    const packed = contents instanceof Uint8Array ? files.packed.get(contents) : undefined;
    return packed ? context.stream(packed, { ...dict, Filter: "FlateDecode" }) : flate(contents, dict);
  };
  // Whole fonts: pdf-lib 1.17's subsetting drops most glyphs of Noto Sans (they print blank), a
  // known open bug. Without 'ccmp' a precomposed letter such as 'ị' stays one glyph, so copying
  // or searching the PDF gives the letter back instead of 'i' and a detached dot.
  const [regular, bold] = await Promise.all([
    doc.embedFont(files.regular, { subset: false, features: NO_FEATURES }),
    doc.embedFont(files.bold, { subset: false, features: NO_FEATURES }),
  ]);
  return { regular, bold };
}

// Combining marks would be placed apart from their letter without shaping, so text is composed
// first (NFC); line breaks and tabs become spaces, other controls and format characters go.
const CONTROL = /[\p{Cc}\p{Cf}]/gu;
const SPACES = /[\s\u00a0]+/gu;

/**
 * The text as the embedded font can print it: characters it lacks are transliterated where a
 * mapping exists ('محمد' → 'mhmd'), otherwise shown as '?'.
 */
export function printableText(text: string | null | undefined): string {
  if (!text) return "";
  const { covers } = loadFontFiles();
  const clean = text.normalize("NFC").replace(SPACES, " ").replace(CONTROL, "").trim();
  let out = "";
  let missing = "";
  const flush = () => {
    if (!missing) return;
    for (const char of transliterate(missing)) out += covers(char.codePointAt(0) ?? 0) ? char : "?";
    missing = "";
  };
  for (const char of clean) {
    if (char === " " || covers(char.codePointAt(0) ?? 0)) {
      flush();
      out += char;
    } else missing += char;
  }
  flush();
  return out;
}

const ELLIPSIS = "…";

/** The text cut at a character boundary with an ellipsis so that it fits `width` at `size`. */
export function fitText(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  const chars = Array.from(text);
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const candidate = `${chars.slice(0, mid).join("").trimEnd()}${ELLIPSIS}`;
    if (font.widthOfTextAtSize(candidate, size) <= width) low = mid;
    else high = mid - 1;
  }
  return low === 0 ? ELLIPSIS : `${chars.slice(0, low).join("").trimEnd()}${ELLIPSIS}`;
}

/**
 * The text broken at spaces into at most `maxLines` lines of `width`; the last line takes the
 * rest, cut with an ellipsis. A word wider than a line is cut too.
 */
export function wrapText(text: string, font: PDFFont, size: number, width: number, maxLines: number): string[] {
  const fits = (value: string) => font.widthOfTextAtSize(value, size) <= width;
  const words = text.split(" ").filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = "";
    if (lines.length >= maxLines - 1) {
      lines.push(fitText(words.slice(i).join(" "), font, size, width));
      return lines;
    }
    if (fits(word)) line = word;
    else lines.push(fitText(word, font, size, width));
  }
  if (line) lines.push(line);
  return lines;
}

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

function byName<T extends { name: string; email?: string }>(rows: readonly T[]): T[] {
  return [...rows].sort(
    (a, b) => collator.compare(a.name.trim(), b.name.trim()) || collator.compare(a.email ?? "", b.email ?? ""),
  );
}

function zoneOf(meeting: AttendeePdfMeeting): string {
  const zone = meeting.timeZone || "UTC";
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: zone });
    return zone;
  } catch {
    return "UTC";
  }
}

function asDate(value: Date | string | null | undefined): Date | null {
  if (value == null || value === "") return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

// ---------------------------------------------------------------------------
// Page geometry and colours (points; A4 portrait)

const MM = 72 / 25.4;
const A4 = { width: 595.28, height: 841.89 };
const INK = rgb(0.1, 0.12, 0.16);
const MUTED = rgb(0.42, 0.45, 0.5);
const FAINT = rgb(0.6, 0.62, 0.66);
const RULE = rgb(0.82, 0.84, 0.87);
const STRIPE = rgb(0.955, 0.96, 0.97);
const HEAD_FILL = rgb(0.9, 0.92, 0.95);
const ACCENT = rgb(0.05, 0.29, 0.5);

function text(
  page: PDFPage,
  value: string,
  x: number,
  y: number,
  font: PDFFont,
  size: number,
  color: Color = INK,
): void {
  if (value) page.drawText(value, { x, y, font, size, color });
}

function textRight(page: PDFPage, value: string, right: number, y: number, font: PDFFont, size: number, color: Color) {
  text(page, value, right - font.widthOfTextAtSize(value, size), y, font, size, color);
}

// ---------------------------------------------------------------------------
// The attendee list

const LIST = {
  margin: 40,
  footer: 28,
  rowHeight: 17,
  size: 8.5,
  headSize: 7.5,
};

type Column = { key: "number" | "name" | "company" | "email" | "state" | "checkin"; label: string; width: number };

/** 515 pt between the margins; the check-in column takes a box or a time such as '14 May 09:42'. */
const COLUMNS: Column[] = [
  { key: "number", label: "#", width: 20 },
  { key: "name", label: "Name", width: 146 },
  { key: "company", label: "Company", width: 120 },
  { key: "email", label: "E-mail", width: 118 },
  { key: "state", label: "State", width: 52 },
  { key: "checkin", label: "Check-in", width: 59 },
];
const CELL_PAD = 4;

/** '60 registrations · 40 confirmed · 8 pending · …' for the states present. */
function countsLine(attendees: readonly AttendeePdfRow[], capacity: number | null | undefined): string {
  const counts = new Map<AttendeeStatus, number>();
  for (const row of attendees) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  const parts = [`${attendees.length} ${attendees.length === 1 ? "registration" : "registrations"}`];
  for (const status of ["confirmed", "pending", "waitlisted", "declined", "cancelled"] as const) {
    const n = counts.get(status);
    if (n) parts.push(`${n} ${status === "waitlisted" ? "on the waiting list" : status}`);
  }
  if (capacity) {
    const seats = (counts.get("pending") ?? 0) + (counts.get("confirmed") ?? 0);
    parts.push(`${seats} of ${capacity} places taken`);
  }
  const attended = attendees.filter((row) => asDate(row.attended_at)).length;
  parts.push(`${attended} checked in`);
  // No-break spaces inside each count, so that a wrapped line breaks only between counts.
  return parts.map((part) => part.replaceAll(" ", "\u00a0")).join(" · ");
}

/**
 * An A4 portrait list of the attendees, sorted by name: a header with the meeting and the counts
 * per state, a table (name, company, e-mail, state, a check-in box or the time attended), and
 * 'Page N of M' with the site's name and the generation time at the foot of every page.
 */
export async function attendeeListPdf(input: AttendeeListInput): Promise<Uint8Array> {
  const { meeting, siteName, generatedAt } = input;
  const zone = zoneOf(meeting);
  const doc = await PDFDocument.create();
  const fonts = await embedFonts(doc);
  const title = printableText(meeting.title);
  doc.setTitle(`Attendees: ${title}`);
  doc.setSubject(`${printableText(meeting.dates)}${meeting.place ? `, ${printableText(meeting.place)}` : ""}`);
  doc.setAuthor(printableText(siteName));
  doc.setCreator(printableText(siteName));
  doc.setProducer("pdf-lib");
  doc.setCreationDate(generatedAt);
  doc.setModificationDate(generatedAt);

  const checkinDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: zone });
  const checkinClock = new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: zone,
  });
  const checkinTime = (at: Date) => `${checkinDay.format(at)} ${checkinClock.format(at)}`;
  const generatedText = new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: zone,
  }).format(generatedAt);

  const width = A4.width - 2 * LIST.margin;
  const left = LIST.margin;
  const right = A4.width - LIST.margin;
  const bottom = LIST.margin + LIST.footer;
  const rows = byName(input.attendees);

  const pages: PDFPage[] = [];
  let page!: PDFPage;
  let y = 0;

  const drawColumnHeads = () => {
    page.drawRectangle({ x: left, y: y - LIST.rowHeight, width, height: LIST.rowHeight, color: HEAD_FILL });
    let x = left;
    for (const column of COLUMNS) {
      text(page, column.label.toUpperCase(), x + CELL_PAD, y - 11.5, fonts.bold, LIST.headSize, MUTED);
      x += column.width;
    }
    y -= LIST.rowHeight;
  };

  const newPage = () => {
    page = doc.addPage([A4.width, A4.height]);
    pages.push(page);
    y = A4.height - LIST.margin;
    if (pages.length === 1) {
      text(page, "ATTENDEE LIST", left, y - 9, fonts.bold, 8, ACCENT);
      y -= 14;
      for (const line of wrapText(title, fonts.bold, 16, width, 2)) {
        y -= 19;
        text(page, line, left, y, fonts.bold, 16);
      }
      const where = [printableText(meeting.dates), printableText(meeting.place)].filter(Boolean).join(" · ");
      y -= 15;
      text(page, fitText(where, fonts.regular, 10, width), left, y, fonts.regular, 10, MUTED);
      y -= 4;
      for (const line of wrapText(countsLine(rows, meeting.capacity), fonts.regular, 9, width, 2)) {
        y -= 13;
        text(page, line, left, y, fonts.regular, 9);
      }
      y -= 10;
    } else {
      // Later pages name the meeting on one line, so a loose page is still known.
      const head = fitText(`${title} · attendee list (continued)`, fonts.regular, 9, width);
      text(page, head, left, y - 9, fonts.regular, 9, MUTED);
      y -= 18;
    }
    drawColumnHeads();
  };

  newPage();
  if (rows.length === 0) {
    text(page, "No registrations.", left + CELL_PAD, y - 14, fonts.regular, LIST.size, MUTED);
  }
  rows.forEach((row, index) => {
    if (y - LIST.rowHeight < bottom) newPage();
    const top = y;
    if (index % 2 === 1) {
      page.drawRectangle({ x: left, y: top - LIST.rowHeight, width, height: LIST.rowHeight, color: STRIPE });
    }
    const inactive = row.status === "declined" || row.status === "cancelled" || row.status === "waitlisted";
    const color = inactive ? MUTED : INK;
    const baseline = top - 11.8;
    const attended = asDate(row.attended_at);
    let x = left;
    for (const column of COLUMNS) {
      const inner = column.width - 2 * CELL_PAD;
      const at = x + CELL_PAD;
      switch (column.key) {
        case "number":
          text(page, String(index + 1), at, baseline, fonts.regular, 7.5, FAINT);
          break;
        case "name": {
          // A name is shrunk, then put on two lines, before it is cut: people are found by it.
          const full = printableText(row.name);
          const name = fitLine(full, fonts.bold, LIST.size, 7, inner);
          if (name.text === full) text(page, name.text, at, baseline, fonts.bold, name.size, color);
          else {
            const [first = "", second = ""] = wrapText(full, fonts.bold, 7, inner, 2);
            text(page, first, at, top - 7.3, fonts.bold, 7, color);
            text(page, second, at, top - 14.8, fonts.bold, 7, color);
          }
          break;
        }
        case "company":
          text(
            page,
            fitText(printableText(row.company), fonts.regular, LIST.size, inner),
            at,
            baseline,
            fonts.regular,
            LIST.size,
            color,
          );
          break;
        case "email":
          text(page, fitText(printableText(row.email), fonts.regular, 8, inner), at, baseline, fonts.regular, 8, color);
          break;
        case "state":
          text(
            page,
            fitText(ATTENDEE_STATUS_LABELS[row.status] ?? String(row.status), fonts.regular, 8, inner),
            at,
            baseline,
            fonts.regular,
            8,
            color,
          );
          break;
        case "checkin":
          if (attended) {
            const time = fitLine(checkinTime(attended), fonts.bold, 8, 6.5, inner);
            text(page, time.text, at, baseline, fonts.bold, time.size, INK);
          } else if (!inactive) {
            page.drawRectangle({
              x: at,
              y: top - LIST.rowHeight / 2 - 4.5,
              width: 9,
              height: 9,
              borderColor: INK,
              borderWidth: 0.7,
            });
          } else {
            text(page, "–", at + 2, baseline, fonts.regular, 8, FAINT);
          }
          break;
      }
      x += column.width;
    }
    page.drawLine({
      start: { x: left, y: top - LIST.rowHeight },
      end: { x: right, y: top - LIST.rowHeight },
      thickness: 0.4,
      color: RULE,
    });
    y -= LIST.rowHeight;
  });

  const footLeft = fitText(
    `${printableText(siteName)} · generated ${generatedText}${zone === "UTC" ? " UTC" : ` (${zone})`}`,
    fonts.regular,
    7.5,
    width - 90,
  );
  pages.forEach((each, index) => {
    const footY = LIST.margin - 6;
    each.drawLine({ start: { x: left, y: footY + 12 }, end: { x: right, y: footY + 12 }, thickness: 0.4, color: RULE });
    text(each, footLeft, left, footY, fonts.regular, 7.5, MUTED);
    textRight(each, `Page ${index + 1} of ${pages.length}`, right, footY, fonts.regular, 7.5, MUTED);
  });

  return doc.save();
}

// ---------------------------------------------------------------------------
// Name badges

/** Eight badges of 95 × 65 mm on A4 (2 × 4), the size of the common badge-holder inserts. */
const BADGE = {
  columns: 2,
  rows: 4,
  width: 95 * MM,
  height: 65 * MM,
  pad: 6 * MM,
};

type Line = { text: string; size: number };

/**
 * The name as large as fits: one line when it fits at 18 pt or more (up to 26 pt); otherwise one
 * or two lines (split at the space that balances them), whichever is larger; the last resort is one
 * line at 10 pt cut with an ellipsis.
 */
function fitName(name: string, font: PDFFont, width: number): Line[] {
  const unit = font.widthOfTextAtSize(name, 1);
  const one = unit > 0 ? Math.min(26, Math.floor(width / unit)) : 26;
  if (one >= 18) return [{ text: name, size: one }];
  const words = name.split(" ");
  let two = 0;
  let split: [string, string] | undefined;
  for (let cut = 1; cut < words.length; cut++) {
    const first = words.slice(0, cut).join(" ");
    const second = words.slice(cut).join(" ");
    const widest = Math.max(font.widthOfTextAtSize(first, 1), font.widthOfTextAtSize(second, 1));
    const size = Math.min(20, Math.floor(width / widest));
    if (size > two) {
      two = size;
      split = [first, second];
    }
  }
  if (split && two > one && two >= 10) return split.map((line) => ({ text: line, size: two }));
  if (one >= 10) return [{ text: name, size: one }];
  return [{ text: fitText(name, font, 10, width), size: 10 }];
}

/** The largest size from `max` down to `min` (in half points) at which the text fits, else `min` with an ellipsis. */
function fitLine(value: string, font: PDFFont, max: number, min: number, width: number): Line {
  // Widths scale with the size: one layout answers every size.
  const unit = font.widthOfTextAtSize(value, 1);
  if (unit * max <= width) return { text: value, size: max };
  const size = Math.floor((width / unit) * 2) / 2;
  if (size >= min) return { text: value, size };
  return { text: fitText(value, font, min, width), size: min };
}

/** The company on one line from 12 pt down to 9 pt, else on two lines at 9 pt (cut if longer). */
function companyLines(company: string, font: PDFFont, width: number): Line[] {
  if (!company) return [];
  const one = fitLine(company, font, 12, 9, width);
  if (one.text === company) return [one];
  return wrapText(company, font, 9, width, 2).map((line) => ({ text: line, size: 9 }));
}

function centred(page: PDFPage, line: Line, centre: number, y: number, font: PDFFont, color: Color): void {
  text(page, line.text, centre - font.widthOfTextAtSize(line.text, line.size) / 2, y, font, line.size, color);
}

/**
 * Name badges, eight to an A4 page (2 × 4) with dashed cut lines, sorted by name: the attendee's
 * name large (shrunk to fit), the company below, the meeting's title at the top and the
 * association's name at the foot, small.
 */
export async function badgesPdf(input: BadgesInput): Promise<Uint8Array> {
  const { meeting, siteName } = input;
  const doc = await PDFDocument.create();
  const fonts = await embedFonts(doc);
  const title = printableText(meeting.title);
  const site = printableText(siteName);
  doc.setTitle(`Name badges: ${title}`);
  doc.setAuthor(site);
  doc.setCreator(site);
  doc.setProducer("pdf-lib");

  const gridWidth = BADGE.columns * BADGE.width;
  const gridHeight = BADGE.rows * BADGE.height;
  const originX = (A4.width - gridWidth) / 2;
  const originY = (A4.height - gridHeight) / 2;
  const inner = BADGE.width - 2 * BADGE.pad;
  const perPage = BADGE.columns * BADGE.rows;
  const rows = byName(input.attendees.map((row) => ({ name: row.name, company: row.company })));
  // The title on one line from 9 pt down to 7.5 pt, else on two lines at 7.5 pt.
  const oneHead = fitLine(title, fonts.bold, 9, 7.5, inner);
  const headLines: Line[] =
    oneHead.text === title
      ? [oneHead]
      : wrapText(title, fonts.bold, 7.5, inner, 2).map((line) => ({ text: line, size: 7.5 }));
  const dates = printableText(meeting.dates);
  const footLine = fitLine([site, dates].filter(Boolean).join(" · "), fonts.regular, 7.5, 6, inner);

  const drawCutLines = (page: PDFPage) => {
    const dash = { thickness: 0.5, color: FAINT, dashArray: [3, 3] };
    for (let c = 0; c <= BADGE.columns; c++) {
      const x = originX + c * BADGE.width;
      page.drawLine({ start: { x, y: 0 }, end: { x, y: A4.height }, ...dash });
    }
    for (let r = 0; r <= BADGE.rows; r++) {
      const y = originY + r * BADGE.height;
      page.drawLine({ start: { x: 0, y }, end: { x: A4.width, y }, ...dash });
    }
  };

  let page: PDFPage | undefined;
  rows.forEach((row, index) => {
    const slot = index % perPage;
    if (slot === 0) {
      page = doc.addPage([A4.width, A4.height]);
      drawCutLines(page);
    }
    if (!page) return;
    const column = slot % BADGE.columns;
    const rowIndex = Math.floor(slot / BADGE.columns);
    const x = originX + column * BADGE.width;
    const top = originY + gridHeight - rowIndex * BADGE.height;
    const centre = x + BADGE.width / 2;

    // A band of colour at the top with the meeting's title.
    const band = 11 * MM;
    page.drawRectangle({ x: x + 0.6, y: top - band, width: BADGE.width - 1.2, height: band - 0.6, color: ACCENT });
    let headBaseline = top - band / 2 + ((headLines.length - 1) * 9) / 2 - (headLines[0]?.size ?? 9) * 0.35;
    for (const line of headLines) {
      centred(page, line, centre, headBaseline, fonts.bold, rgb(1, 1, 1));
      headBaseline -= 9;
    }

    // The name and the company share the space between the band and the foot line, centred in it.
    const name = fitName(printableText(row.name), fonts.bold, inner);
    const company = companyLines(printableText(row.company), fonts.regular, inner);
    const lineGap = (size: number) => size * 1.15;
    const nameHeight = name.reduce((sum, line) => sum + lineGap(line.size), 0);
    const companyHeight = company.length ? 4 + company.reduce((sum, line) => sum + lineGap(line.size), 0) : 0;
    const spaceTop = top - band;
    const spaceBottom = top - BADGE.height + 10 * MM;
    let baseline = (spaceTop + spaceBottom) / 2 + (nameHeight + companyHeight) / 2;
    for (const line of name) {
      baseline -= lineGap(line.size);
      centred(page, line, centre, baseline + line.size * 0.25, fonts.bold, INK);
    }
    if (company.length) baseline -= 4;
    for (const line of company) {
      baseline -= lineGap(line.size);
      centred(page, line, centre, baseline + line.size * 0.25, fonts.regular, MUTED);
    }

    centred(page, footLine, centre, top - BADGE.height + 5 * MM, fonts.regular, MUTED);
  });
  if (!page) {
    page = doc.addPage([A4.width, A4.height]);
    drawCutLines(page);
  }
  return doc.save();
}
