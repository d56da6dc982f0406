/**
 * Whether an If-None-Match header names one of `etags`: "*", or any tag of its list, compared
 * weakly (RFC 9110 §13.1.2: a W/ prefix does not matter for If-None-Match).
 */
export function ifNoneMatchNames(header: string | undefined, etags: readonly string[]): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => etags.includes(tag.trim().replace(/^W\//, "")));
}

/**
 * The ETags of one content in each encoding a stored body is sent in: the bytes differ, so each
 * has its own (RFC 9110 §8.8.3), and all share the content's digest.
 */
export function encodingEtags(digest: string): { identity: string; br: string; gzip: string } {
  return { identity: `"${digest}"`, br: `"${digest}-br"`, gzip: `"${digest}-gz"` };
}
