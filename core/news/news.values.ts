/**
 * The news area's plain values and helpers: no Zod, so that public pages can
 * link to posts and name months without loading it (decision 0028).
 * news.schema.ts re-exports them.
 */
/** SPEC §3 'Date filters': month-year strings, here MM-YYYY (e.g. 11-2026). */
export const MONTH_FILTER = /^(0[1-9]|1[0-2])-(\d{4})$/;
export const NEWS_PER_PAGE = 9;

/** "11-2026" → the UTC half-open range [2026-11-01, 2026-12-01). */
export function monthRange(filter: string): { from: string; to: string } {
  const [, month, year] = MONTH_FILTER.exec(filter) ?? [];
  const m = Number(month);
  const y = Number(year);
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
  return { from: `${y}-${month}-01`, to: `${next}-01` };
}

/** "2026-11" (as stored) → "11-2026" (as filtered). */
export function monthFilterOf(yearMonth: string): string {
  return `${yearMonth.slice(5, 7)}-${yearMonth.slice(0, 4)}`;
}

// One formatter for all labels: toLocaleDateString builds a new one per call (about 90 times slower).
const MONTH_FORMAT = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });

// The archive lists every month with posts (a hundred and more) on each render of /news: formatted once each.
const MONTH_NAMES = new Map<string, string>();

export function monthLabel(filter: string, now = new Date()): string {
  const current = `${String(now.getUTCMonth() + 1).padStart(2, "0")}-${now.getUTCFullYear()}`;
  if (filter === current) return "This month";
  let name = MONTH_NAMES.get(filter);
  if (name === undefined) {
    name = MONTH_FORMAT.format(new Date(`${monthRange(filter).from}T00:00:00Z`));
    // Filters come from the URL too: the map holds at most a few centuries of months.
    if (MONTH_NAMES.size < 5000) MONTH_NAMES.set(filter, name);
  }
  return name;
}

/** A post's address on the site: the one place that knows news lives under /post/. */
export function postUrl(slug: string): string {
  return `/post/${slug}`;
}
