import { data } from "react-router";
import { membersQuerySchema } from "../../../core/members/members.schema";
import { validate } from "../../../lib/validation";
import { PageHero } from "../../components/layout/page-hero";
import {
  CompanyCard,
  DirectoryFilterForm,
  directoryQuery,
  FILTER_REFUSED,
  TYPE_LABELS,
} from "../../components/members/directory";
import { LoadMoreIsland } from "../../components/ui/load-more-island";
import { LoadMoreLink } from "../../components/ui/load-more-link";
import { getRequestContext } from "../../context";
import { Island, SERVED_AS_ISLANDS, useIslands } from "../../islands/island";
import { optionalPage } from "../../lib/cms";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import { useLoadMore } from "../../lib/use-load-more";
import type { Route } from "./+types/members-list";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = { ...SHARED_WHEN_SIGNED_IN, ...SERVED_AS_ISLANDS };

/**
 * The directory (issue 31): current companies only, by name, a page at a time; search, country,
 * type and product live in the URL (a GET form), so a filter is shareable, cached as any public
 * page, and works without JavaScript.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const input = validate(membersQuerySchema, {
    search: url.searchParams.get("q"),
    country: url.searchParams.get("country"),
    type: url.searchParams.get("type"),
    product: url.searchParams.get("product"),
    page: url.searchParams.get("page") || undefined,
  });
  if (!input.success) throw data(FILTER_REFUSED, { status: 422 });
  const query = input.data;
  const [page, choices, intro] = await Promise.all([
    services.members.directory(query),
    services.members.directoryChoices(),
    optionalPage(services, "/members-list"),
  ]);
  const filter = {
    search: query.search,
    country: query.country.toUpperCase(),
    type: query.type ?? ("" as const),
    product: query.product,
  };
  return { page, choices, filter, intro: intro?.content ?? null };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seoMeta({
    matches,
    title: "List of Members",
    description: "The member companies of the association: who they are, where they are and what they make.",
    path: "/members-list",
  });

/** What the filter asks for, in words (beside the count). */
function filterWords(
  filter: Route.ComponentProps["loaderData"]["filter"],
  choices: Route.ComponentProps["loaderData"]["choices"],
) {
  const words: string[] = [];
  if (filter.country)
    words.push(`in ${choices.countries.find((c) => c.code === filter.country)?.name ?? filter.country}`);
  if (filter.type) words.push(`${TYPE_LABELS[filter.type].toLowerCase()}s`);
  if (filter.product) {
    const product = choices.products.find((p) => p.tag === filter.product.toLowerCase())?.name ?? filter.product;
    words.push(`listing ${product}`);
  }
  if (filter.search) words.push(`matching “${filter.search}”`);
  return words.join(", ");
}

export default function MembersList({ loaderData }: Route.ComponentProps) {
  const { page, choices, filter, intro } = loaderData;
  const more = useLoadMore(page);
  const islands = useIslands();
  const companies = more.items;
  const filtered = Boolean(filter.search || filter.country || filter.type || filter.product);
  const nextHref = `/members-list${directoryQuery(filter, more.nextPage)}`;
  return (
    <div>
      <PageHero eyebrow="Membership" title="List of Members" />
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
        {intro ? (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by the pages service
          <div className="rich-text mb-8 max-w-3xl" dangerouslySetInnerHTML={{ __html: intro }} />
        ) : null}
        <DirectoryFilterForm
          // Remounted when the URL's filter changes (Clear, back), so the fields show what is applied.
          key={directoryQuery(filter)}
          filter={filter}
          choices={choices}
        />
        <p className="mt-6 text-sm text-slate-600" aria-live="polite">
          {page.total === 1 ? "1 member company" : `${page.total} member companies`}
          {filtered ? ` ${page.total === 1 ? "matches" : "match"} the filter: ${filterWords(filter, choices)}` : ""}
        </p>
        {companies.length === 0 ? (
          <p className="mt-6 text-slate-700">No member company matches the filter.</p>
        ) : (
          <ul id="members-list" className="mt-4 grid gap-4 sm:grid-cols-2 md:grid-cols-3 xl:grid-cols-4">
            {companies.map((company, index) => (
              <li key={company.id} data-key={company.id} className="relative">
                <CompanyCard company={company} priority={index < 4} />
              </li>
            ))}
          </ul>
        )}
        {more.hasMore ? (
          <div className="mt-10 text-center">
            {islands ? (
              <Island name="load-more" component={LoadMoreIsland} props={{ href: nextHref, list: "members-list" }} />
            ) : (
              <LoadMoreLink href={nextHref} loading={more.loading} onLoad={more.load} />
            )}
          </div>
        ) : null}
      </div>
    </div>
  );
}
