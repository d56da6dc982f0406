import { ExternalLink } from "lucide-react";
import { data, Link } from "react-router";
import { companyUrl } from "../../../core/members/members.values";
import { isAppError } from "../../../lib/errors";
import { PageHero } from "../../components/layout/page-hero";
import { CompanyLogo, TYPE_LABELS } from "../../components/members/directory";
import { Breadcrumbs } from "../../components/ui/breadcrumbs";
import { JsonLd } from "../../components/ui/json-ld";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import type { Route } from "./+types/member-company";
import { companyView } from "./member-company.server";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = { ...SHARED_WHEN_SIGNED_IN, ...SERVED_AS_ISLANDS };

/** A current member company's page; a lapsed, suspended or left one (or none) is the site's 404. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { services, origin } = getRequestContext(context);
  try {
    const [company, settings] = await Promise.all([services.members.bySlug(params.slug), services.settings.getAll()]);
    return { company, ...companyView(company, { origin, siteName: settings["site.name"] }) };
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw data("This page could not be found", { status: 404 });
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  if (!loaderData) return [];
  const { company, description } = loaderData;
  return seoMeta({
    matches,
    title: company.name,
    description,
    path: companyUrl(company.slug),
    image: company.logo,
    imageAlt: company.logo ? `${company.name} logo` : undefined,
  });
};

/** "1 March 2004" for a member-since day. */
function formatDay(day: string): string {
  return new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

export default function MemberCompanyPage({ loaderData }: Route.ComponentProps) {
  const { company, jsonLd } = loaderData;
  const host = company.website?.replace(/^https?:\/\//, "").replace(/\/$/, "");
  return (
    <div>
      <JsonLd json={jsonLd} />
      <div className="border-b border-slate-200 bg-white">
        <div className="mx-auto max-w-7xl px-4 py-3 sm:px-6">
          <Breadcrumbs trail={[{ label: "List of Members", to: "/members-list" }]} current={company.name} />
        </div>
      </div>
      <PageHero eyebrow={TYPE_LABELS[company.membership_type]} title={company.name}>
        <p className="mt-4 text-lg text-navy-100">{company.country_name}</p>
      </PageHero>
      <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div>
          <h2 className="font-display text-2xl font-bold text-navy-900">About the company</h2>
          {company.description ? (
            <div
              className="rich-text mt-4 max-w-3xl"
              // Sanitized on write and again on read by the members service.
              // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized server-side
              dangerouslySetInnerHTML={{ __html: company.description }}
            />
          ) : (
            <p className="mt-4 text-slate-700">
              {company.name} has not written a description yet
              {company.website ? "; its website tells more." : "."}
            </p>
          )}
        </div>
        <aside aria-label="Company details" className="space-y-6">
          {company.logo ? (
            <div className="flex h-40 items-center justify-center rounded-xl border border-slate-200 bg-white p-6">
              <CompanyLogo
                company={company}
                sizes="256px"
                priority
                className="max-h-full w-auto max-w-full object-contain"
              />
            </div>
          ) : null}
          <dl className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white text-sm">
            <div className="px-5 py-3">
              <dt className="font-semibold text-slate-600">Country</dt>
              <dd className="mt-0.5 text-navy-900">{company.country_name}</dd>
            </div>
            <div className="px-5 py-3">
              <dt className="font-semibold text-slate-600">Membership</dt>
              <dd className="mt-0.5 text-navy-900">{TYPE_LABELS[company.membership_type]}</dd>
            </div>
            <div className="px-5 py-3">
              <dt className="font-semibold text-slate-600">Member since</dt>
              <dd className="mt-0.5 text-navy-900">
                <time dateTime={company.member_since}>{formatDay(company.member_since)}</time>
              </dd>
            </div>
            {company.website && host ? (
              <div className="px-5 py-3">
                <dt className="font-semibold text-slate-600">Website</dt>
                <dd className="mt-0.5">
                  <a
                    href={company.website}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="inline-flex items-center gap-1 font-medium break-all text-sea-600 hover:underline"
                  >
                    {host}
                    <ExternalLink className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                </dd>
              </div>
            ) : null}
            {company.products.length > 0 ? (
              <div className="px-5 py-3">
                <dt className="font-semibold text-slate-600">Products</dt>
                <dd className="mt-1.5">
                  <ul className="flex flex-wrap gap-1.5">
                    {company.products.map((product) => (
                      <li key={product}>
                        <Link
                          to={`/members-list?product=${encodeURIComponent(product.toLowerCase())}`}
                          className="inline-block rounded-full bg-navy-50 px-2.5 py-0.5 text-xs font-medium text-navy-900 hover:bg-navy-100 hover:underline"
                        >
                          {product}
                          <span className="sr-only"> (other members listing it)</span>
                        </Link>
                      </li>
                    ))}
                  </ul>
                </dd>
              </div>
            ) : null}
          </dl>
        </aside>
      </div>
      <p className="mx-auto max-w-7xl px-4 pb-12 sm:px-6">
        <Link to="/members-list" className="font-semibold text-sea-600 hover:underline">
          All member companies
        </Link>
      </p>
    </div>
  );
}
