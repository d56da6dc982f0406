import { Search } from "lucide-react";
import { data, Form, Link, useNavigate } from "react-router";
import { postsQuerySchema } from "../../../core/news/news.schema";
import { monthLabel } from "../../../core/news/news.values";
import { validate } from "../../../lib/validation";
import { PageHero } from "../../components/layout/page-hero";
import { PostCard } from "../../components/news/post-card";
import { LoadMoreLink } from "../../components/ui/load-more-link";
import { getRequestContext } from "../../context";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import { useLoadMore } from "../../lib/use-load-more";
import type { Route } from "./+types/index";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = SHARED_WHEN_SIGNED_IN;

/** Filter, search and page live in the URL: shareable, and working without JavaScript. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const input = validate(postsQuerySchema, {
    filters: url.searchParams.get("month"),
    search: url.searchParams.get("q"),
    page: url.searchParams.get("page") ?? undefined,
  });
  if (!input.success) throw data("That filter is not valid: choose a month from the list.", { status: 422 });
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
  const navigate = useNavigate();
  const posts = more.items;
  const nextHref = `/news${query({ month, search, page: more.nextPage })}`;

  // One GET form: without JavaScript the button applies month and search together;
  // with it, choosing a month applies at once. A select, not a link per month: years of
  // archive would be a wall of links.
  return (
    <div>
      <PageHero eyebrow="News" title="News from the association" />
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
        <Form
          // Remounted when the URL's filter changes (Clear, back), so the fields show what is applied.
          key={`${month ?? ""}|${search}`}
          method="get"
          // With JavaScript the URL is built without empty parameters (?month=&q=).
          onSubmit={(event) => {
            event.preventDefault();
            const fields = new FormData(event.currentTarget);
            const chosen = String(fields.get("month") ?? "");
            navigate(`/news${query({ month: chosen || null, search: String(fields.get("q") ?? "").trim() })}`);
          }}
          role="search"
          aria-label="Filter the news"
          className="flex flex-col gap-3 rounded-xl bg-navy-50 p-4 sm:flex-row sm:items-end"
        >
          <div className="sm:w-56">
            <label htmlFor="news-month" className="field-label">
              Month
            </label>
            <select
              id="news-month"
              name="month"
              defaultValue={month ?? ""}
              onChange={(event) => navigate(`/news${query({ month: event.currentTarget.value || null, search })}`)}
              className="field-input"
            >
              <option value="">All</option>
              {months.map((m) => (
                <option key={m} value={m}>
                  {monthLabel(m)}
                </option>
              ))}
            </select>
          </div>
          <div className="flex-1">
            <label htmlFor="news-q" className="field-label">
              Search the news
            </label>
            <input
              id="news-q"
              type="search"
              name="q"
              defaultValue={search}
              placeholder="Words in the title or text"
              className="field-input"
            />
          </div>
          <div className="flex gap-2">
            <button type="submit" className="btn-primary">
              <Search className="h-4 w-4" aria-hidden="true" />
              Search
            </button>
            {month || search ? (
              <Link to="/news" className="btn-outline">
                Clear
              </Link>
            ) : null}
          </div>
        </Form>
        <p className="mt-4 text-sm text-slate-600" aria-live="polite">
          {page.total} post{page.total === 1 ? "" : "s"}
          {month ? ` in ${monthLabel(month)}` : ""}
          {search ? ` matching “${search}”` : ""}
        </p>
        {posts.length === 0 ? (
          <p className="mt-8 text-slate-700">No news matches. Try another month or fewer words.</p>
        ) : (
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {posts.map((post, index) => (
              <li key={post.id} className="relative">
                <PostCard post={post} priority={index === 0} />
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
