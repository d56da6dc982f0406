import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { htmlToText, sanitizeRichText } from "../../lib/html";
import { imageFiles, imageSrcSet } from "../../lib/image-variants";
import { storeImage } from "../../lib/images";
import { type Page, pageOf } from "../../lib/pagination";
import type { FileStorage } from "../../lib/storage";
import { parseOrThrow } from "../../lib/validation";
import type { SearchService } from "../search/search.service";
import type { NewsRepository } from "./news.repository";
import {
  adminListSchema,
  monthFilterOf,
  monthRange,
  NEWS_PER_PAGE,
  type Post,
  type PostSummary,
  type PostsQuery,
  postInputSchema,
  slugify,
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
export function createNewsService(deps: {
  repository: NewsRepository;
  search: SearchService;
  storage: FileStorage;
  clock: Clock;
}) {
  const { repository, search, storage, clock } = deps;

  function toPost(row: NonNullable<Awaited<ReturnType<NewsRepository["findById"]>>>): Post {
    return {
      id: row.id,
      slug: row.slug,
      title: row.title,
      content: sanitizeRichText(row.content),
      author_name: row.author_name,
      image: uploadUrl(row.image),
      image_srcset: imageSrcSet(row.image),
      image_width: row.image_width,
      image_height: row.image_height,
      published_at: row.published_at,
    };
  }

  async function uniqueSlug(title: string): Promise<string> {
    const base = slugify(title);
    const taken = new Set(await repository.slugsLike(base));
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  async function removeFiles(key: string | null) {
    if (key) await Promise.all(imageFiles(key).map((file) => storage.remove(file)));
  }

  function parseInput(input: unknown) {
    const parsed = parseOrThrow(postInputSchema, input);
    return { ...parsed, content: sanitizeRichText(parsed.content) };
  }

  async function index(row: { id: number; slug: string; title: string; content: string }) {
    await search.index({ kind: "news", refId: row.id, url: `/post/${row.slug}`, title: row.title, html: row.content });
  }

  async function existing(id: number) {
    const row = Number.isSafeInteger(id) ? await repository.findById(id) : undefined;
    if (!row) throw new AppError("not_found", "Post not found.");
    return row;
  }

  return {
    /** How many posts there are, for the admin home. */
    countPosts: () => repository.count({}),

    async list(query: PostsQuery): Promise<Page<PostSummary>> {
      const range = query.filters ? monthRange(query.filters) : {};
      const ids = query.search ? (await search.matchingIds("news", query.search)).map(Number) : undefined;
      const filter = { ...range, ids };
      const [rows, total] = await Promise.all([
        repository.list(filter, (query.page - 1) * NEWS_PER_PAGE, NEWS_PER_PAGE),
        repository.count(filter),
      ]);
      return pageOf(rows.map(summary), query.page, NEWS_PER_PAGE, total);
    },

    /** The month filters that have posts, newest first, as MM-YYYY. */
    async dateFilters(): Promise<string[]> {
      return (await repository.months()).map(monthFilterOf);
    },

    async getBySlug(slug: string): Promise<Post> {
      const row = slug.length <= 200 ? await repository.findBySlug(slug) : undefined;
      if (!row) throw new AppError("not_found", "Post not found.");
      return toPost(row);
    },

    async getById(id: number): Promise<Post> {
      return toPost(await existing(id));
    },

    /** The newest posts, for the home page (no count, no filters). */
    async latest(limit = 3): Promise<PostSummary[]> {
      return (await repository.list({}, 0, limit)).map(summary);
    },

    async latestExcept(slug: string): Promise<PostSummary[]> {
      return (await repository.latestExcept(slug, LATEST_COUNT)).map(summary);
    },

    async sitemapEntries() {
      return repository.allForSitemap();
    },

    /** The admin list: every post, newest first, searchable. */
    async adminList(input: { search?: unknown; page?: unknown }): Promise<Page<PostSummary>> {
      const parsed = parseOrThrow(adminListSchema, input);
      return this.list({ filters: null, search: parsed.search, page: parsed.page });
    },

    /** A new post, first in the list; its slug comes from the title and stays unique. */
    async create(input: unknown, image?: Uint8Array): Promise<Post> {
      const data = parseInput(input);
      const stored = image ? await storeImage(storage, "news", image) : null;
      const now = clock().toISOString();
      try {
        const row = await repository.insert({
          slug: await uniqueSlug(data.title),
          title: data.title,
          content: data.content,
          author_name: data.author_name,
          image: stored?.key ?? null,
          image_width: stored?.width ?? null,
          image_height: stored?.height ?? null,
          published_at: now,
          created_at: now,
          updated_at: now,
        });
        await index(row);
        return toPost(row);
      } catch (error) {
        await removeFiles(stored?.key ?? null);
        throw error;
      }
    },

    /** Replaces a post's fields by id; the slug stays as it was so that links keep working. */
    async update(id: number, input: unknown, image?: Uint8Array): Promise<Post> {
      const before = await existing(id);
      const data = parseInput(input);
      const stored = image ? await storeImage(storage, "news", image) : null;
      let row: Awaited<ReturnType<NewsRepository["update"]>>;
      try {
        row = await repository.update(id, {
          title: data.title,
          content: data.content,
          author_name: data.author_name,
          ...(stored ? { image: stored.key, image_width: stored.width, image_height: stored.height } : {}),
          updated_at: clock().toISOString(),
        });
        // Deleted meanwhile: the new image's files go too.
        if (!row) throw new AppError("not_found", "Post not found.");
      } catch (error) {
        await removeFiles(stored?.key ?? null);
        throw error;
      }
      if (stored) await removeFiles(before.image);
      await index(row);
      return toPost(row);
    },

    async remove(id: number): Promise<{ slug: string }> {
      const row = await repository.remove((await existing(id)).id);
      if (!row) throw new AppError("not_found", "Post not found.");
      await search.remove("news", row.id);
      await removeFiles(row.image);
      return { slug: row.slug };
    },

    /** Removes the post's image; answers the post without it. */
    async removeImage(id: number): Promise<Post> {
      const before = await existing(id);
      const row = await repository.update(id, {
        image: null,
        image_width: null,
        image_height: null,
        updated_at: clock().toISOString(),
      });
      if (!row) throw new AppError("not_found", "Post not found.");
      await removeFiles(before.image);
      return toPost(row);
    },
  };
}
export type NewsService = ReturnType<typeof createNewsService>;
