import { countryName } from "../../lib/countries";
import { escapeHtml } from "../../lib/html";
import { COMPANY_SEARCH_KIND, companyUrl } from "./members.values";

/**
 * A member company's entry in the site search (decision 0046): its name, country, products,
 * website and description, found at its directory page. Every company has one, current or not:
 * whether it is found is decided when the search runs (core/services.ts `shownWhen`), so a lapse
 * needs no write to the index.
 */
export function companySearchEntry(company: {
  id: number;
  slug: string;
  name: string;
  country: string;
  website: string | null;
  description: string;
  products: string[];
}) {
  const facts = [countryName(company.country) ?? company.country, company.products.join(", "), company.website ?? ""]
    .filter(Boolean)
    .map((fact) => `<p>${escapeHtml(fact)}</p>`)
    .join("");
  return {
    kind: COMPANY_SEARCH_KIND,
    refId: company.id,
    url: companyUrl(company.slug),
    title: company.name,
    html: `${facts}${company.description}`,
  };
}
