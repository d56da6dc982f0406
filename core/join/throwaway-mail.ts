import { createRequire } from "node:module";

/**
 * Throwaway e-mail services (decision 0077): the kept list of the `mailchecker` package (about
 * 56 000 domains, 1 MB of source). Server only: the list is far too large for the browser. Read
 * on first use, so that a process that never receives a join request never holds it.
 */
let domains: Set<string> | null = null;

function throwawayDomains(): Set<string> {
  if (!domains) {
    // A CommonJS module whose types declare named exports Node does not see: read through require.
    const mailchecker = createRequire(import.meta.url)("mailchecker") as typeof import("mailchecker");
    domains = mailchecker.blacklist();
  }
  return domains;
}

/**
 * Whether the address is at a throwaway service's domain or one of its subdomains
 * (`x@mailinator.com`, `x@anything.mailinator.com`).
 */
export function isThrowawayAddress(email: string): boolean {
  const at = email.lastIndexOf("@");
  if (at < 0) return false;
  const list = throwawayDomains();
  let domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, "");
  while (domain.includes(".")) {
    if (list.has(domain)) return true;
    domain = domain.slice(domain.indexOf(".") + 1);
  }
  return list.has(domain);
}
