import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { inflateSync } from "node:zlib";
import fontkit from "@pdf-lib/fontkit";
import { PDFDict, PDFDocument, PDFName, PDFRawStream, StandardFonts } from "pdf-lib";
import { extractText, getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type AttendeePdfRow,
  type AttendeeStatus,
  attendeeListPdf,
  badgesPdf,
  fitText,
  printableText,
  wrapText,
} from "../../core/meetings/attendee-pdf";

const LONG_COMPANY =
  "Nordisk Maritim Elektronikk og Navigasjonssystemer Aktieselskap, avdeling for Satellittkommunikasjon og Radar";

/** Attendees of a real conference: many countries, their own spellings, one very long company. */
const PEOPLE: [string, string][] = [
  ["Łukasz Wróblewski", "Morska Elektronika Sp. z o.o."],
  ["Ζωή Παπαδοπούλου", "Aegean Marine Systems"],
  ["Erdős Bálint", "Dunai Hajózási Kft."],
  ["Søren Kierkegaard-Østergaard", LONG_COMPANY],
  ["Jürgen Müller", "Hanse Navigation GmbH"],
  ["Ólafur Þórðarson", "Reykjavík Radio ehf."],
  ["Nguyễn Thị Hương", "Saigon Ship Electronics"],
  ["Şebnem Çağlar", "Boğaziçi Denizcilik A.Ş."],
  ["Дмитрий Иванов", "Балтийская навигация"],
  ["Ørjan Dæhlie", "Bergen Sonar AS"],
  ["François Lefèvre", "Électronique Navale de Bretagne"],
  ["José María Núñez", "Náutica Ibérica S.L."],
  ["Małgorzata Szczęsna", "Gdańsk Marine Tech"],
  ["Václav Dvořák", "Vltava Instruments s.r.o."],
  ["Ioana Bălănescu", "Constanța Port Systems"],
  ["Jānis Bērziņš", "Rīgas Jūras Elektronika"],
  ["Gintarė Žukauskienė", "Klaipėdos laivų sistemos"],
  ["Mārtiņš Ozoliņš", "Baltic Radar SIA"],
  ["Αλέξανδρος Κωνσταντίνου", "Πειραιάς Ναυτιλιακή"],
  ["Zoë Brontë-O'Connor", "Cork Harbour Electronics"],
  ["Maximilian Alexander von Hohenzollern-Sigmaringen", "Bodensee Schiffselektronik GmbH"],
];

const FIRST = ["Anna", "Ben", "Carla", "David", "Eva", "Frank", "Greta", "Hugo", "Ida", "Jonas"];
const LAST = ["Andersen", "Berg", "Costa", "Dahl", "Evans", "Fischer", "García", "Hansen", "Iversen", "Jensen"];
const STATES: AttendeeStatus[] = [
  "confirmed",
  "confirmed",
  "confirmed",
  "pending",
  "waitlisted",
  "declined",
  "cancelled",
];

function attendees(): AttendeePdfRow[] {
  const rows: AttendeePdfRow[] = PEOPLE.map(([name, company], i) => ({
    name,
    company,
    email: `attendee${i}@example.org`,
    status: STATES[i % STATES.length] as AttendeeStatus,
    attended_at:
      i % 3 === 0 && STATES[i % STATES.length] === "confirmed" ? new Date(Date.UTC(2027, 4, 12, 7, i)) : null,
  }));
  for (let i = 0; rows.length < 60; i++) {
    const name = `${FIRST[i % 10]} ${LAST[Math.floor(i / 10) % 10]}`;
    rows.push({
      name,
      company: i % 9 === 4 ? null : `${LAST[(i * 3) % 10]} Marine AS`,
      email: `${name.toLowerCase().replace(/[^a-z]+/g, ".")}.with.a.rather.long.address@shipyard-electronics.example.com`,
      status: STATES[(i + 2) % STATES.length] as AttendeeStatus,
      // attended_at as the database gives it back: an ISO string.
      attended_at:
        i % 4 === 0 && STATES[(i + 2) % STATES.length] === "confirmed"
          ? new Date(Date.UTC(2027, 4, 12, 8, i)).toISOString()
          : null,
    });
  }
  return rows;
}

const MEETING = {
  title: "Annual Conference 2027: Autonomous Navigation, Satellite Links and the Future of the Bridge",
  dates: "12–14 May 2027",
  place: "Gdańsk, Poland",
  timeZone: "Europe/Warsaw",
  capacity: 80,
};
const SITE = "International Association of Marine Electronics Companies";

async function read(bytes: Uint8Array): Promise<{ pages: string[]; count: number }> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { totalPages, text } = await extractText(pdf, { mergePages: false });
  return { pages: text, count: totalPages };
}

/**
 * With ATTENDEE_PDF_OUT set, the PDFs are also written there to be looked at (e.g. pdftoppm -png);
 * the layout was checked that way, which reading the text back cannot do.
 */
async function keep(name: string, bytes: Uint8Array): Promise<void> {
  const dir = process.env.ATTENDEE_PDF_OUT;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, name), bytes);
}

/** The extracted text without the spaces pdf.js inserts between drawn runs. */
const squeeze = (text: string) => text.replace(/\s+/g, "");

describe("the attendee list PDF (issue 32)", () => {
  const rows = attendees();
  let bytes: Uint8Array;
  let text: { pages: string[]; count: number };

  beforeAll(async () => {
    bytes = await attendeeListPdf({
      meeting: MEETING,
      siteName: SITE,
      generatedAt: new Date(Date.UTC(2027, 4, 11, 15, 30)),
      attendees: rows,
    });
    text = await read(bytes);
    await keep("attendee-list.pdf", bytes);
  });

  it("is A4 portrait, paginated, with 'Page N of M' on every page", async () => {
    // 60 rows of 17 pt: 39 fit under the first page's header, the other 21 on a second page.
    expect(text.count).toBe(2);
    const doc = await PDFDocument.load(bytes);
    for (const page of doc.getPages()) {
      expect(page.getWidth()).toBeCloseTo(595.28, 1);
      expect(page.getHeight()).toBeCloseTo(841.89, 1);
    }
    expect(text.pages[0]).toContain("Page 1 of 2");
    expect(text.pages[1]).toContain("Page 2 of 2");
  });

  it("prints every attendee's name whole, in any script the font covers", () => {
    const all = squeeze(text.pages.join(" "));
    for (const row of rows) expect(all).toContain(squeeze(row.name));
    expect(all).toContain("ŁukaszWróblewski");
    expect(all).toContain("ΖωήΠαπαδοπούλου");
    expect(all).toContain("Дмитрий");
  });

  it("sorts by name", () => {
    const all = squeeze(text.pages.join(" "));
    const sorted = [...rows.map((row) => row.name)].sort(new Intl.Collator("en", { sensitivity: "base" }).compare);
    const positions = sorted.map((name) => all.indexOf(squeeze(name)));
    expect(positions.every((at) => at >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it("heads the first page with the meeting, its place and the counts per state", () => {
    // The counts may take two lines; pdf.js gives a line break where the line breaks.
    const first = (text.pages[0] ?? "").replace(/\s+/g, " ");
    expect(first).toContain("ATTENDEE LIST");
    expect(first).toContain("Gdańsk, Poland");
    const counts = rows.reduce<Record<string, number>>((acc, row) => {
      acc[row.status] = (acc[row.status] ?? 0) + 1;
      return acc;
    }, {});
    expect(first).toContain(`60 registrations · ${counts.confirmed} confirmed · ${counts.pending} pending`);
    expect(first).toContain(`${counts.waitlisted} on the waiting list`);
    const seats = (counts.confirmed ?? 0) + (counts.pending ?? 0);
    expect(first).toContain(`${seats} of 80 places taken`);
    const checkedIn = rows.filter((row) => row.attended_at).length;
    expect(first).toContain(`${checkedIn} checked in`);
  });

  it("shows the time attended in the meeting's zone", () => {
    // Łukasz checked in at 07:00 UTC, 09:00 in Warsaw (summer time).
    expect(text.pages.join(" ")).toContain("12 May 09:00");
  });

  it("shortens the long company name and long e-mails with an ellipsis instead of overflowing", () => {
    const all = text.pages.join(" ");
    expect(all).not.toContain(LONG_COMPANY);
    expect(squeeze(all)).toContain(squeeze("Nordisk Maritim"));
    expect(all).toContain("…");
  });
});

/** The glyph counts of the TrueType fonts embedded in the PDF. */
async function embeddedGlyphCounts(bytes: Uint8Array): Promise<number[]> {
  const doc = await PDFDocument.load(bytes);
  const counts: number[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    const file = object.get(PDFName.of("FontFile2"));
    if (!file) continue;
    const stream = doc.context.lookup(file);
    if (stream instanceof PDFRawStream) counts.push(fontkit.create(inflateSync(stream.contents)).numGlyphs);
  }
  return counts;
}

describe("the embedded fonts", () => {
  it("are whole: pdf-lib's subsetting prints most letters of Noto Sans blank", async () => {
    const bytes = await attendeeListPdf({
      meeting: MEETING,
      siteName: SITE,
      generatedAt: new Date(),
      attendees: [{ name: "Łukasz Wróblewski", company: "Morska", email: "l@example.org", status: "confirmed" }],
    });
    const counts = await embeddedGlyphCounts(bytes);
    expect(counts).toHaveLength(2);
    for (const count of counts) expect(count).toBeGreaterThan(4000);
  });
});

describe("name badges (issue 32)", () => {
  const rows = attendees();
  let text: { pages: string[]; count: number };

  beforeAll(async () => {
    const bytes = await badgesPdf({ meeting: MEETING, siteName: SITE, attendees: rows });
    text = await read(bytes);
    await keep("badges.pdf", bytes);
  });

  it("puts eight badges on a page", () => {
    expect(text.count).toBe(Math.ceil(60 / 8));
  });

  it("prints every attendee's name whole and company, the meeting and the association", () => {
    const all = squeeze(text.pages.join(" "));
    for (const row of rows) {
      expect(all).toContain(squeeze(row.name));
      if (row.company && row.company !== LONG_COMPANY) expect(all).toContain(squeeze(row.company));
    }
    expect(all).toContain("ŁukaszWróblewski");
    expect(all).toContain("ΖωήΠαπαδοπούλου");
    expect(all).toContain(squeeze(SITE));
    expect(all).toContain(squeeze("Annual Conference 2027"));
  });

  it("makes a page even with no attendees", async () => {
    const empty = await read(await badgesPdf({ meeting: MEETING, siteName: SITE, attendees: [] }));
    expect(empty.count).toBe(1);
  });
});

describe("text the font cannot print", () => {
  it("keeps Latin, Greek, Cyrillic and Vietnamese as written", () => {
    for (const name of ["Łukasz Wróblewski", "Ζωή Παπαδοπούλου", "Дмитрий Иванов", "Nguyễn Thị Hương", "Erdős"]) {
      expect(printableText(name)).toBe(name);
    }
  });

  it("composes decomposed accents and flattens line breaks and control characters", () => {
    expect(printableText("Jose\u0301\nMari\u0301a\u0000")).toBe("José María");
  });

  it("transliterates a script without glyphs where it can, else shows '?', never throws", () => {
    expect(printableText("محمد علي")).toBe("mhmd ely");
    expect(printableText("王小明 (Wang)")).toBe("??? (Wang)");
  });

  it("fits text to a width with an ellipsis", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    expect(fitText("Short", font, 10, 100)).toBe("Short");
    const cut = fitText(LONG_COMPANY, font, 10, 100);
    expect(cut.endsWith("…")).toBe(true);
    expect(font.widthOfTextAtSize(cut, 10)).toBeLessThanOrEqual(100);
  });

  it("wraps text into at most the lines given, the last one cut", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    expect(wrapText("Cork Harbour Electronics", font, 10, 500, 2)).toEqual(["Cork Harbour Electronics"]);
    const lines = wrapText(LONG_COMPANY, font, 10, 150, 2);
    expect(lines).toHaveLength(2);
    expect(LONG_COMPANY.startsWith(`${lines[0]} `)).toBe(true);
    expect(lines[1]?.endsWith("…")).toBe(true);
    for (const line of lines) expect(font.widthOfTextAtSize(line, 10)).toBeLessThanOrEqual(150);
    // A word wider than a line is cut, and the line count still holds.
    const narrow = wrapText("Aktieselskapsavdelingen for Satellittkommunikasjon og Radar", font, 10, 60, 3);
    expect(narrow).toHaveLength(3);
    for (const line of narrow) expect(font.widthOfTextAtSize(line, 10)).toBeLessThanOrEqual(60);
  });
});
