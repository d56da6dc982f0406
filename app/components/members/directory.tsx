import { Search } from "lucide-react";
import { Form, Link } from "react-router";
import type { MemberCompany } from "../../../core/members/members.schema";
import { companyUrl, type MembershipType } from "../../../core/members/members.values";
import { uploadedImageSrcSet } from "../../../lib/image-variants";

export type DirectoryFilter = { search: string; country: string; type: MembershipType | ""; product: string };
export type DirectoryChoices = {
  countries: { code: string; name: string }[];
  products: { tag: string; name: string }[];
};

/** The directory's answer to a filter it cannot read (422), e.g. ?type=gold. */
export const FILTER_REFUSED =
  "That filter is not valid: choose a country, a membership type or a product from the lists.";

export const TYPE_LABELS: Record<MembershipType, string> = { full: "Full member", associate: "Associate member" };

/** The directory's address for a filter and a page, without empty parameters. */
export function directoryQuery(filter: DirectoryFilter, page?: number): string {
  const params = new URLSearchParams();
  if (filter.search) params.set("q", filter.search);
  if (filter.country) params.set("country", filter.country);
  if (filter.type) params.set("type", filter.type);
  if (filter.product) params.set("product", filter.product);
  if (page && page > 1) params.set("page", String(page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** A company's logo in a box of fixed size (no layout shift), or nothing when it has none. */
export function CompanyLogo({
  company,
  sizes,
  className,
  priority = false,
}: {
  company: Pick<MemberCompany, "name" | "logo">;
  sizes: string;
  className: string;
  priority?: boolean;
}) {
  if (!company.logo) return null;
  return (
    <img
      src={company.logo}
      srcSet={uploadedImageSrcSet(company.logo) ?? undefined}
      sizes={sizes}
      alt={`${company.name} logo`}
      width={320}
      height={160}
      loading={priority ? "eager" : "lazy"}
      decoding="async"
      className={className}
    />
  );
}

/**
 * The directory's filters: one GET form, so the filter lives in the URL and works without
 * JavaScript; the choices are the countries and products of current companies.
 */
export function DirectoryFilterForm({ filter, choices }: { filter: DirectoryFilter; choices: DirectoryChoices }) {
  const filtered = Boolean(filter.search || filter.country || filter.type || filter.product);
  // A product asked for by its URL stays chosen even when it is not among the most listed ones.
  const products =
    filter.product && !choices.products.some((p) => p.tag === filter.product.toLowerCase())
      ? [...choices.products, { tag: filter.product.toLowerCase(), name: filter.product }]
      : choices.products;
  return (
    <Form
      method="get"
      action="/members-list"
      role="search"
      aria-label="Filter the member companies"
      className="grid gap-3 rounded-xl bg-navy-50 p-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))_auto] lg:items-end"
    >
      <div>
        <label htmlFor="members-q" className="field-label">
          Company or product
        </label>
        <input
          id="members-q"
          type="search"
          name="q"
          defaultValue={filter.search}
          className="field-input"
          placeholder="e.g. Marine or ECDIS"
        />
      </div>
      <div>
        <label htmlFor="members-country" className="field-label">
          Country
        </label>
        <select id="members-country" name="country" defaultValue={filter.country} className="field-input">
          <option value="">All countries</option>
          {choices.countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="members-type" className="field-label">
          Membership
        </label>
        <select id="members-type" name="type" defaultValue={filter.type} className="field-input">
          <option value="">All types</option>
          {Object.entries(TYPE_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="members-product" className="field-label">
          Product
        </label>
        <select id="members-product" name="product" defaultValue={filter.product.toLowerCase()} className="field-input">
          <option value="">All products</option>
          {products.map((p) => (
            <option key={p.tag} value={p.tag}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <div className="flex gap-2 sm:col-span-2 lg:col-span-1">
        <button type="submit" className="btn-primary">
          <Search className="h-4 w-4" aria-hidden="true" />
          Filter
        </button>
        {filtered ? (
          <Link to="/members-list" className="btn-outline">
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/** A company in the directory: logo, name (the link to its page), country, type and products. */
export function CompanyCard({ company, priority }: { company: MemberCompany; priority: boolean }) {
  return (
    <article className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-5 transition hover:shadow-lg">
      <div className="flex h-24 items-center justify-center rounded-lg bg-slate-50 p-3">
        <CompanyLogo
          company={company}
          sizes="160px"
          priority={priority}
          className="max-h-full w-auto max-w-full object-contain"
        />
      </div>
      <h2 className="mt-4 leading-snug font-semibold text-navy-900">
        <Link to={companyUrl(company.slug)} className="after:absolute after:inset-0 hover:underline">
          {company.name}
        </Link>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {company.country_name} · {TYPE_LABELS[company.membership_type]} · since {company.member_since.slice(0, 4)}
      </p>
      {company.products.length > 0 ? (
        <ul aria-label="Products" className="mt-3 flex flex-wrap gap-1.5">
          {company.products.map((product) => (
            <li key={product} className="rounded-full bg-navy-50 px-2.5 py-0.5 text-xs font-medium text-navy-900">
              {product}
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}
