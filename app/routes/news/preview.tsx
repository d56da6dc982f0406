import { data } from "react-router";
import { PREVIEW_HEADERS, PreviewNote, previewMeta } from "../../components/layout/preview-note";
import { PostArticle } from "../../components/news/post-article";
import { getRequestContext } from "../../context";
import { SERVED_AS_ISLANDS } from "../../islands/island";
import type { Route } from "./+types/preview";

/** Served as islands (decision 0033): a page to read, nothing to run. */
export const handle = SERVED_AS_ISLANDS;

export const PREVIEW_INVALID =
  "This preview link is not valid or has expired. Ask whoever sent it for a new one; a published post is at its own address.";

export const headers: Route.HeadersFunction = () => PREVIEW_HEADERS;

export const meta: Route.MetaFunction = ({ data: loaderData }) => previewMeta(loaderData?.post.title);

export async function loader({ context, params }: Route.LoaderArgs) {
  const found = await getRequestContext(context).services.news.preview(params.token);
  if (!found) throw data(PREVIEW_INVALID, { status: 404, headers: PREVIEW_HEADERS });
  return data(found, { headers: PREVIEW_HEADERS });
}

/** A news post as it will look, marked as a preview, for anyone with the link until it expires (decision 0070). */
export default function NewsPreview({ loaderData }: Route.ComponentProps) {
  const { post, expires_at } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <PreviewNote noun="post" status={post.status} publishAt={post.publish_at} expiresAt={expires_at} />
      <div className="mt-6 max-w-4xl">
        <PostArticle post={post} />
      </div>
    </div>
  );
}
