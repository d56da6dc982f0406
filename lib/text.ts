/**
 * C0 and C1 controls (NUL, escape, …) and the bidirectional formatting
 * characters (LRE…RLO U+202A–U+202E, isolates U+2066–U+2069, LRM/RLM): none
 * belongs in a title, and an override can make a title read as something else.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNWANTED = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A title or name as stored: NFC (so 'Café' typed precomposed or decomposed is
 * one string), without controls or bidi overrides, white space (tabs, line breaks) made single spaces, trimmed.
 */
export function cleanTitle(value: string): string {
  return value.normalize("NFC").replace(/\s+/g, " ").replace(UNWANTED, "").replace(/ {2,}/g, " ").trim();
}

/**
 * Whether some HTML shows anything: text outside its tags, or an image. Browser-safe, for schemas
 * and forms; the service decides again on the sanitized HTML (`hasContent` in lib/html), where
 * `<script>x</script>` counts as nothing.
 */
export function showsSomething(html: string): boolean {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;|&#160;|&#xa0;/gi, " ")
    .trim();
  return text.length > 0 || /<img\s/i.test(html);
}

/**
 * Plain text of several lines (a description), cleaned as `cleanTitle` cleans each line: line
 * breaks of any kind become "\n", no more than one blank line in a row, trimmed.
 */
export function cleanLines(value: string): string {
  return value
    .split(/\r\n|\r|\n/)
    .map(cleanTitle)
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
