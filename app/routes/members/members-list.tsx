import { ExternalLink, Search } from "lucide-react";
import { Form, Link } from "react-router";
import { uploadUrl } from "../../../lib/uploads";
import { PageHero } from "../../components/layout/page-hero";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { optionalPage } from "../../lib/cms";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import type { Route } from "./+types/members-list";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = { ...SHARED_WHEN_SIGNED_IN, ...SERVED_AS_ISLANDS };

/** The member companies (name, country, website, logo) with a filter that lives in the URL. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const search = url.searchParams.get("q") ?? "";
  const country = url.searchParams.get("country") ?? "";
  const [{ members, countries }, intro] = await Promise.all([
    services.members.list({ search, country }),
    optionalPage(services, "/members-list"),
  ]);
  return { members, countries, search, country, intro: intro?.content ?? null };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seoMeta({
    matches,
    title: "List of Members",
    description: "The member companies of the association.",
    path: "/members-list",
  });

export default function MembersList({ loaderData }: Route.ComponentProps) {
  const { members, countries, search, country, intro } = loaderData;
  const filtered = Boolean(search || country);
  return (
    <div>
      <PageHero eyebrow="Membership" title="List of Members" />
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
        {intro ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by the pages service
          <div className="rich-text max-w-3xl" dangerouslySetInnerHTML={{ __html: intro }} />
        ) : null}
        <Form method="get" className="mt-8 flex flex-col gap-3 rounded-xl bg-navy-50 p-4 sm:flex-row sm:items-end">
          <div className="flex-1">
            <label htmlFor="members-q" className="field-label">
              Company name
            </label>
            <input
              id="members-q"
              type="search"
              name="q"
              defaultValue={search}
              className="field-input"
              placeholder="e.g. Marine"
            />
          </div>
          <div className="sm:w-64">
            <label htmlFor="members-country" className="field-label">
              Country
            </label>
            <select id="members-country" name="country" defaultValue={country} className="field-input">
              <option value="">All countries</option>
              {countries.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
          <div className="flex gap-2">
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
        <p className="mt-6 text-sm text-slate-600" aria-live="polite">
          {members.length} member compan{members.length === 1 ? "y" : "ies"}
          {filtered ? " match the filter" : ""}
        </p>
        {members.length === 0 ? (
          <p className="mt-6 text-slate-700">No member company matches the filter.</p>
        ) : (
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 md:grid-cols-3 xl:grid-cols-4">
            {members.map((member) => (
              <li key={member.id} className="flex flex-col rounded-xl border border-slate-200 bg-white p-5">
                <div className="flex h-20 items-center justify-center rounded-lg bg-slate-50">
                  {member.logo ? (
                    <img
                      src={uploadUrl(member.logo)}
                      alt=""
                      width={160}
                      height={80}
                      loading="lazy"
                      className="max-h-16 w-auto object-contain"
                    />
                  ) : null}
                </div>
                <h2 className="mt-4 font-semibold text-navy-900">{member.name}</h2>
                <p className="text-sm text-slate-600">
                  {member.country}
                  {member.joined_year ? ` · member since ${member.joined_year}` : ""}
                </p>
                {member.website ? (
                  <a
                    href={member.website}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="mt-3 inline-flex items-center gap-1 text-sm font-medium text-sea-600 hover:underline"
                  >
                    {member.website.replace(/^https?:\/\//, "").replace(/\/$/, "")}
                    <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
