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
