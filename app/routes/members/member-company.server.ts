import type { MemberCompany } from "../../../core/members/members.schema";
import { companyUrl } from "../../../core/members/members.values";
import { htmlToText } from "../../../lib/html";
import { scriptJson } from "../../components/ui/json-ld";
import { absoluteUrl } from "../../lib/seo";

/** Rich text as one line of text; inline tags go without a space, so "<strong>fleets</strong>." stays "fleets.". */
function plainText(html: string): string {
  return htmlToText(html.replace(/<\/?(a|b|strong|i|em|u|s|span|code|mark|sub|sup)\b[^>]*>/gi, ""));
}

/**
 * schema.org Organization for a company's page: the company with its website, logo, country and
 * products, and its membership of the association.
 */
export function companyJsonLd(company: MemberCompany, options: { origin: string; siteName: string }) {
  const page = `${options.origin}${companyUrl(company.slug)}`;
  const description = plainText(company.description);
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    "@id": `${page}#organization`,
    name: company.name,
    mainEntityOfPage: page,
    ...(company.website ? { url: company.website, sameAs: [company.website] } : {}),
    ...(company.logo ? { logo: absoluteUrl(options.origin, company.logo) } : {}),
    ...(description ? { description } : {}),
    address: { "@type": "PostalAddress", addressCountry: company.country },
    ...(company.products.length > 0 ? { knowsAbout: company.products } : {}),
    memberOf: { "@type": "Organization", name: options.siteName, url: options.origin },
  };
}

/** What a company's page shows beside the company: its JSON-LD (escaped for a script) and its meta description. */
export function companyView(company: MemberCompany, options: { origin: string; siteName: string }) {
  const text = plainText(company.description);
  const facts = [company.country_name, ...company.products].join(", ");
  return {
    jsonLd: scriptJson(companyJsonLd(company, options)),
    description: (text || `${company.name}: a member company of ${options.siteName} (${facts}).`).slice(0, 158),
  };
}
