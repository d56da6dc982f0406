import type { Kysely } from "kysely";
import type { Dialect } from "../../db/connect";
import type { Database, Executor, NewsPostStatus } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { isUniqueViolation } from "../../lib/db-errors";
import { AppError } from "../../lib/errors";
import { excerptOf, hasContent, sanitizeRichText } from "../../lib/html";
import { isRowId } from "../../lib/ids";
import { ALT_REQUIRED, describedImage } from "../../lib/image-text";
import { imageFiles, imageSrcSet } from "../../lib/image-variants";
import { storeImage } from "../../lib/images";
import { type Page, pageOf } from "../../lib/pagination";
import { freeSlug, SLUG_ATTEMPTS, slugify } from "../../lib/slug";
import type { FileStorage } from "../../lib/storage";
import { uploadUrl } from "../../lib/uploads";
import { invalidInput, parseOrThrow } from "../../lib/validation";
import { placed, stateOf } from "../publication/publication";
import type { Revision } from "../revisions/revisions.schema";
import type { RevisionFields, RevisionsService } from "../revisions/revisions.service";
import type { SearchService } from "../search/search.service";
import { createNewsRepository, type NewsRepository } from "./news.repository";
import {
  type AdminListQuery,
  type AdminPost,
  type AdminPostSummary,
  monthFilterOf,
  monthRange,
  NEWS_PER_PAGE,
  type Post,
  type PostData,
  type PostSummary,
  type PostsQuery,
  postInputSchema,
  postUrl,
} from "./news.schema";

const LATEST_COUNT = 4;

import { previewLinks } from "../publication/preview-links";

export { PREVIEW_DAYS } from "../publication/preview-links";

type Row = Awaited<ReturnType<NewsRepository["list"]>>[number];

function summary(row: Row): PostSummary {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    author_name: row.author_name,
    image: uploadUrl(row.image),
    image_width: row.image_width,
    image_height: row.image_height,
    image_alt: row.image ? row.image_alt : "",
    image_decorative: Boolean(row.image && row.image_decorative),
    published_at: row.published_at,
  };
}

/** News posts as visitors read them (SPEC §3 'News post', §7 'News'). */
/** The texts a post's revisions keep, in the edit screen's order. */
export const POST_REVISION_FIELDS: RevisionFields = [
  { name: "title", label: "Title" },
  { name: "author_name", label: "Author" },
  { name: "content", label: "Content", rich: true },
  { name: "image_alt", label: "Image alt text" },
];

export function createNewsService(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  search: SearchService;
  storage: FileStorage;
  clock: Clock;
  /** The key that signs preview links (core/secrets: the same in every process). */
  previewKey?: () => Promise<Buffer>;
  /** Keeps each save's texts (decision 0073), in the save's transaction. */
  revisions?: RevisionsService;
  /** Records a new post for the members following the news (issue 33), in the write's transaction. */
  notify?: (event: { kind: "news"; ref_id: number; category_id: null }, trx: Kysely<Database>) => Promise<void>;
}) {
  const { db, dialect, search, storage, clock } = deps;
  /** Reads outside any write; every write opens a transaction and its own repository on it. */
  const repository = createNewsRepository(db);
  const previews = previewLinks({ key: deps.previewKey, clock, purpose: "news-preview" });

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
      image_alt: row.image ? row.image_alt : "",
      image_decorative: Boolean(row.image && row.image_decorative),
      published_at: row.published_at,
    };
  }

  /** The state and publication time the admins' answers carry: a draft has no time yet. */
  function adminFields(row: { status: NewsPostStatus; published_at: string }, now: string) {
    const status = stateOf(row, now);
    return { status, publish_at: status === "draft" ? null : row.published_at };
  }

  /** A post as the admins read it: with its state and when it is (or was) published. */
  function toAdminPost(row: NonNullable<Awaited<ReturnType<NewsRepository["findById"]>>>): AdminPost {
    return { ...toPost(row), ...adminFields(row, clock().toISOString()) };
  }

  /** Where the post stands after a save (core/publication): a post always has its date. */
  function placedPost(
    input: Pick<PostData, "status" | "publish_at">,
    before: { status: NewsPostStatus; published_at: string } | null,
    now: string,
  ): { status: NewsPostStatus; published_at: string } {
    const state = placed(input, before, now, "post");
    return { status: state.status, published_at: state.published_at ?? now };
  }

  /**
   * Tells those following the news of a post once it is visible, once (decision 0071): at its save,
   * or for a scheduled post when the notices job finds its time has come. In the caller's transaction.
   */
  async function announce(
    trx: Executor,
    row: { id: number; status: NewsPostStatus; published_at: string },
    now: string,
  ): Promise<boolean> {
    if (row.status !== "published" || row.published_at > now) return false;
    if (!(await createNewsRepository(trx).markAnnounced(row.id, now))) return false;
    await deps.notify?.({ kind: "news", ref_id: row.id, category_id: null }, trx as Kysely<Database>);
    return true;
  }

  /** Files of an image that no committed row names any more; a failure leaves them to the upload sweep. */
  async function removeFiles(key: string | null) {
    if (key) await Promise.allSettled(imageFiles(key).map((file) => storage.remove(file)));
  }

  /**
   * The post as stored: the content sanitized, and only then required (`<script>x</script>` is nothing);
   * an image it will have (`hasImage`: uploaded now or kept) needs its alt text unless decorative.
   */
  function prepare(input: PostData, hasImage: boolean) {
    const content = sanitizeRichText(input.content);
    const errors: Record<string, string[]> = {};
    if (!hasContent(content)) errors.content = ["The content field is required."];
    const text = hasImage ? describedImage(input.image_alt, input.image_decorative) : { alt: "", decorative: false };
    if (!text) errors.image_alt = [ALT_REQUIRED];
    if (!text || Object.keys(errors).length > 0) throw invalidInput(errors);
    return {
      ...input,
      content,
      excerpt: excerptOf(content),
      image_alt: text.alt,
      image_decorative: text.decorative ? 1 : 0,
    };
  }

  async function index(row: { id: number; slug: string; title: string; content: string }, trx: Executor) {
    await search.index(
      { kind: "news", refId: row.id, url: postUrl(row.slug), title: row.title, html: row.content },
      trx,
    );
  }

  /** Runs a write in one transaction; files written for it are removed if it does not commit. */
  async function committing<T>(stored: { key: string } | null, write: (trx: Executor) => Promise<T>): Promise<T> {
    try {
      return await db.transaction().execute(write);
    } catch (error) {
      await removeFiles(stored?.key ?? null);
      throw error;
    }
  }

  /** A post's texts as its revisions keep them. */
  const revisionOf = (row: {
    title: string;
    author_name: string | null;
    content: string;
    image_alt: string | null;
  }) => ({
    title: row.title,
    author_name: row.author_name,
    content: row.content,
    image_alt: row.image_alt,
  });
  const keep = async (
    trx: Executor,
    row: Parameters<typeof revisionOf>[0] & { id: number },
    action: "create" | "update",
    restoredFrom: number | null = null,
    before?: Parameters<typeof revisionOf>[0],
  ) =>
    deps.revisions?.record(trx, "news", row.id, revisionOf(row), {
      action,
      restoredFrom,
      before: before ? revisionOf(before) : undefined,
    });

  async function existing(id: number) {
    const row = isRowId(id) ? await repository.findById(id) : undefined;
    if (!row) throw new AppError("not_found", "Post not found.");
    return row;
  }

  const service = {
    /** Posts as a notice or digest lists them (issue 33): those that still exist, oldest first. */
    async noticePosts(ids: number[]): Promise<{ id: number; title: string; url: string; excerpt: string }[]> {
      const rows = await Promise.all(ids.filter(isRowId).map((id) => repository.findById(id)));
      const now = clock().toISOString();
      return (
        rows
          // A post made a draft again, or moved later, since is not announced now.
          .filter((row): row is NonNullable<typeof row> => row !== undefined && stateOf(row, now) === "published")
          .map((row) => ({ id: row.id, title: row.title, url: postUrl(row.slug), excerpt: row.excerpt ?? "" }))
      );
    },

    /**
     * Tells those following the news of the scheduled posts whose time has come (the notices job, each
     * minute, decision 0071), each once and in its own transaction. Answers how many.
     */
    async announceDue(): Promise<number> {
      const now = clock().toISOString();
      let told = 0;
      for (const { id } of await repository.dueUnannounced(now)) {
        // Told meanwhile by a save, or made a draft again: not counted.
        const toldNow = await db.transaction().execute(async (trx) => {
          const row = await createNewsRepository(trx).findForWrite(id, dialect);
          return row ? announce(trx, row, now) : false;
        });
        if (toldNow) told += 1;
      }
      return told;
    },

    /** When the next scheduled post appears (ISO), or null: when the caches read the schedule again (decision 0071). */
    nextAppearance: () => repository.nextAppearance(clock().toISOString()),
    /** When the latest visible post appeared (ISO), or null: what is cached must be newer (decision 0071). */
    latestAppearance: () => repository.latestAppearance(clock().toISOString()),

    /** How many posts there are, for the admin home. */
    countPosts: () => repository.count({ state: "all", now: clock().toISOString() }),

    async list(query: PostsQuery): Promise<Page<PostSummary>> {
      const range = query.filters ? monthRange(query.filters) : {};
      const matching = query.search ? search.matchingIds("news", query.search) : undefined;
      const filter = { ...range, matching, now: clock().toISOString() };
      const [rows, total] = await Promise.all([
        repository.list(filter, (query.page - 1) * NEWS_PER_PAGE, NEWS_PER_PAGE),
        repository.count(filter),
      ]);
      return pageOf(rows.map(summary), query.page, NEWS_PER_PAGE, total);
    },

    /** The month filters that have posts, newest first, as MM-YYYY. */
    async dateFilters(): Promise<string[]> {
      return (await repository.months(clock().toISOString())).map(monthFilterOf);
    },

    async getBySlug(slug: string): Promise<Post> {
      const row = slug.length <= 200 ? await repository.findBySlug(slug, clock().toISOString()) : undefined;
      if (!row) throw new AppError("not_found", "Post not found.");
      return toPost(row);
    },

    /**
     * A link that shows the post as it will look, to anyone who has it, for PREVIEW_DAYS (decision
     * 0070): signed, not stored, so each call makes a new one and none can be withdrawn but by the key.
     */
    async previewLink(id: number): Promise<{ path: string; expires_at: string }> {
      const post = await existing(id);
      const { token, expires_at } = await previews.sign(post.id);
      return { path: `/news/preview/${token}`, expires_at };
    },

    /** The post a preview link shows, whatever its state, or null: not a link of ours, expired, or the post is gone. */
    async preview(token: string): Promise<{ post: AdminPost; expires_at: string } | null> {
      const found = await previews.read(token);
      const row = found ? await repository.findById(found.id) : undefined;
      return found && row ? { post: toAdminPost(row), expires_at: found.expires_at } : null;
    },

    /** Any post, drafts included, with its state: for the admins. */
    async getById(id: number): Promise<AdminPost> {
      return toAdminPost(await existing(id));
    },

    /** The newest posts, for the home page (no count, no filters). */
    async latest(limit = 3): Promise<PostSummary[]> {
      return (await repository.list({ now: clock().toISOString() }, 0, limit)).map(summary);
    },

    async latestExcept(slug: string): Promise<PostSummary[]> {
      return (await repository.latestExcept(slug, LATEST_COUNT, clock().toISOString())).map(summary);
    },

    async sitemapEntries() {
      return repository.allForSitemap(clock().toISOString());
    },

    /** The admin list: every post, drafts included (or one state), newest first, searchable. */
    async adminList(query: AdminListQuery): Promise<Page<AdminPostSummary>> {
      const now = clock().toISOString();
      const filter = {
        matching: query.search ? search.matchingIds("news", query.search) : undefined,
        state: query.status === "published" ? ("visible" as const) : (query.status ?? ("all" as const)),
        now,
      };
      const [rows, total] = await Promise.all([
        repository.list(filter, (query.page - 1) * NEWS_PER_PAGE, NEWS_PER_PAGE),
        repository.count(filter),
      ]);
      return pageOf(
        rows.map((row) => ({ ...summary(row), ...adminFields(row, now) })),
        query.page,
        NEWS_PER_PAGE,
        total,
      );
    },

    /**
     * A new post, first in the list; its slug comes from the title. The
     * database decides uniqueness: an insert that loses a race for the slug is
     * retried with the next one, never answered 500.
     */
    async create(input: PostData, image?: Uint8Array): Promise<AdminPost> {
      const data = prepare(input, Boolean(image));
      const base = slugify(data.title);
      const now = clock().toISOString();
      // Refused before any file is written: a time that is not ahead, or missing.
      const state = placedPost(data, null, now);
      const stored = image ? await storeImage(storage, "news", image) : null;
      for (let attempt = 0; ; attempt++) {
        try {
          const row = await db.transaction().execute(async (trx) => {
            const news = createNewsRepository(trx);
            const inserted = await news.insert({
              slug: await freeSlug(news.slugsLike, base, attempt),
              title: data.title,
              content: data.content,
              excerpt: data.excerpt,
              author_name: data.author_name,
              image: stored?.key ?? null,
              image_width: stored?.width ?? null,
              image_height: stored?.height ?? null,
              image_alt: data.image_alt,
              image_decorative: data.image_decorative,
              ...state,
              created_at: now,
              updated_at: now,
            });
            await index(inserted, trx);
            await keep(trx, inserted, "create");
            // Those following the news hear of a post when everyone can read it, not of a draft or before its time.
            await announce(trx, inserted, now);
            return inserted;
          });
          return toAdminPost(row);
        } catch (error) {
          const slugTaken = isUniqueViolation(error, { table: "news_posts", column: "slug" });
          if (slugTaken && attempt + 1 < SLUG_ATTEMPTS) continue;
          await removeFiles(stored?.key ?? null);
          if (slugTaken) throw new AppError("conflict", "Another post took this title's address. Please try again.");
          throw error;
        }
      }
    },

    /**
     * Replaces a post's fields by id; the slug stays as it was so that links keep working. Whether the
     * post will have an image, which decides whether alt text is required, is read in the transaction
     * that writes (decision 0041): a picture another admin adds meanwhile is not left without its text.
     */
    async update(
      id: number,
      input: PostData,
      image?: Uint8Array,
      restoredFrom: number | null = null,
    ): Promise<AdminPost> {
      // A post that is gone, and a new image without its text (needed whatever the post has), are refused
      // before any file is written; the read here decides nothing the write depends on.
      if (image) await existing(id);
      else if (!isRowId(id)) throw new AppError("not_found", "Post not found.");
      const withImage = image ? prepare(input, true) : null;
      const stored = image ? await storeImage(storage, "news", image) : null;
      const { before, row } = await committing(stored, async (trx) => {
        const news = createNewsRepository(trx);
        const before = await news.findForWrite(id, dialect);
        // Deleted meanwhile: the new image's files go too.
        if (!before) throw new AppError("not_found", "Post not found.");
        const data = withImage ?? prepare(input, Boolean(before.image));
        const now = clock().toISOString();
        // A post published now that nobody could read before is new to everyone: dated now, first in the lists.
        const state = placedPost(data, before, now);
        const row = await news.update(id, {
          title: data.title,
          content: data.content,
          excerpt: data.excerpt,
          author_name: data.author_name,
          image_alt: data.image_alt,
          image_decorative: data.image_decorative,
          ...(stored ? { image: stored.key, image_width: stored.width, image_height: stored.height } : {}),
          ...state,
          updated_at: now,
        });
        if (!row) throw new AppError("not_found", "Post not found.");
        await index(row, trx);
        await keep(trx, row, "update", restoredFrom, before);
        await announce(trx, row, now);
        return { before, row };
      });
      if (stored && before.image !== stored.key) await removeFiles(before.image);
      return toAdminPost(row);
    },

    /** A post's kept revisions, newest first, each with what changed (decision 0073). */
    async revisions(id: number): Promise<Revision[]> {
      await existing(id);
      return deps.revisions ? deps.revisions.list("news", id, POST_REVISION_FIELDS) : [];
    },

    /**
     * Puts a revision's texts back, as a new save (a new revision): the post keeps its state, image
     * and date, so a restore never publishes a draft. An alt text the revision lacks stays as it is.
     */
    async restoreRevision(id: number, revisionId: number): Promise<AdminPost> {
      const current = await existing(id);
      if (!deps.revisions) throw new AppError("not_found", "Revision not found.");
      const kept = await deps.revisions.fields("news", id, revisionId);
      const data = parseOrThrow(postInputSchema, {
        title: kept.title ?? current.title,
        content: kept.content ?? current.content,
        author_name: kept.author_name ?? current.author_name ?? "",
        image_alt: kept.image_alt || current.image_alt || "",
        image_decorative: Boolean(current.image_decorative),
      });
      return service.update(id, data, undefined, revisionId);
    },

    /** Deletes the post and its search entry together; its image's files once that has committed. */
    async remove(id: number): Promise<{ slug: string }> {
      await existing(id);
      const row = await committing(null, async (trx) => {
        const removed = await createNewsRepository(trx).remove(id);
        if (!removed) throw new AppError("not_found", "Post not found.");
        await search.remove("news", removed.id, trx);
        await deps.revisions?.removeAll(trx, "news", removed.id);
        return removed;
      });
      await removeFiles(row.image);
      return { slug: row.slug };
    },

    /** Removes the post's image; answers the post without it. */
    async removeImage(id: number): Promise<AdminPost> {
      await existing(id);
      const { before, row } = await committing(null, async (trx) => {
        const news = createNewsRepository(trx);
        const before = await news.findForWrite(id, dialect);
        const row = await news.update(id, {
          image: null,
          image_width: null,
          image_height: null,
          image_alt: "",
          image_decorative: 0,
          updated_at: clock().toISOString(),
        });
        if (!before || !row) throw new AppError("not_found", "Post not found.");
        return { before, row };
      });
      await removeFiles(before.image);
      return toAdminPost(row);
    },
  };
  return service;
}
export type NewsService = ReturnType<typeof createNewsService>;
