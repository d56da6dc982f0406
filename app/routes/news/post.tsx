import { ArrowLeft } from "lucide-react";
import { data, Link } from "react-router";
import { postUrl } from "../../../core/news/news.values";
import { isAppError } from "../../../lib/errors";
import { PostArticle } from "../../components/news/post-article";
import { PostCard } from "../../components/news/post-card";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import { seoMeta } from "../../lib/seo";
import { SHARED_WHEN_SIGNED_IN } from "../../lib/shared-pages";
import type { Route } from "./+types/post";

/** Rendered once per role for signed-in users (decision 0032). */
export const handle = { ...SHARED_WHEN_SIGNED_IN, ...SERVED_AS_ISLANDS };

export async function loader({ context, params }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  try {
    const [post, latest] = await Promise.all([
      services.news.getBySlug(params.slug),
      services.news.latestExcept(params.slug),
    ]);
    return { post, latest };
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw data("This page could not be found", { status: 404 });
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  if (!loaderData) return [];
  const { post } = loaderData;
  const description = post.content
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 158);
  return [
    ...seoMeta({
      matches,
      title: post.title,
      description,
      path: postUrl(post.slug),
      type: "article",
      image: post.image,
      imageAlt: post.image_alt,
    }),
    { property: "article:published_time", content: post.published_at },
  ];
};

export const links: Route.LinksFunction = () => [
  { rel: "alternate", type: "application/rss+xml", title: "News (RSS)", href: "/news/rss.xml" },
];

/** A news article with the latest posts beside it. */
export default function NewsPost({ loaderData }: Route.ComponentProps) {
  const { post, latest } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <Link to="/news" className="inline-flex items-center gap-1.5 text-sm font-semibold text-sea-600 hover:underline">
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        All news
      </Link>
      <div className="mt-6 grid grid-cols-[minmax(0,1fr)] gap-12 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <PostArticle post={post} />
        {latest.length > 0 ? (
          <aside aria-labelledby="latest-posts">
            <h2 id="latest-posts" className="font-display text-2xl font-bold text-navy-900">
              Latest posts
            </h2>
            <ul className="mt-4 space-y-5">
              {latest.map((item) => (
                <li key={item.id} className="relative">
                  <PostCard post={item} headingLevel={3} />
                </li>
              ))}
            </ul>
          </aside>
        ) : null}
      </div>
    </div>
  );
}
