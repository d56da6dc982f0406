import { Eye } from "lucide-react";
import { data } from "react-router";
import { PostArticle } from "../../components/news/post-article";
import { formatDate } from "../../components/news/post-card";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import type { Route } from "./+types/preview";

/** Served as islands (decision 0033): a page to read, nothing to run. */
export const handle = SERVED_AS_ISLANDS;

export const PREVIEW_INVALID =
  "This preview link is not valid or has expired. Ask whoever sent it for a new one; a published post is at its own address.";

// A draft for whoever holds the link: never stored by a cache, never indexed, never sent on in a Referer.
const PRIVATE = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex", "Referrer-Policy": "no-referrer" };
export const headers: Route.HeadersFunction = () => PRIVATE;

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: loaderData ? `Preview: ${loaderData.post.title}` : "Preview" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

export async function loader({ context, params }: Route.LoaderArgs) {
  const found = await getRequestContext(context).services.news.preview(params.token);
  if (!found) throw data(PREVIEW_INVALID, { status: 404, headers: PRIVATE });
  return data(found, { headers: PRIVATE });
}

/** A news post as it will look, marked as a preview, for anyone with the link until it expires (decision 0070). */
export default function NewsPreview({ loaderData }: Route.ComponentProps) {
  const { post, expires_at } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <p
        role="note"
        className="flex flex-wrap items-center gap-2 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200"
      >
        <Eye className="h-4 w-4" aria-hidden="true" />
        <span className="font-semibold">Preview</span>
        <span>
          {post.status === "draft"
            ? "A draft, not on the site yet."
            : post.status === "scheduled"
              ? `Scheduled: on the site from ${formatDate(post.publish_at ?? "")}.`
              : "This post is published."}{" "}
          This link works until {formatDate(expires_at)}.
        </span>
      </p>
      <div className="mt-6 max-w-4xl">
        <PostArticle post={post} />
      </div>
    </div>
  );
}
