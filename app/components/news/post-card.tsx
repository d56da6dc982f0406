import { Link } from "react-router";
import type { PostSummary } from "../../../core/news/news.schema";
import { postUrl } from "../../../core/news/news.values";
import { uploadedImageSrcSet } from "../../../lib/image-variants";

const DATE_FORMAT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

export function formatDate(iso: string): string {
  return DATE_FORMAT.format(new Date(iso));
}

/**
 * A news post in a list: image with its real size (no layout shift), date, title, excerpt.
 * `priority`: the first card of a list, whose image is likely the largest thing on the first screen.
 */
export function PostCard({
  post,
  headingLevel = 2,
  priority = false,
}: {
  post: PostSummary;
  headingLevel?: 2 | 3;
  priority?: boolean;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="group flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white transition hover:shadow-lg">
      <div className="aspect-[16/9] overflow-hidden bg-navy-100">
        {post.image ? (
          <img
            src={post.image}
            // Cards are at most a third of the 1280 px page, a half on tablets, the screen's width on phones.
            srcSet={uploadedImageSrcSet(post.image) ?? undefined}
            sizes="(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw"
            alt={post.image_alt}
            width={post.image_width ?? 1600}
            height={post.image_height ?? 900}
            loading={priority ? "eager" : "lazy"}
            fetchPriority={priority ? "high" : undefined}
            decoding="async"
            className="h-full w-full object-cover transition duration-300 group-hover:scale-[1.02]"
          />
        ) : null}
      </div>
      <div className="flex flex-1 flex-col p-5">
        <p className="text-sm text-slate-600">
          <time dateTime={post.published_at}>{formatDate(post.published_at)}</time>
          {post.author_name ? ` · ${post.author_name}` : ""}
        </p>
        <Heading className="mt-2 text-lg leading-snug font-semibold text-navy-900">
          <Link to={postUrl(post.slug)} className="after:absolute after:inset-0 hover:underline">
            {post.title}
          </Link>
        </Heading>
        <p className="mt-2 line-clamp-3 text-sm text-slate-600">{post.excerpt}</p>
      </div>
    </article>
  );
}
