/**
 * `Content-Disposition` (attachment or inline) for a file name we make ourselves (RFC 6266):
 * `filename*=UTF-8''…` for browsers, a plain ASCII `filename="…"` fallback for
 * the rest. Control characters (CR, LF: header injection), quotes, backslashes
 * and path separators never reach the header.
 */
export function contentDisposition(type: "attachment" | "inline", name: string): string {
  const clean =
    name
      .normalize("NFC")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
      .replace(/[\u0000-\u001f\u007f-\u009f"\\/:*?<>|]+/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .replace(/^\.+/, "")
      .slice(0, 150)
      .trim() || "download";
  const ascii =
    clean
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^\x20-\x7e]+/g, "_")
      .replace(/[%';]/g, "_") || "download";
  const encoded = encodeURIComponent(clean).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
