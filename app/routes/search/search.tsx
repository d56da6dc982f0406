import { Search } from "lucide-react";
import { Form, Link } from "react-router";
import { viewerOf } from "../../../core/access/access";
import { isPaperFileUrl } from "../../../core/library/library.values";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import type { Route } from "./+types/search";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = { ...SHARED_WHEN_SIGNED_IN, ...SERVED_AS_ISLANDS };

/** The full results page: Enter in the search box, or the search form without JavaScript. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const query = (url.searchParams.get("q") ?? "").slice(0, 200);
  const { services, auth } = getRequestContext(context);
  const results = query.trim() ? await services.search.search(query, viewerOf(auth)) : [];
  return { query, results };
}

export const meta: Route.MetaFunction = ({ matches, data: loaderData }) => [
  ...seoMeta({ matches, title: loaderData?.query ? `Search: ${loaderData.query}` : "Search", path: "/search" }),
  { name: "robots", content: "noindex" },
];

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { query, results } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
      <h1 className="font-display text-4xl font-bold text-navy-900">Search</h1>
      <Form method="get" role="search" className="mt-6 flex gap-2">
        <label htmlFor="search-page-q" className="sr-only">
          Search the site
        </label>
        <input
          id="search-page-q"
          type="search"
          name="q"
          defaultValue={query}
          placeholder="Search"
          className="field-input"
        />
        <button type="submit" className="btn-primary">
          <Search className="h-4 w-4" aria-hidden="true" />
          Search
        </button>
      </Form>
      {query.trim() ? (
        results.length === 0 ? (
          <p className="mt-8 text-slate-700">There are no results for `{query}`</p>
        ) : (
          <>
            <p className="mt-8 text-sm text-slate-600">
              {results.length} result{results.length === 1 ? "" : "s"} for “{query}”
            </p>
            <ol className="mt-4 divide-y divide-slate-200">
              {results.map((result) => (
                <li key={result.url + result.title} className="py-5">
                  <p className="text-xs font-semibold tracking-wide text-sea-600 uppercase">{result.subtitle}</p>
                  <Link
                    to={result.url}
                    reloadDocument={isPaperFileUrl(result.url)}
                    className="mt-1 block text-lg font-semibold text-navy-900 hover:underline"
                  >
                    {result.title}
                  </Link>
                  <p
                    className="mt-1 text-slate-700 [&_mark]:bg-signal-500/30 [&_mark]:text-inherit"
                    // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped by the search service, only <mark> is markup
                    dangerouslySetInnerHTML={{ __html: result.content }}
                  />
                </li>
              ))}
            </ol>
          </>
        )
      ) : null}
    </div>
  );
}
