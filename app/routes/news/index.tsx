import { Search } from "lucide-react";
import { data, Form, Link } from "react-router";
import { monthLabel, postsQuerySchema } from "../../../core/news/news.schema";
import { validate } from "../../../lib/validation";
import { PostCard } from "../../components/news/post-card";
import { PageHero } from "../../components/public/page-hero";
import { LoadMoreLink } from "../../components/ui/load-more-link";
import { getRequestContext } from "../../context";
import { seoMeta } from "../../lib/seo";
import { useLoadMore } from "../../lib/use-load-more";
import type { Route } from "./+types/index";

/** Filter, search and page live in the URL: shareable, and working without JavaScript. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const input = validate(postsQuerySchema, {
    filters: url.searchParams.get("month"),
    search: url.searchParams.get("q"),
    page: url.searchParams.get("page") ?? undefined,
  });
  if (!input.success) throw data("That filter is not valid: choose a month from the list.", { status: 400 });
  const [page, months] = await Promise.all([services.news.list(input.data), services.news.dateFilters()]);
  return { page, months, month: input.data.filters, search: input.data.search };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seoMeta({
    matches,
    title: "News",
    description: "News from the association and its member companies.",
    path: "/news",
  });

export const links: Route.LinksFunction = () => [
  { rel: "alternate", type: "application/rss+xml", title: "News (RSS)", href: "/news/rss.xml" },
  { rel: "alternate", type: "application/atom+xml", title: "News (Atom)", href: "/news/atom.xml" },
];

function query(params: { month: string | null; search: string; page?: number }) {
  const search = new URLSearchParams();
  if (params.month) search.set("month", params.month);
  if (params.search) search.set("q", params.search);
  if (params.page && params.page > 1) search.set("page", String(params.page));
  const text = search.toString();
  return text ? `?${text}` : "";
}

export default function News({ loaderData }: Route.ComponentProps) {
  const { page, months, month, search } = loaderData;
  const more = useLoadMore(page);
  const posts = more.items;
  const nextHref = `/news${query({ month, search, page: more.nextPage })}`;
  const filterLink = (value: string | null, label: string) => {
    const active = value === month;
    return (
      <li key={value ?? "all"}>
        <Link
          to={`/news${query({ month: value, search })}`}
          aria-current={active ? "page" : undefined}
          className={`block rounded-full px-3.5 py-1.5 text-sm whitespace-nowrap ${active ? "bg-navy-900 font-semibold text-white" : "bg-white text-slate-700 ring-1 ring-slate-200 hover:ring-navy-700"}`}
        >
          {label}
        </Link>
      </li>
    );
  };

  return (
    <div>
      <PageHero eyebrow="News" title="News from the association" />
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
        <div className="flex flex-col gap-4 md:flex-row md:items-start md:justify-between">
          <nav aria-label="Filter by month" className="min-w-0 flex-1">
            <ul className="flex gap-2 overflow-x-auto pb-2">
              {filterLink(null, "All")}
              {months.map((m) => filterLink(m, monthLabel(m)))}
            </ul>
          </nav>
          <Form method="get" role="search" className="flex shrink-0 gap-2 md:w-80">
            {month ? <input type="hidden" name="month" value={month} /> : null}
            <label htmlFor="news-q" className="sr-only">
              Search the news
            </label>
            <input
              id="news-q"
              type="search"
              name="q"
              defaultValue={search}
              placeholder="Search the news"
              className="field-input py-2"
            />
            <button type="submit" className="btn-primary">
              <Search className="h-4 w-4" aria-hidden="true" />
              <span className="sr-only">Search</span>
            </button>
          </Form>
        </div>
        <p className="mt-4 text-sm text-slate-600" aria-live="polite">
          {page.total} post{page.total === 1 ? "" : "s"}
          {month ? ` in ${monthLabel(month)}` : ""}
          {search ? ` matching “${search}”` : ""}
        </p>
        {posts.length === 0 ? (
          <p className="mt-8 text-slate-700">No news matches. Try another month or fewer words.</p>
        ) : (
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {posts.map((post) => (
              <li key={post.id} className="relative">
                <PostCard post={post} />
              </li>
            ))}
          </ul>
        )}
        {more.hasMore ? (
          <div className="mt-10 text-center">
            <LoadMoreLink href={nextHref} loading={more.loading} onLoad={more.load} />
          </div>
        ) : null}
      </div>
    </div>
  );
}
