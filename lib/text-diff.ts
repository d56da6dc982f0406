import { diffWordsWithSpace } from "diff";
import { htmlToText } from "./html";

/**
 * What changed in a field between two saves, word by word (jsdiff, the kept diff library; decision
 * 0073). Rich text is compared as the text a reader sees, block by block on lines of their own, so
 * that a diff says "this sentence changed" rather than "this tag moved"; a change that leaves the
 * text alone says it changed the formatting.
 */
export type DiffPart = { value: string; added?: boolean; removed?: boolean };
export type FieldDiff = { parts: DiffPart[]; formatting_only: boolean };

/** Rich text as lines of text: one per paragraph, heading, list item or line break. */
export function htmlToLines(html: string): string {
  return html
    .split(/<\/(?:p|h[1-6]|li|blockquote|pre|div|tr)>|<br\s*\/?>/i)
    .map(htmlToText)
    .filter((line) => line.length > 0)
    .join("\n");
}

/** The difference from `before` to `after`; null when the field did not change at all. */
export function fieldDiff(before: string | null, after: string | null, rich: boolean): FieldDiff | null {
  const from = before ?? "";
  const to = after ?? "";
  if (from === to) return null;
  const a = rich ? htmlToLines(from) : from;
  const b = rich ? htmlToLines(to) : to;
  if (a === b) return { parts: [{ value: b }], formatting_only: true };
  const parts = diffWordsWithSpace(a, b).map((part) => ({
    value: part.value,
    ...(part.added ? { added: true } : {}),
    ...(part.removed ? { removed: true } : {}),
  }));
  return { parts, formatting_only: false };
}
