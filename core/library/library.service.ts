import type { Readable } from "node:stream";
import { fileTypeFromBuffer } from "file-type";
import { AppError, fileStoreUnavailable } from "../../lib/errors";
import { sanitizeRichText } from "../../lib/html";
import { isRowId } from "../../lib/ids";
import { type Page, pageOf } from "../../lib/pagination";
import type { FileStat, ReadableFileStorage } from "../../lib/storage";
import { uploadUrl } from "../../lib/uploads";
import { invalidInput } from "../../lib/validation";
import { type Audience, seesGroups } from "../access/access";
import type { GroupContent } from "../groups/groups.schema";
import type { SearchService } from "../search/search.service";
import type { CategoryRow, LibraryRepository, PaperRow, RevisionRow } from "./library.repository";
import {
  type AudienceSetting,
  type Breadcrumb,
  type Category,
  type CategoryTree,
  categoryUrl,
  childrenDisplay,
  defaultSort,
  PAPER_TYPES,
  PAPERS_PER_PAGE,
  type Paper,
  type PaperAccess,
  type PapersQuery,
  type PublicSetting,
  paperDownloadUrl,
  paperTypeLabel,
  paperViewUrl,
  type Revision,
  revisionDownloadUrl,
  type SortValue,
  sortColumn,
  sortOptions,
  VIEW_TYPES,
  type Viewer,
  type ViewType,
} from "./library.schema";

/** Bytes file-type needs to recognise every format it knows. */
const SNIFF_BYTES = 4100;

/** Content types a paper's file is served as, by what its bytes are (never by its name). */
const SERVED_TYPES = new Set<string>(Object.keys(PAPER_TYPES));

export const CATEGORY_NOT_FOUND = "Category not found.";
export const PAPER_NOT_FOUND = "Paper not found.";

/**
 * Who may download a paper's file: anyone for a public category's paper; for the rest, members
 * (and, in a group's category, that group's members; admins and editors all).
 */
export function canDownload(paper: PaperAccess, viewer: Viewer): boolean {
  return paper.isPublic || seesGroups(viewer, paper.groupIds);
}

/** A category in the tree, with what it inherits from its ancestors. */
/** How much of a paper's text a notice quotes: its first lines. */
const NOTICE_EXCERPT = 240;

/** A paper as a notice or digest lists it (issue 33). */
export type NoticePaper = {
  id: number;
  name: string;
  number: string | null;
  revision: string | null;
  category: { id: number; name: string; url: string };
  file_url: string | null;
  excerpt: string;
  /** The working groups its category is for (null: every member, or public): who of the members may hear of it. */
  group_ids: readonly number[] | null;
};

export type CategoryNode = {
  row: CategoryRow;
  parent: CategoryNode | null;
  children: CategoryNode[];
  /** Its own setting, or its nearest ancestor's; members-only at the top. */
  isPublic: boolean;
  /** Active, and so are all its ancestors: what members see. */
  isLive: boolean;
  /**
   * The working groups it is for (its own, or its nearest ancestor's when it inherits); null when
   * it is for every member (or public). Issue 36.
   */
  groupIds: number[] | null;
  papers: number;
};

export type LibraryTree = {
  nodes: CategoryNode[];
  byId: Map<number, CategoryNode>;
  bySlug: Map<string, CategoryNode>;
  roots: CategoryNode[];
};

/**
 * Builds the tree from its rows (any order); a row whose parent is missing is taken as a root.
 * `groups`: each category's own working groups (category_groups), for those that have any.
 */
export function buildTree(
  rows: CategoryRow[],
  counts: Map<number, number>,
  groups: Map<number, number[]> = new Map(),
): LibraryTree {
  const byId = new Map<number, CategoryNode>();
  for (const row of rows) {
    byId.set(row.id, {
      row,
      parent: null,
      children: [],
      isPublic: false,
      isLive: false,
      groupIds: null,
      papers: counts.get(row.id) ?? 0,
    });
  }
  const roots: CategoryNode[] = [];
  for (const node of byId.values()) {
    const parent = node.row.parent_id === null ? undefined : byId.get(node.row.parent_id);
    if (parent) {
      node.parent = parent;
      parent.children.push(node);
    } else roots.push(node);
  }
  const order = (a: CategoryNode, b: CategoryNode) => a.row.position - b.row.position || a.row.id - b.row.id;
  const settle = (node: CategoryNode, parent: CategoryNode | null) => {
    const inherits = node.row.is_public === null;
    node.isPublic = inherits ? (parent?.isPublic ?? false) : node.row.is_public === 1;
    // A members' category's own groups; one that inherits takes its parent's audience whole.
    node.groupIds = inherits ? (parent?.groupIds ?? null) : node.isPublic ? null : (groups.get(node.row.id) ?? null);
    node.isLive = (parent?.isLive ?? true) && node.row.is_active === 1;
    node.children.sort(order);
    for (const child of node.children) settle(child, node);
  };
  roots.sort(order);
  for (const root of roots) settle(root, null);
  const nodes = [...byId.values()];
  return { nodes, byId, bySlug: new Map(nodes.map((n) => [n.row.slug, n])), roots };
}

/** A group's live categories, the highest of each branch (their sub-categories inherit), as its members see them. */
function groupRoots(nodes: CategoryNode[], groupId: number): { viewer: Viewer; own: CategoryNode[] } {
  const viewer: Viewer = { signedIn: true, groups: [groupId] };
  const forGroup = (node: CategoryNode) => node.groupIds?.includes(groupId) === true && canSee(node, viewer);
  return { viewer, own: nodes.filter((node) => forGroup(node) && !(node.parent && forGroup(node.parent))) };
}

/** Papers in a category's feed: the last ones added or changed. */
export const FEED_PAPERS = 50;

/**
 * Whether this viewer may see the category: admins and editors all; visitors the live public ones;
 * members the live ones that are public, for all members, or for a group of theirs.
 */
export function canSee(node: CategoryNode, viewer: Viewer): boolean {
  if (viewer.admin) return true;
  if (!node.isLive) return false;
  return node.isPublic || seesGroups(viewer, node.groupIds);
}

/** Who a category is for, in effect: visitors, every member, or the members of some groups. */
export function audienceOf(node: CategoryNode): Audience {
  return node.isPublic ? "public" : node.groupIds ? "groups" : "members";
}

export function publicSettingOf(row: CategoryRow): PublicSetting {
  return row.is_public === null ? "inherit" : row.is_public === 1 ? "public" : "members";
}

/** The category's own audience setting: inherit, public, members, or groups (it has groups of its own). */
export function audienceSettingOf(node: CategoryNode): AudienceSetting {
  const own = publicSettingOf(node.row);
  return own === "members" && node.groupIds !== null ? "groups" : own;
}

/** The path to a category from the highest ancestor this viewer may see, the category last. */
function pathTo(node: CategoryNode, viewer: Viewer): Breadcrumb[] {
  const path: Breadcrumb[] = [];
  for (let step: CategoryNode | null = node; step && canSee(step, viewer); step = step.parent) {
    path.unshift({ id: step.row.id, name: step.row.name, slug: step.row.slug });
  }
  return path;
}

export function toCategory(node: CategoryNode): Category {
  const { row } = node;
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    title: row.title,
    title_description: row.title_description,
    description: row.description,
    // Sanitized on write, and again on the way out, as every rich text (rule 9).
    content: row.content ? sanitizeRichText(row.content) : null,
    view_type: (VIEW_TYPES as readonly string[]).includes(row.view_type ?? "") ? (row.view_type as ViewType) : null,
    parent_id: row.parent_id,
    is_active: row.is_active === 1,
    is_public: node.isPublic,
    public_setting: publicSettingOf(row),
    audience: audienceOf(node),
    audience_setting: audienceSettingOf(node),
    group_ids: node.groupIds ?? [],
    is_root: node.parent === null,
    image: uploadUrl(row.image),
    position: row.position,
    url: categoryUrl(row.slug, node.isPublic),
    children_display: childrenDisplay(row.view_type),
    sort_options: sortOptions(row.view_type),
    default_sort: defaultSort(row.view_type),
    papers_count: node.papers,
  };
}

function toTree(node: CategoryNode, viewer: Viewer): CategoryTree {
  return {
    ...toCategory(node),
    children: node.children.filter((child) => canSee(child, viewer)).map((child) => toTree(child, viewer)),
  };
}

function fileOf(url: string, type: string | null, size: number | null) {
  return { url, type: type ?? "application/octet-stream", label: paperTypeLabel(type), size };
}

export function toRevision(paperId: number, row: RevisionRow): Revision {
  return {
    id: row.id,
    revision: row.revision,
    version: row.version,
    date: row.date,
    replaced_at: row.created_at,
    file: fileOf(revisionDownloadUrl(paperId, row.id), row.file_type, row.file_size),
  };
}

export function toPaper(row: PaperRow, revisions: RevisionRow[], match: Paper["match"] = null): Paper {
  const url = row.uploaded_file ? paperDownloadUrl(row.id) : null;
  return {
    id: row.id,
    papers_category_id: row.papers_category_id,
    name: row.name,
    meeting: row.meeting,
    description: row.description,
    number: row.number,
    organization: row.organization,
    reference: row.reference,
    revision: row.revision,
    version: row.version,
    date: row.date,
    publication_date: row.publication_date,
    forecast_date: row.forecast_date,
    uploaded_file: url,
    file: url ? fileOf(url, row.file_type, row.file_size) : null,
    revisions: revisions.filter((r) => r.paper_id === row.id).map((r) => toRevision(row.id, r)),
    match,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export type PaperDownload = {
  key: string;
  /** The name the browser saves it as: the paper's number and name (and revision), and the extension of its type. */
  fileName: string;
  contentType: string;
  stat: FileStat;
  /** Whether visitors may have it too (public caching rules apply). */
  isPublic: boolean;
  open: (range?: { start: number; end: number }) => Readable;
};

/** A stream's bytes, whole: a file's head, or (start-up backfill) a small stored file. */
export async function readAll(stream: Readable): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

/** The library as visitors, members and admins read it (issue 14; decisions 0024 and 0025). */
export function createLibraryService(deps: {
  repository: LibraryRepository;
  files: ReadableFileStorage;
  search: SearchService;
}) {
  const { repository, files, search } = deps;

  /** The tree; with the papers' counts only where an answer shows them (counting reads every paper's index entry). */
  async function tree(options: { counts?: boolean } = { counts: true }): Promise<LibraryTree> {
    const [rows, counts, groups] = await Promise.all([
      repository.allCategories(),
      options.counts ? repository.paperCounts() : Promise.resolve([]),
      repository.categoryGroups(),
    ]);
    return buildTree(rows, new Map(counts.map((c) => [c.papers_category_id, Number(c.n)])), groups);
  }
  const bare = () => tree({ counts: false });

  /** A category this viewer may see, or the 404 (never a 401: that would tell a members-only slug exists). */
  function visible(node: CategoryNode | undefined, viewer: Viewer): CategoryNode {
    if (!node || !canSee(node, viewer)) throw new AppError("not_found", CATEGORY_NOT_FOUND);
    return node;
  }

  async function nodeBySlug(slug: string, viewer: Viewer) {
    return visible((await tree()).bySlug.get(slug), viewer);
  }

  /**
   * The newest papers of these categories and of their sub-categories that this viewer may see
   * (a feed's entries, issue 33): a category the viewer may not see is left out with its branch.
   */
  async function latestUnder(roots: CategoryNode[], viewer: Viewer, limit: number): Promise<Paper[]> {
    const ids = new Set<number>();
    const walk = (node: CategoryNode) => {
      if (!canSee(node, viewer) || ids.has(node.row.id)) return;
      ids.add(node.row.id);
      for (const child of node.children) walk(child);
    };
    for (const root of roots) walk(root);
    const rows = await repository.recentPapers([...ids], limit);
    const revisions = await repository.revisionsOf(rows.map((r) => r.id));
    return rows.map((row) => toPaper(row, revisions));
  }

  async function download(
    key: string | null,
    categoryId: number,
    baseName: string,
    viewer: Viewer,
    storedType: string | null,
  ): Promise<PaperDownload | null> {
    if (!key) return null;
    const node = (await bare()).byId.get(categoryId);
    if (!node || !canSee(node, viewer)) return null;
    if (!canDownload({ isPublic: node.isPublic, groupIds: node.groupIds }, viewer)) return null;
    // Missing is a 404 like any paper the viewer may not have; a store that fails is said as such.
    const stat = await files.stat(key).catch((error) => {
      throw fileStoreUnavailable(error);
    });
    if (!stat) return null;
    const file = (contentType: string, ext: string): PaperDownload => ({
      key,
      fileName: `${baseName}.${ext}`,
      contentType,
      stat,
      isPublic: node.isPublic,
      open: (range) => files.open(key, range),
    });
    // Checked by its bytes when it was stored (its key carries the extension): served as recorded.
    const keyExt = /\.([a-z0-9]{1,5})$/.exec(key)?.[1];
    if (storedType && SERVED_TYPES.has(storedType) && keyExt) return file(storedType, keyExt);
    // Files from before their type was recorded (migration 0009) are sniffed. Gone since the stat
    // (deleted meanwhile) is a 404 like a missing file; a store failing now, a 503 as above.
    let head = new Uint8Array();
    if (stat.size > 0) {
      try {
        head = await readAll(files.open(key, { start: 0, end: Math.min(stat.size, SNIFF_BYTES) - 1 }));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw fileStoreUnavailable(error);
      }
    }
    const sniffed = await fileTypeFromBuffer(head);
    const served = sniffed && SERVED_TYPES.has(sniffed.mime);
    // XML without a declaration (an XSD starting at <xs:schema>) is not known to file-type: its stored name says .xml/.xsd.
    const xml = !served && /\.(xml|xsd)$/.test(key) && /^\s*</.test(new TextDecoder().decode(head.subarray(0, 64)));
    const contentType = served ? sniffed.mime : xml ? "application/xml" : "application/octet-stream";
    return file(contentType, served ? sniffed.ext : (keyExt ?? "bin"));
  }

  return {
    tree,

    /**
     * The library's top level for this viewer: the root categories for members; for visitors,
     * the highest public categories (a public category under a members-only one stands on its own).
     */
    async rootCategories(viewer: Viewer): Promise<Category[]> {
      const { nodes, roots } = await tree();
      if (viewer.signedIn) return roots.filter((n) => canSee(n, viewer)).map(toCategory);
      const tops = nodes.filter((n) => canSee(n, viewer) && !(n.parent && canSee(n.parent, viewer)));
      // In tree order: depth first, as the admin's tree lists them.
      const order = new Map<number, number>();
      const walk = (list: CategoryNode[]) => {
        for (const n of list) {
          order.set(n.row.id, order.size);
          walk(n.children);
        }
      };
      walk(roots);
      return tops.sort((a, b) => (order.get(a.row.id) ?? 0) - (order.get(b.row.id) ?? 0)).map(toCategory);
    },

    /** The public library's pages for the sitemap: every category a visitor may read, never a members-only one. */
    async sitemapEntries(): Promise<{ slug: string; updated_at: string }[]> {
      const { nodes } = await bare();
      return nodes
        .filter((n) => canSee(n, { signedIn: false }))
        .map((n) => ({ slug: n.row.slug, updated_at: n.row.updated_at }));
    },

    /** SPEC §7 getCategoryBySlug: the category with its visible children, nested. */
    async categoryBySlug(slug: string, viewer: Viewer): Promise<CategoryTree> {
      return toTree(await nodeBySlug(slug, viewer), viewer);
    },

    /** SPEC §7 getChildCategoryBySlug / getTabCategoryBySlug: the category's visible children. */
    async childrenBySlug(slug: string, viewer: Viewer): Promise<Category[]> {
      const node = await nodeBySlug(slug, viewer);
      return node.children.filter((child) => canSee(child, viewer)).map(toCategory);
    },

    /** SPEC §3 'Breadcrumbs': the path to the category from the highest ancestor this viewer may see. */
    async breadcrumbs(slug: string, viewer: Viewer): Promise<Breadcrumb[]> {
      return pathTo(visible((await bare()).bySlug.get(slug), viewer), viewer);
    },

    /** A category's screen: the category with its children and its breadcrumbs, from one read of the tree. */
    async categoryWithBreadcrumbs(slug: string, viewer: Viewer) {
      const node = await nodeBySlug(slug, viewer);
      return { category: toTree(node, viewer), breadcrumbs: pathTo(node, viewer) };
    },

    /**
     * SPEC §7 getPapersByCategory: one page of a category's papers, searched (inside the documents
     * too) and sorted by one of its view's options; another sort is a 422.
     */
    async papersByCategory(
      categoryId: number,
      query: PapersQuery,
      page: number,
      viewer: Viewer,
    ): Promise<Page<Paper> & { sort: SortValue }> {
      const node = visible(isRowId(categoryId) ? (await bare()).byId.get(categoryId) : undefined, viewer);
      const viewType = node.row.view_type;
      const options = sortOptions(viewType);
      const sort = (query.sortBy ?? defaultSort(viewType)) as SortValue;
      if (!options.some((o) => o.value === sort)) {
        throw invalidInput({ sortBy: [`The sort must be one of: ${options.map((o) => o.value).join(", ")}.`] });
      }
      const matching = query.search
        ? {
            fields: search.matchingIds("paper", query.search),
            pages: search.matchingIds("paper_page", query.search),
          }
        : null;
      const { rows, total } = await repository.papersPage({
        categoryId,
        order: { column: sortColumn(viewType, sort), direction: sort.endsWith("_desc") ? "desc" : "asc" },
        matching,
        limit: PAPERS_PER_PAGE,
        offset: (page - 1) * PAPERS_PER_PAGE,
      });
      const ids = rows.map((r) => r.id);
      const [revisions, matches] = await Promise.all([
        repository.revisionsOf(ids),
        query.search ? matchesOf(ids, query.search) : new Map<number, Paper["match"]>(),
      ]);
      return {
        ...pageOf(
          rows.map((row) => toPaper(row, revisions, matches.get(row.id) ?? null)),
          page,
          PAPERS_PER_PAGE,
          total,
        ),
        sort,
      };
    },

    /** Whether this viewer may see the category with this id (what a member may follow, issue 33). */
    async canSeeCategory(id: number, viewer: Viewer): Promise<boolean> {
      const node = isRowId(id) ? (await bare()).byId.get(id) : undefined;
      return node !== undefined && canSee(node, viewer);
    },

    /** Every category this viewer may see, in the tree's order, each named with its path: what they may follow. */
    async followableCategories(viewer: Viewer): Promise<{ id: number; name: string }[]> {
      const { roots } = await bare();
      const list: { id: number; name: string }[] = [];
      const walk = (node: CategoryNode, path: string) => {
        if (!canSee(node, viewer)) return;
        const name = path ? `${path} › ${node.row.name}` : node.row.name;
        list.push({ id: node.row.id, name });
        for (const child of node.children) walk(child, name);
      };
      for (const root of roots) walk(root, "");
      return list;
    },

    /**
     * A member's private feed (issue 33): the papers last added or changed in the categories they
     * follow and the sub-categories of those, as far as this viewer may see them, newest first.
     */
    async followedPapers(categoryIds: number[], viewer: Viewer, limit = FEED_PAPERS): Promise<Paper[]> {
      const { byId } = await bare();
      return latestUnder(
        categoryIds.flatMap((id) => byId.get(id) ?? []),
        viewer,
        limit,
      );
    },

    /**
     * What of the library is for a working group (its page, issue 36): the live categories set for
     * it (the highest of a branch; their sub-categories inherit it) and their latest papers.
     */
    async groupLibrary(groupId: number, limit: number): Promise<Pick<GroupContent, "categories" | "papers">> {
      const { nodes, byId } = await tree();
      const { viewer, own } = groupRoots(nodes, groupId);
      const papers = await latestUnder(own, viewer, limit);
      return {
        categories: own.map((node) => ({
          id: node.row.id,
          name: node.row.name,
          slug: node.row.slug,
          url: categoryUrl(node.row.slug, node.isPublic),
          papers_count: node.papers,
        })),
        papers: papers.map((paper) => {
          const node = byId.get(paper.papers_category_id);
          return {
            id: paper.id,
            name: paper.name,
            number: paper.number,
            category: {
              id: paper.papers_category_id,
              name: node?.row.name ?? "",
              url: node ? categoryUrl(node.row.slug, node.isPublic) : "",
            },
            file_url: paper.uploaded_file,
            updated_at: paper.updated_at,
          };
        }),
      };
    },

    /** The group's categories with their sub-categories for it, as trees: where its chairs may add papers. */
    async groupTrees(groupId: number): Promise<CategoryTree[]> {
      const { viewer, own } = groupRoots((await tree()).nodes, groupId);
      const forGroup = (node: CategoryNode): CategoryTree => ({
        ...toCategory(node),
        children: node.children.filter((c) => c.groupIds?.includes(groupId) && canSee(c, viewer)).map(forGroup),
      });
      return own.map(forGroup);
    },

    /** The category and its ancestors, nearest first: the follows a paper in it reaches (issue 33). */
    async categoryLineage(id: number): Promise<number[]> {
      const ids: number[] = [];
      for (let node = (await bare()).byId.get(id); node; node = node.parent ?? undefined) ids.push(node.row.id);
      return ids;
    },

    /**
     * Papers as a notice or digest lists them (issue 33), read when it is sent: those that still
     * exist and that this viewer may see now, with their category and the first words of their text.
     */
    async noticePapers(ids: number[], viewer: Viewer): Promise<NoticePaper[]> {
      if (ids.length === 0) return [];
      const { byId } = await bare();
      const rows = await repository.papersByIds(ids);
      const texts = new Map((await repository.firstPageTexts(rows.map((r) => r.id))).map((r) => [r.paper_id, r.text]));
      const papers: NoticePaper[] = [];
      for (const row of rows) {
        const node = byId.get(row.papers_category_id);
        if (!node || !canSee(node, viewer)) continue;
        const text = (row.description?.trim() || texts.get(row.id) || "").replace(/\s+/g, " ").trim();
        papers.push({
          id: row.id,
          name: row.name,
          number: row.number,
          revision: row.revision,
          category: { id: node.row.id, name: node.row.name, url: categoryUrl(node.row.slug, node.isPublic) },
          file_url: row.uploaded_file ? paperDownloadUrl(row.id) : null,
          excerpt: text.length > NOTICE_EXCERPT ? `${text.slice(0, NOTICE_EXCERPT).replace(/\s+\S*$/, "")}…` : text,
          group_ids: node.isPublic ? null : node.groupIds,
        });
      }
      return papers;
    },

    /**
     * A category's feed (issue 33): the category, and the papers last added or changed in it and in
     * the sub-categories this viewer may see, newest first.
     */
    async recentPapers(
      slug: string,
      viewer: Viewer,
      limit = FEED_PAPERS,
    ): Promise<{ category: Category; papers: Paper[] }> {
      const node = await nodeBySlug(slug, viewer);
      return { category: toCategory(node), papers: await latestUnder([node], viewer, limit) };
    },

    /** A paper as its admin reads it, with its revisions. */
    async paper(id: number): Promise<Paper> {
      const row = isRowId(id) ? await repository.findPaper(id) : undefined;
      if (!row) throw new AppError("not_found", PAPER_NOT_FOUND);
      return toPaper(row, await repository.revisionsOf([id]));
    },

    /**
     * A paper's current file for this viewer, or null when the paper does not exist, has no file,
     * or the viewer may not have it: the caller answers 404 to all three alike, so that nothing
     * tells whether the id exists.
     */
    async paperDownload(id: number, viewer: Viewer): Promise<PaperDownload | null> {
      const paper = isRowId(id) ? await repository.findPaperFile(id) : undefined;
      if (!paper) return null;
      const base = [paper.number, paper.name].filter(Boolean).join(" ");
      return download(paper.uploaded_file, paper.papers_category_id, base, viewer, paper.file_type);
    },

    /** An earlier file of a paper, by the same rules, at its own address. */
    async revisionDownload(paperId: number, revisionId: number, viewer: Viewer): Promise<PaperDownload | null> {
      if (!isRowId(paperId) || !isRowId(revisionId)) return null;
      const [paper, revision] = await Promise.all([
        repository.findPaperFile(paperId),
        repository.findRevision(paperId, revisionId),
      ]);
      if (!paper || !revision) return null;
      const label = revision.revision ?? revision.version ?? revision.date;
      const base = [paper.number, paper.name, label].filter(Boolean).join(" ");
      return download(revision.uploaded_file, paper.papers_category_id, base, viewer, revision.file_type);
    },
  };

  /** Where a searched list found each paper: the best page inside its document, else its fields. */
  async function matchesOf(ids: number[], searchQuery: string): Promise<Map<number, Paper["match"]>> {
    const found = new Map<number, Paper["match"]>();
    if (ids.length === 0) return found;
    const pageHits = await search.hitsAmong("paper_page", repository.pageRefsOf(ids), searchQuery, 200);
    const pages = new Map(
      (await repository.pagesById(pageHits.map((h) => Number(h.refId)))).map((p) => [String(p.id), p]),
    );
    for (const hit of pageHits) {
      const page = pages.get(hit.refId);
      if (!page || found.has(page.paper_id)) continue;
      found.set(page.paper_id, { page: page.page, snippet: hit.snippet, url: paperViewUrl(page.paper_id, page.page) });
    }
    return found;
  }
}

export type LibraryService = ReturnType<typeof createLibraryService>;
