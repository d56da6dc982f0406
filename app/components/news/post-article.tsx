import type { Post } from "../../../core/news/news.schema";
import { formatDate } from "./post-card";

/** A news post as visitors read it: date, author, title, image and text (its page, and its preview). */
export function PostArticle({ post }: { post: Post }) {
  return (
    <article>
      <p className="text-sm text-slate-600">
        <time dateTime={post.published_at}>{formatDate(post.published_at)}</time>
        {post.author_name ? ` · ${post.author_name}` : ""}
      </p>
      <h1 className="mt-2 font-display text-4xl leading-tight font-bold text-navy-900 sm:text-5xl">{post.title}</h1>
      {post.image ? (
        <img
          src={post.image}
          srcSet={post.image_srcset ?? undefined}
          sizes="(min-width: 1200px) 820px, 100vw"
          alt={post.image_alt}
          width={post.image_width ?? 1600}
          height={post.image_height ?? 900}
          className="mt-8 h-auto w-full rounded-xl"
        />
      ) : null}
      <div
        className="rich-text mt-8 max-w-3xl"
        // Sanitized on write and again on read by the news service.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized server-side
        dangerouslySetInnerHTML={{ __html: post.content }}
      />
    </article>
  );
}
