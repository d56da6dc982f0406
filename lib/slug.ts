import transliterate from "@sindresorhus/transliterate";
import { cleanTitle } from "./text";

const SLUG_LENGTH = 80;

/** FNV-1a (32 bit) in base 36: short, stable across processes and versions, browser-safe. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36).padStart(7, "0");
}

/**
 * A URL slug from a title: transliterated where a mapping exists (Cyrillic,
 * Greek, accented Latin, …), lowercase ASCII words joined by hyphens. A title
 * with nothing to transliterate (emoji, punctuation) gets `<prefix>-<hash>`,
 * the same for the same title, rather than a bare `post`.
 */
export function slugify(title: string, prefix = "post"): string {
  const clean = cleanTitle(title);
  const slug = transliterate(clean)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_LENGTH)
    .replace(/-+$/g, "");
  return slug || `${prefix}-${shortHash(clean)}`;
}

/**
 * Inserts tried for one row when another write takes its slug first; past the first few, the slug
 * gets a random suffix, so that concurrent creates with one title end in distinct slugs well within
 * this bound.
 */
export const SLUG_ATTEMPTS = 8;
const NUMBERED_ATTEMPTS = 3;

/** The slug a new row gets: its base if free, else the next free number, else (under contention) a random suffix. */
export async function freeSlug(
  slugsLike: (base: string) => Promise<string[]>,
  base: string,
  attempt: number,
): Promise<string> {
  if (attempt >= NUMBERED_ATTEMPTS) return `${base}-${Math.random().toString(36).slice(2, 8)}`;
  const taken = new Set(await slugsLike(base));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
