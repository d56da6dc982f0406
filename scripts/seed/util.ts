/** Small helpers shared by the demo content loader. */

const DAY_MS = 86_400_000;

/** Lowercase, hyphenated, ASCII-only slug of a title. */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .replace(/-{2,}/g, "-");
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
};

/** Plain text of an HTML fragment: tags removed, entities decoded, whitespace collapsed. */
export function stripHtml(html: string): string {
  return html
    .replace(/<\/(p|h2|h3|li|blockquote|ul|ol)>/gi, " ")
    .replace(/<br\s*\/?>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#\d+|[a-z]+);/gi, (match, name: string) => {
      if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
      return ENTITIES[name.toLowerCase()] ?? match;
    })
    .replace(/\s+/g, " ")
    .trim();
}

/** Escapes text for use inside HTML or XML. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** Wraps paragraphs of plain text in <p> elements (text is trusted demo copy). */
export function paragraphs(...items: string[]): string {
  return items.map((text) => (text.startsWith("<") ? text : `<p>${text}</p>`)).join("\n");
}

/** YYYY-MM-DD of a date in UTC. */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** Midnight UTC of the given day. */
export function startOfDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/** The first day of the month `offset` months away from `date` (UTC). */
export function monthStart(date: Date, offset = 0): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1));
}

/** The n-th (1-based) given weekday (0 = Sunday) of the month that starts at `first`. */
export function nthWeekday(first: Date, weekday: number, n: number): Date {
  const shift = (weekday - first.getUTCDay() + 7) % 7;
  return addDays(first, shift + (n - 1) * 7);
}

/**
 * Moves a date forward to the next Tuesday, Wednesday or Thursday (unchanged
 * when it is one), skipping the holidays from 20 December to 6 January.
 */
export function toMidweek(date: Date): Date {
  let result = startOfDay(date);
  const month = result.getUTCMonth();
  const day = result.getUTCDate();
  if (month === 11 && day >= 20) result = new Date(Date.UTC(result.getUTCFullYear() + 1, 0, 7));
  else if (month === 0 && day < 7) result = new Date(Date.UTC(result.getUTCFullYear(), 0, 7));
  while (![2, 3, 4].includes(result.getUTCDay())) result = addDays(result, 1);
  return result;
}

/** A date at the given UTC time of day. */
export function atTime(day: Date, hours: number, minutes: number): Date {
  const start = startOfDay(day);
  return new Date(start.getTime() + (hours * 60 + minutes) * 60_000);
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

export function monthName(date: Date): string {
  return MONTHS[date.getUTCMonth()];
}

/** "12 May 2027" */
export function longDate(date: Date): string {
  return `${date.getUTCDate()} ${monthName(date)} ${date.getUTCFullYear()}`;
}

/** "12–15 May 2027", "29 April – 2 May 2027", or one day when both are equal. */
export function dateRange(start: Date, end: Date): string {
  if (isoDate(start) === isoDate(end)) return longDate(start);
  if (start.getUTCFullYear() !== end.getUTCFullYear()) return `${longDate(start)} – ${longDate(end)}`;
  if (start.getUTCMonth() !== end.getUTCMonth()) {
    return `${start.getUTCDate()} ${monthName(start)} – ${longDate(end)}`;
  }
  return `${start.getUTCDate()}–${longDate(end)}`;
}

/** Deterministic pseudo-random numbers (mulberry32), so generated art is stable per index. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable 32-bit hash of a string, to seed `random`. */
export function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** Runs `fn` over `items` with at most `limit` calls in flight; results keep the input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
