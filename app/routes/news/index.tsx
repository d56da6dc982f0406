import { data } from "react-router";
import { postsQuerySchema } from "../../../core/news/news.schema";
import { monthLabel } from "../../../core/news/news.values";
import { validate } from "../../../lib/validation";
import { PageHero } from "../../components/layout/page-hero";
import { NewsFilter, newsQuery } from "../../components/news/news-filter";
import { PostCard } from "../../components/news/post-card";
import { FollowButton } from "../../components/notifications/follow-button";
import { LoadMoreIsland } from "../../components/ui/load-more-island";
import { LoadMoreLink } from "../../components/ui/load-more-link";
import { getRequestContext } from "../../context";
import { Island, SERVED_AS_ISLANDS, useIslands } from "../../islands/island";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import { useLoadMore } from "../../lib/use-load-more";
import type { Route } from "./+types/index";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = { ...SHARED_WHEN_SIGNED_IN, ...SERVED_AS_ISLANDS };

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

export default function News({ loaderData }: Route.ComponentProps) {
  const { page, months, month, search } = loaderData;
  const more = useLoadMore(page);
  const islands = useIslands();
  const posts = more.items;
  const nextHref = `/news${newsQuery({ month, search, page: more.nextPage })}`;

  return (
    <div>
      <PageHero eyebrow="News" title="News from the association" />
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
        <Island name="news-filter" component={NewsFilter} props={{ month, search, months }} />
        <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-600" aria-live="polite">
            {page.total} post{page.total === 1 ? "" : "s"}
            {month ? ` in ${monthLabel(month)}` : ""}
            {search ? ` matching “${search}”` : ""}
          </p>
          <FollowButton kind="news" name="the news" delivery="digest" label="Follow the news" />
        </div>
        {posts.length === 0 ? (
          <p className="mt-8 text-slate-700">No news matches. Try another month or fewer words.</p>
        ) : (
          <ul id="news-list" className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {posts.map((post, index) => (
              <li key={post.id} data-key={post.id} className="relative">
                <PostCard post={post} priority={index === 0} />
              </li>
            ))}
          </ul>
        )}
        {more.hasMore ? (
          <div className="mt-10 text-center">
            {islands ? (
              <Island name="load-more" component={LoadMoreIsland} props={{ href: nextHref, list: "news-list" }} />
            ) : (
              <LoadMoreLink href={nextHref} loading={more.loading} onLoad={more.load} />
            )}
          </div>
        ) : null}
      </div>
    </div>
  );
}
