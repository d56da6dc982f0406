import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import type { Kysely } from "kysely";
import type { Database, Executor } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { isUniqueViolation } from "../../lib/db-errors";
import { readDocumentText } from "../../lib/document-text";
import { AppError } from "../../lib/errors";
import { escapeHtml, sanitizeRichText } from "../../lib/html";
import { isRowId } from "../../lib/ids";
import { imageFiles } from "../../lib/image-variants";
import { type StoredImage, storeImage } from "../../lib/images";
import { freeSlug, SLUG_ATTEMPTS, slugify } from "../../lib/slug";
import { spooledPath } from "../../lib/spool";
import type { FileStorage, ReadableFileStorage } from "../../lib/storage";
import { invalidInput } from "../../lib/validation";
import { editsGroups, type GroupsSeen } from "../access/access";
import type { AuditService } from "../audit/audit.service";
import { checkedAudienceGroups } from "../groups/audience-groups";
import { CHAIRS_OWN_CATEGORIES } from "../groups/groups.schema";
import type { Revision } from "../revisions/revisions.schema";
import type { RevisionFields, RevisionsService } from "../revisions/revisions.service";
import type { SearchService } from "../search/search.service";
import { type CategoryRow, createLibraryRepository, type PaperRow } from "./library.repository";
import {
  type CategoryCreateData,
  type CategoryData,
  type CategoryMoveData,
  type CategoryTree,
  categoryUrl,
  type Paper,
  type PaperData,
  type PaperType,
  type PublicSetting,
  paperViewUrl,
} from "./library.schema";
import {
  buildTree,
  CATEGORY_NOT_FOUND,
  type CategoryNode,
  type LibraryService,
  type LibraryTree,
  PAPER_NOT_FOUND,
  publicSettingOf,
  readAll,
  toCategory,
} from "./library.service";
import { PAPER_HEAD_BYTES, paperTypeOf } from "./paper-type";

/** Category slugs taken by the members' area's own pages (/dashboard/{slug}). */
// The members' area's own pages under /dashboard/, which a category's /dashboard/{slug} must not shadow.
const RESERVED_SLUGS = ["user-settings", "events", "library", "company", "registrations", "notifications", "groups"];

const FILE_FIELD = "uploaded_file";

type TextPage = { page: number; text: string };

/** A paper's stored file: its key in the private storage and what it is. */
type StoredPaperFile = { key: string; type: PaperType; size: number; name: string | null };

const EXTENSIONS: Record<PaperType, string> = {
  "application/pdf": "pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
  "application/xml": "xml",
  "application/zip": "zip",
};

/**
 * The admin side of the library (issue 14): the category tree and the papers with their files,
 * revisions and text. Every write is one transaction with its search entries; files are written
 * before it and removed if it fails, replaced or deleted files only after it has committed.
 */
/** The texts a category's revisions keep (decision 0073), by column, in the edit screen's order. */
export const CATEGORY_REVISION_FIELDS: RevisionFields = [
  { name: "name", label: "Name" },
  { name: "title", label: "Title" },
  { name: "title_description", label: "Title description" },
  { name: "description", label: "Description" },
  { name: "content", label: "Content", rich: true },
];
type CategoryTexts = Pick<CategoryRow, "name" | "title" | "title_description" | "description" | "content">;
const categoryTexts = (row: CategoryTexts): CategoryTexts => ({
  name: row.name,
  title: row.title,
  title_description: row.title_description,
  description: row.description,
  content: row.content,
});

export function createLibraryAdminService(deps: {
  /** Keeps each save's texts (decision 0073), in the save's transaction. */
  revisions?: RevisionsService;
  db: Kysely<Database>;
  search: SearchService;
  /** Public uploads: category images. */
  storage: FileStorage;
  /** Private storage: paper files (decision 0024). */
  files: ReadableFileStorage;
  clock: Clock;
  read: LibraryService;
  /** Where a text that could not be read (or only in part) is reported; the paper is saved all the same. */
  onTextProblem?: (problem: { reason: string; message: string; truncated: boolean }, paperName: string) => void;
  /** Records what members following it hear of (issue 33), in the write's transaction. */
  notify?: (
    event: { kind: "paper" | "revision"; ref_id: number; category_id: number },
    trx: Kysely<Database>,
  ) => Promise<void>;
  /** The audit log (decision 0074): a paper's rows, in the write's transaction. */
  audit?: Pick<AuditService, "record">;
}) {
  const { db, search, storage, files, clock, read } = deps;
  /** What a paper's audit row compares: its fields and its file's name. */
  const paperAudited = (row: PaperData & { file_name: string | null }) => ({
    ...paperColumns(row),
    file: row.file_name,
  });
  const repository = createLibraryRepository(db);
  const admin = { signedIn: true, admin: true };

  async function treeOn(executor: Executor): Promise<LibraryTree> {
    const on = createLibraryRepository(executor);
    const [rows, counts, groups] = await Promise.all([on.allCategories(), on.paperCounts(), on.categoryGroups()]);
    return buildTree(rows, new Map(counts.map((c) => [c.papers_category_id, Number(c.n)])), groups);
  }

  /** Keeps the category's texts as they now stand, in the save's transaction. */
  async function keepCategory(
    trx: Executor,
    id: number,
    options: { action?: "create" | "update"; restoredFrom?: number; before?: CategoryTexts } = {},
  ) {
    const row = await createLibraryRepository(trx).findCategory(id);
    if (row) await deps.revisions?.record(trx, "category", id, categoryTexts(row), options);
  }

  async function existingCategory(id: number): Promise<CategoryRow> {
    const row = isRowId(id) ? await repository.findCategory(id) : undefined;
    if (!row) throw new AppError("not_found", CATEGORY_NOT_FOUND);
    return row;
  }

  async function existingPaper(id: number): Promise<PaperRow> {
    const row = isRowId(id) ? await repository.findPaper(id) : undefined;
    if (!row) throw new AppError("not_found", PAPER_NOT_FOUND);
    return row;
  }

  // ------------------------------------------------------------ search entries

  /** Who finds a category's entries: everyone, every member, or its groups' members (issue 36). */
  const audienceOf = (node: CategoryNode) => ({
    audience: node.isPublic ? ("public" as const) : ("members" as const),
    groups: node.groupIds,
  });

  async function indexCategory(node: CategoryNode, trx: Executor) {
    if (!node.isLive) return search.remove("category", node.row.id, trx);
    const { row } = node;
    await search.index(
      {
        kind: "category",
        refId: row.id,
        url: categoryUrl(row.slug, node.isPublic),
        title: row.name,
        html: [
          ...[row.title, row.title_description, row.description].map((t) => escapeHtml(t ?? "")),
          row.content ?? "",
        ]
          .filter(Boolean)
          .join("\n"),
        ...audienceOf(node),
      },
      trx,
    );
  }

  async function indexPaper(paper: PaperRow, node: CategoryNode, trx: Executor) {
    if (!node.isLive) return search.remove("paper", paper.id, trx);
    await search.index(
      {
        kind: "paper",
        refId: paper.id,
        url: `${categoryUrl(node.row.slug, node.isPublic)}#paper-${paper.id}`,
        title: paper.name,
        html: escapeHtml(
          [paper.number, paper.organization, paper.reference, paper.meeting, paper.description]
            .filter(Boolean)
            .join(". "),
        ),
        ...audienceOf(node),
      },
      trx,
    );
  }

  async function indexPages(
    paper: { id: number; name: string },
    node: CategoryNode,
    pages: { id: number; page: number; text: string }[],
    trx: Executor,
  ) {
    if (!node.isLive) {
      await search.removeAmong(
        "paper_page",
        pages.map((p) => p.id),
        trx,
      );
      return;
    }
    for (const page of pages) {
      await search.index(
        {
          kind: "paper_page",
          refId: page.id,
          url: paperViewUrl(paper.id, page.page),
          title: paper.name,
          displayTitle: `${paper.name} · page ${page.page}`,
          html: escapeHtml(page.text),
          ...audienceOf(node),
        },
        trx,
      );
    }
  }

  /** Rebuilds the search entries of a category and everything under it (its visibility or address changed). */
  async function reindexSubtree(categoryId: number, trx: Executor) {
    const tree = await treeOn(trx);
    const top = tree.byId.get(categoryId);
    if (!top) return;
    const on = createLibraryRepository(trx);
    const walk = async (node: CategoryNode) => {
      await indexCategory(node, trx);
      for (const paper of await on.papersIn(node.row.id)) await indexPaper(paper, node, trx);
      for (let after = 0; ; ) {
        const pages = await on.pagesOfPapersIn(node.row.id, after, 500);
        for (const page of pages) {
          await indexPages({ id: page.paper_id, name: page.name }, node, [page], trx);
        }
        if (pages.length < 500) break;
        after = pages[pages.length - 1].id;
      }
      for (const child of node.children) await walk(child);
    };
    await walk(top);
  }

  // ------------------------------------------------------------ files

  async function removeImages(keys: (string | null)[]) {
    const all = keys.flatMap((key) => (key ? imageFiles(key) : []));
    await Promise.allSettled(all.map((file) => storage.remove(file)));
  }

  async function removePaperFiles(keys: (string | null)[]) {
    await Promise.allSettled(keys.filter((k): k is string => !!k).map((key) => files.remove(key)));
  }

  /**
   * Checks a paper's file by its bytes, reads its text, and stores it privately under a fresh key
   * (in this order: a spooled upload is moved into place, after which it cannot be read).
   */
  async function storePaperFile(file: File, paperName: string): Promise<StoredPaperFile & { pages: TextPage[] }> {
    if (file.size === 0) throw invalidInput({ [FILE_FIELD]: ["The file is empty."] });
    const verdict = await paperTypeOf(new Uint8Array(await file.slice(0, PAPER_HEAD_BYTES).arrayBuffer()));
    if ("refused" in verdict) {
      throw new AppError("unsupported_media_type", verdict.refused, { errors: { [FILE_FIELD]: [verdict.refused] } });
    }
    const { type } = verdict;
    // The client's name only chooses between .xml and .xsd for XML; it is kept to show, never used as a path.
    const ext = type === "application/xml" && /\.xsd$/i.test(file.name) ? "xsd" : EXTENSIONS[type];
    const key = `papers/${randomBytes(8).toString("hex")}-${slugify(paperName, "paper").slice(0, 60)}.${ext}`;
    const pages = await textOf(file, type, paperName);
    // A spooled upload (PAPER_MAX_BYTES) is moved into place, never read into memory.
    const spooled = spooledPath(file);
    if (spooled) await files.putFile(key, spooled);
    else await files.putStream(key, Readable.fromWeb(file.stream() as import("node:stream/web").ReadableStream));
    const name = file.name ? file.name.replace(/[\\/]/g, "_").slice(0, 200) : null;
    return { key, type, size: file.size, name, pages };
  }

  /** The file's text page by page (what could be read of it: a problem is reported, never a refusal). */
  async function textOf(file: File, type: PaperType, paperName: string): Promise<TextPage[]> {
    const text = await readDocumentText(file, type);
    if (text.problem || text.truncated) {
      deps.onTextProblem?.(
        {
          reason: text.problem?.reason ?? "truncated",
          message: text.problem?.message ?? "",
          truncated: text.truncated,
        },
        paperName,
      );
    }
    return text.pages;
  }

  function paperColumns(data: PaperData) {
    return {
      papers_category_id: data.papers_category_id,
      name: data.name,
      description: data.description,
      meeting: data.meeting,
      number: data.number,
      organization: data.organization,
      reference: data.reference,
      revision: data.revision,
      version: data.version,
      date: data.date,
      publication_date: data.publication_date,
      forecast_date: data.forecast_date,
    };
  }

  async function checkCategoryOf(data: PaperData) {
    const category = isRowId(data.papers_category_id)
      ? await repository.findCategory(data.papers_category_id)
      : undefined;
    if (!category) throw invalidInput({ papers_category_id: ["The selected category does not exist."] });
  }

  /**
   * A chair changes papers in their groups' categories only (issue 36; admins and editors, `all`,
   * everywhere). Checked before anything is stored; an id that is no category is refused alike.
   */
  async function checkEditsIn(categoryId: number, edits: GroupsSeen) {
    if (edits === "all") return;
    const node = isRowId(categoryId) ? (await treeOn(db)).byId.get(categoryId) : undefined;
    if (!node || !editsGroups(edits, node.groupIds)) throw new AppError("forbidden", CHAIRS_OWN_CATEGORIES);
  }

  const publicFlag = (setting: PublicSetting) => (setting === "inherit" ? null : setting === "public" ? 1 : 0);

  /**
   * The category's own audience as sent (issue 36): `audience` when given, else `group_ids` when
   * given, else SPEC's is_public. A client that knows nothing of groups must not open a group's
   * category to every member by saving it: `current` is the category as it stands (on an update),
   * and with is_public left out its setting stays as it is; with is_public saying members-only, a
   * category for groups (its own or its parent's) stays for those groups.
   */
  async function audienceOfInput(
    data: CategoryData,
    on: ReturnType<typeof createLibraryRepository>,
    current?: CategoryNode,
  ): Promise<{ setting: PublicSetting; groups: readonly number[] | "keep" }> {
    const setting = data.audience ?? (data.group_ids?.length ? "groups" : undefined);
    if (setting === undefined) {
      if (data.is_public === undefined)
        return current ? { setting: publicSettingOf(current.row), groups: "keep" } : { setting: "inherit", groups: [] };
      if (data.is_public !== "members") return { setting: data.is_public, groups: [] };
      return { setting: "members", groups: current?.groupIds ?? [] };
    }
    if (setting !== "groups") return { setting, groups: [] };
    return { setting: "members", groups: await checkedAudienceGroups(data.group_ids, on.executor) };
  }

  function categoryColumns(data: CategoryData, setting: PublicSetting) {
    const content = data.content ? sanitizeRichText(data.content).trim() : "";
    return {
      name: data.name,
      title: data.title,
      title_description: data.title_description,
      description: data.description,
      content: content || null,
      view_type: data.view_type,
      is_active: data.is_active ? 1 : 0,
      is_public: publicFlag(setting),
    };
  }

  async function categoryAnswer(id: number): Promise<CategoryTree> {
    const tree = await treeOn(db);
    const node = tree.byId.get(id);
    if (!node) throw new AppError("not_found", CATEGORY_NOT_FOUND);
    const whole = (n: CategoryNode): CategoryTree => ({ ...toCategory(n), children: n.children.map(whole) });
    return whole(node);
  }

  return {
    /** The whole tree as admins see it (inactive categories too). */
    async tree(): Promise<CategoryTree[]> {
      const tree = await treeOn(db);
      const whole = (n: CategoryNode): CategoryTree => ({ ...toCategory(n), children: n.children.map(whole) });
      return tree.roots.map(whole);
    },

    category: categoryAnswer,

    /** SPEC §7 'POST /dashboard/papers-categories': a new last child of parent_id (or a new root). */
    async createCategory(data: CategoryCreateData, image: Uint8Array | null): Promise<CategoryTree> {
      if (data.parent_id !== null && !(await repository.findCategory(data.parent_id))) {
        throw invalidInput({ parent_id: ["The parent category does not exist."] });
      }
      const stored: StoredImage | null = image ? await storeImage(storage, "categories", image, "image") : null;
      const base = slugify(data.name, "category");
      const now = clock().toISOString();
      const slugsLike = (on: ReturnType<typeof createLibraryRepository>) => async (prefix: string) => [
        ...(await on.categorySlugsLike(prefix)),
        ...RESERVED_SLUGS.filter((r) => r === prefix || r.startsWith(`${prefix}-`)),
      ];
      for (let attempt = 0; ; attempt++) {
        let created: number;
        try {
          const id = await db.transaction().execute(async (trx) => {
            const on = createLibraryRepository(trx);
            const audience = await audienceOfInput(data, on);
            const tree = await treeOn(trx);
            const siblings = data.parent_id === null ? tree.roots : (tree.byId.get(data.parent_id)?.children ?? []);
            const inserted = await on.insertCategory({
              ...categoryColumns(data, audience.setting),
              parent_id: data.parent_id,
              slug: await freeSlug(slugsLike(on), base, attempt),
              is_root: data.parent_id === null ? 1 : 0,
              image: stored?.key ?? null,
              position: siblings.length === 0 ? 0 : Math.max(...siblings.map((s) => s.row.position)) + 1,
              created_at: now,
              updated_at: now,
            });
            if (audience.groups !== "keep") await on.setCategoryGroups(inserted.id, audience.groups);
            const node = (await treeOn(trx)).byId.get(inserted.id) as CategoryNode;
            await indexCategory(node, trx);
            await keepCategory(trx, inserted.id, { action: "create" });
            return inserted.id;
          });
          created = id;
        } catch (error) {
          const slugTaken = isUniqueViolation(error, { table: "paper_categories", column: "slug" });
          if (slugTaken && attempt + 1 < SLUG_ATTEMPTS) continue;
          await removeImages([stored?.key ?? null]);
          if (slugTaken) throw new AppError("conflict", "Another category took this name's address. Please try again.");
          throw error;
        }
        // Read after the commit, outside the try: a failed read must not remove a committed image.
        return categoryAnswer(created);
      }
    },

    /** SPEC §7 'POST /dashboard/papers-categories/{id}': every field but the parent; a new image replaces the old. */
    async updateCategory(id: number, data: CategoryData, image: Uint8Array | null): Promise<CategoryTree> {
      const before = await existingCategory(id);
      const stored: StoredImage | null = image ? await storeImage(storage, "categories", image, "image") : null;
      try {
        await db.transaction().execute(async (trx) => {
          const on = createLibraryRepository(trx);
          const audience = await audienceOfInput(data, on, (await treeOn(trx)).byId.get(id));
          await on.updateCategory(id, {
            ...categoryColumns(data, audience.setting),
            ...(stored ? { image: stored.key } : {}),
            updated_at: clock().toISOString(),
          });
          if (audience.groups !== "keep") await on.setCategoryGroups(id, audience.groups);
          // Its visibility and address may change its papers' and sub-categories' entries too.
          await reindexSubtree(id, trx);
          await keepCategory(trx, id, { before: categoryTexts(before) });
        });
      } catch (error) {
        await removeImages([stored?.key ?? null]);
        throw error;
      }
      if (stored) await removeImages([before.image]);
      return categoryAnswer(id);
    },

    /** A category's kept revisions, newest first, each with what changed (decision 0073). */
    async categoryRevisions(id: number): Promise<Revision[]> {
      await existingCategory(id);
      return deps.revisions ? deps.revisions.list("category", id, CATEGORY_REVISION_FIELDS) : [];
    },

    /** Puts a revision's texts back as a new save; the category keeps its place, visibility and image. */
    async restoreCategoryRevision(id: number, revisionId: number): Promise<CategoryTree> {
      const current = await existingCategory(id);
      if (!deps.revisions) throw new AppError("not_found", "Revision not found.");
      const kept = await deps.revisions.fields("category", id, revisionId);
      const texts = categoryTexts({
        ...categoryTexts(current),
        ...(kept as Partial<CategoryTexts>),
        name: kept.name ?? current.name,
      });
      await db.transaction().execute(async (trx) => {
        await createLibraryRepository(trx).updateCategory(id, { ...texts, updated_at: clock().toISOString() });
        await reindexSubtree(id, trx);
        await keepCategory(trx, id, { restoredFrom: revisionId });
      });
      return categoryAnswer(id);
    },

    /** Moves a category under another parent (or to the top), at a place among its new siblings. */
    async moveCategory(id: number, data: CategoryMoveData): Promise<CategoryTree> {
      await existingCategory(id);
      await db.transaction().execute(async (trx) => {
        const on = createLibraryRepository(trx);
        const tree = await treeOn(trx);
        const node = tree.byId.get(id) as CategoryNode;
        if (data.parent_id !== null) {
          const parent = tree.byId.get(data.parent_id);
          if (!parent) throw invalidInput({ parent_id: ["The parent category does not exist."] });
          for (let up: CategoryNode | null = parent; up; up = up.parent) {
            if (up.row.id === id) {
              throw invalidInput({
                parent_id: ["A category cannot be moved under itself or one of its sub-categories."],
              });
            }
          }
        }
        const now = clock().toISOString();
        const siblingsBefore = node.parent ? node.parent.children : tree.roots;
        const oldPosition = siblingsBefore.findIndex((n) => n.row.id === id);
        const oldSiblings = siblingsBefore.filter((n) => n.row.id !== id);
        const target = data.parent_id === null ? tree.roots : (tree.byId.get(data.parent_id) as CategoryNode).children;
        const newSiblings = target.filter((n) => n.row.id !== id).map((n) => n.row.id);
        const at = Math.min(data.position ?? newSiblings.length, newSiblings.length);
        newSiblings.splice(at, 0, id);
        await on.updateCategory(id, {
          parent_id: data.parent_id,
          is_root: data.parent_id === null ? 1 : 0,
          updated_at: now,
        });
        if (node.row.parent_id !== data.parent_id)
          await on.orderSiblings(
            oldSiblings.map((n) => n.row.id),
            now,
          );
        await on.orderSiblings(newSiblings, now);
        await reindexSubtree(id, trx);
        await deps.audit?.record(
          {
            action: "move",
            entity: "category",
            entityId: id,
            summary: `Category “${node.row.name}” moved`,
            before: { parent_id: node.row.parent_id, position: oldPosition },
            after: { parent_id: data.parent_id, position: at },
          },
          trx,
        );
      });
      return categoryAnswer(id);
    },

    /** SPEC §7 'POST /dashboard/papers-categories-delete/{id}': only an empty category. */
    async deleteCategory(id: number): Promise<void> {
      const row = await existingCategory(id);
      await db.transaction().execute(async (trx) => {
        const tree = await treeOn(trx);
        const node = tree.byId.get(id);
        if (!node) throw new AppError("not_found", CATEGORY_NOT_FOUND);
        if (node.children.length > 0) {
          throw invalidInput({ category: ["This category has sub-categories: move or delete them first."] });
        }
        if (node.papers > 0) throw invalidInput({ category: ["This category has papers: move or delete them first."] });
        await createLibraryRepository(trx).deleteCategory(id);
        await search.remove("category", id, trx);
        await deps.revisions?.removeAll(trx, "category", id);
      });
      await removeImages([row.image]);
    },

    /** SPEC §7 'POST /dashboard/papers': a paper with its file (checked by its bytes) and the file's text in search. */
    async createPaper(data: PaperData, file: File | null, edits: GroupsSeen = "all"): Promise<Paper> {
      await checkEditsIn(data.papers_category_id, edits);
      await checkCategoryOf(data);
      const stored = file ? await storePaperFile(file, data.name) : null;
      const pages = stored?.pages ?? [];
      const now = clock().toISOString();
      let id: number;
      try {
        id = await db.transaction().execute(async (trx) => {
          const on = createLibraryRepository(trx);
          const paper = await on.insertPaper({
            ...paperColumns(data),
            uploaded_file: stored?.key ?? null,
            file_type: stored?.type ?? null,
            file_size: stored?.size ?? null,
            file_name: stored?.name ?? null,
            created_at: now,
            updated_at: now,
          });
          const node = (await treeOn(trx)).byId.get(paper.papers_category_id) as CategoryNode;
          await indexPaper(paper, node, trx);
          const { inserted } = await on.replacePages(paper.id, pages);
          await indexPages(paper, node, inserted, trx);
          await deps.notify?.({ kind: "paper", ref_id: paper.id, category_id: paper.papers_category_id }, trx);
          await deps.audit?.record(
            {
              action: "create",
              entity: "paper",
              entityId: paper.id,
              summary: `Paper “${paper.name}” added`,
              after: paperAudited({ ...data, file_name: stored?.name ?? null }),
            },
            trx,
          );
          return paper.id;
        });
      } catch (error) {
        await removePaperFiles([stored?.key ?? null]);
        throw error;
      }
      return read.paper(id);
    },

    /**
     * SPEC §7 'POST /dashboard/papers/{id}' (PATCH): every field replaced. A new file becomes the
     * current one at the same address; the one it replaces is kept as a revision with the labels
     * (revision, version, date) it had.
     */
    async updatePaper(id: number, data: PaperData, file: File | null, edits: GroupsSeen = "all"): Promise<Paper> {
      const before = await existingPaper(id);
      // Where it is and where it goes: both the chair's groups'.
      await checkEditsIn(before.papers_category_id, edits);
      await checkEditsIn(data.papers_category_id, edits);
      await checkCategoryOf(data);
      const stored = file ? await storePaperFile(file, data.name) : null;
      const pages = stored?.pages ?? null;
      const now = clock().toISOString();
      try {
        await db.transaction().execute(async (trx) => {
          const on = createLibraryRepository(trx);
          if (stored && before.uploaded_file) {
            await on.insertRevision({
              paper_id: id,
              uploaded_file: before.uploaded_file,
              file_type: before.file_type,
              file_size: before.file_size,
              file_name: before.file_name,
              revision: before.revision,
              version: before.version,
              date: before.date,
              created_at: now,
            });
          }
          const paper = await on.updatePaper(id, {
            ...paperColumns(data),
            ...(stored
              ? { uploaded_file: stored.key, file_type: stored.type, file_size: stored.size, file_name: stored.name }
              : {}),
            updated_at: now,
          });
          const node = (await treeOn(trx)).byId.get(paper.papers_category_id) as CategoryNode;
          await indexPaper(paper, node, trx);
          if (pages) {
            const { removedIds, inserted } = await on.replacePages(id, pages);
            await search.removeAmong("paper_page", removedIds, trx);
            await indexPages(paper, node, inserted, trx);
          } else if (paper.papers_category_id !== before.papers_category_id || paper.name !== before.name) {
            // The pages' address, audience and shown title follow the paper.
            const kept = await on.pagesOf(id);
            await indexPages(paper, node, kept, trx);
          }
          // A new file is a new revision: its followers hear of it (a change of the fields alone is not).
          if (stored) await deps.notify?.({ kind: "revision", ref_id: id, category_id: paper.papers_category_id }, trx);
          await deps.audit?.record(
            {
              action: "update",
              entity: "paper",
              entityId: id,
              summary: stored ? `Paper “${paper.name}” changed, with a new file` : `Paper “${paper.name}” changed`,
              before: paperAudited(before),
              after: paperAudited({ ...data, file_name: stored?.name ?? before.file_name }),
            },
            trx,
          );
        });
      } catch (error) {
        await removePaperFiles([stored?.key ?? null]);
        throw error;
      }
      return read.paper(id);
    },

    /** SPEC §7 'DELETE /dashboard/papers/{id}': the paper, its revisions, text and files. */
    async deletePaper(id: number, edits: GroupsSeen = "all"): Promise<void> {
      const before = await existingPaper(id);
      await checkEditsIn(before.papers_category_id, edits);
      const keys = await db.transaction().execute(async (trx) => {
        const on = createLibraryRepository(trx);
        const keys = await on.fileKeysOf(id);
        await search.removeAmong("paper_page", await on.pageIdsOf(id), trx);
        await search.remove("paper", id, trx);
        await on.deletePaper(id);
        await deps.audit?.record(
          {
            action: "delete",
            entity: "paper",
            entityId: id,
            summary: `Paper “${before.name}” deleted`,
            before: paperAudited(before),
          },
          trx,
        );
        return keys;
      });
      await removePaperFiles(keys);
    },

    /**
     * Papers stored before migration 0009 (their files moved out of the uploads at start): their
     * file's type and size from its bytes, and its text in search. Runs in the background at start,
     * a paper at a time; a second run finds nothing left to do.
     */
    async completeEarlierPapers(): Promise<number> {
      let done = 0;
      for (let after = 0; ; ) {
        const rows = await repository.papersWithoutFileFacts(after, 50);
        for (const paper of rows) {
          after = paper.id;
          const key = paper.uploaded_file as string;
          const stat = await files.stat(key).catch(() => null);
          if (!stat || stat.size === 0) continue;
          const head = await readAll(files.open(key, { start: 0, end: Math.min(stat.size, PAPER_HEAD_BYTES) - 1 }));
          const verdict = await paperTypeOf(head);
          // Bytes of no accepted type are recorded as such (served as a plain download), never guessed.
          const type: PaperType | "application/octet-stream" =
            "type" in verdict ? verdict.type : "application/octet-stream";
          const pages =
            type === "application/octet-stream"
              ? []
              : (await readDocumentText(new File([await readAll(files.open(key))], key, { type }), type)).pages;
          await db.transaction().execute(async (trx) => {
            const on = createLibraryRepository(trx);
            await on.setFileFacts(paper.id, { file_type: type, file_size: stat.size });
            const node = (await treeOn(trx)).byId.get(paper.papers_category_id) as CategoryNode;
            const { removedIds, inserted } = await on.replacePages(paper.id, pages);
            await search.removeAmong("paper_page", removedIds, trx);
            await indexPaper(paper, node, trx);
            await indexPages(paper, node, inserted, trx);
          });
          done++;
        }
        if (rows.length < 50) return done;
      }
    },

    /** Removes one earlier file of a paper. */
    async deleteRevision(paperId: number, revisionId: number, edits: GroupsSeen = "all"): Promise<Paper> {
      const revision =
        isRowId(paperId) && isRowId(revisionId) ? await repository.findRevision(paperId, revisionId) : undefined;
      if (!revision) throw new AppError("not_found", "Revision not found.");
      await checkEditsIn((await existingPaper(paperId)).papers_category_id, edits);
      await db.transaction().execute(async (trx) => {
        await createLibraryRepository(trx).deleteRevision(revisionId);
        await deps.audit?.record(
          {
            action: "revision_deleted",
            entity: "paper",
            entityId: paperId,
            summary: `An earlier file of paper #${paperId} deleted (${revision.file_name ?? "no name"})`,
            before: {
              file: revision.file_name,
              revision: revision.revision,
              version: revision.version,
              date: revision.date,
            },
          },
          trx,
        );
      });
      await removePaperFiles([revision.uploaded_file]);
      return read.paper(paperId);
    },

    /** The admin's list of a category's papers: as members see it, inactive categories included. */
    papers: (categoryId: number, query: Parameters<LibraryService["papersByCategory"]>[1], page: number) =>
      read.papersByCategory(categoryId, query, page, admin),
  };
}
export type LibraryAdminService = ReturnType<typeof createLibraryAdminService>;
