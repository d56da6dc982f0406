import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { htmlToText, sanitizeRichText } from "../../lib/html";
import type { SearchService } from "../search/search.service";
import type { NewsRepository } from "./news.repository";
import {
  monthFilterOf,
  monthRange,
  NEWS_PER_PAGE,
  type Page,
  type Post,
  type PostSummary,
  type PostsQuery,
} from "./news.schema";

const LATEST_COUNT = 4;

/** A stored image key as the URL the site serves it at. */
export const uploadUrl = (key: string | null) => (key ? `/uploads/${key}` : null);

type Row = Awaited<ReturnType<NewsRepository["list"]>>[number];

function summary(row: Row): PostSummary {
  const text = htmlToText(row.content);
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: text.length > 220 ? `${text.slice(0, 217).replace(/\s+\S*$/, "")}…` : text,
    author_name: row.author_name,
    image: uploadUrl(row.image),
    image_width: row.image_width,
    image_height: row.image_height,
    published_at: row.published_at,
  };
}

/** News posts as visitors read them (SPEC §3 'News post', §7 'News'). */
export function createNewsService(deps: { repository: NewsRepository; search: SearchService; clock: Clock }) {
  const { repository, search } = deps;
  return {
    async list(query: PostsQuery): Promise<Page<PostSummary>> {
      const range = query.filters ? monthRange(query.filters) : {};
      const ids = query.search ? (await search.matchingIds("news", query.search)).map(Number) : undefined;
      const filter = { ...range, ids };
      const [rows, total] = await Promise.all([
        repository.list(filter, (query.page - 1) * NEWS_PER_PAGE, NEWS_PER_PAGE),
        repository.count(filter),
      ]);
      return {
        data: rows.map(summary),
        current_page: query.page,
        per_page: NEWS_PER_PAGE,
        total,
        last_page: Math.max(1, Math.ceil(total / NEWS_PER_PAGE)),
      };
    },

    /** The month filters that have posts, newest first, as MM-YYYY. */
    async dateFilters(): Promise<string[]> {
      return (await repository.months()).map(monthFilterOf);
    },

    async getBySlug(slug: string): Promise<Post> {
      const row = slug.length <= 200 ? await repository.findBySlug(slug) : undefined;
      if (!row) throw new AppError("not_found", "Post not found.");
      return {
        id: row.id,
        slug: row.slug,
        title: row.title,
        content: sanitizeRichText(row.content),
        author_name: row.author_name,
        image: uploadUrl(row.image),
        image_width: row.image_width,
        image_height: row.image_height,
        published_at: row.published_at,
      };
    },

    async latestExcept(slug: string): Promise<PostSummary[]> {
      return (await repository.latestExcept(slug, LATEST_COUNT)).map(summary);
    },

    async sitemapEntries() {
      return repository.allForSitemap();
    },
  };
}
export type NewsService = ReturnType<typeof createNewsService>;
