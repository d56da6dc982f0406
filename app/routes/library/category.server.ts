import { data, redirect } from "react-router";
import { groupsOf, hasMembersAccess } from "../../../core/access/access";
import { type Breadcrumb, type CategoryTree, papersQuerySchema } from "../../../core/library/library.schema";
import type { Viewer } from "../../../core/library/library.values";
import type { RequestContext } from "../../../core/request-context";
import { isAppError } from "../../../lib/errors";
import { lenientPageSchema } from "../../../lib/pagination";
import { type CategoryScreen, LIBRARY_HOME, type LibraryArea, type PaperList } from "../../components/library/screen";

/**
 * The library's category screen, shared by the members' area (/dashboard/{slug}) and the public
 * library (/library/{slug}). What a list shows lives in the URL, so that it works without
 * JavaScript and can be shared:
 *
 *   ?tab=<slug>     the open tab (a category whose children show as tabs)
 *   ?list=<slug>    the list that search, sort and page apply to; by default the open tab's,
 *                   else the category's own (an accordion section named here is opened)
 *   ?search=<text>  ?sort=<value>  ?page=<n>
 *
 * A sort the list does not offer (an old or edited link) shows the list in its default order with a
 * notice, never an error page: the reader still gets the documents (see `badSort`).
 */

const notFound = () => data("This page could not be found", { status: 404 });

function isNotFound(error: unknown) {
  return isAppError(error) && error.code === "not_found";
}

export async function loadCategoryScreen(
  ctx: RequestContext,
  slug: string,
  url: URL,
  area: LibraryArea,
): Promise<CategoryScreen | Response> {
  const { library } = ctx.services;
  // The public library reads as a visitor for everyone: one page for all, cacheable for visitors.
  // The members' area shows the live library (no inactive categories, even to admins) with the
  // caller's groups' categories (every group's for admins and editors).
  const viewer: Viewer =
    area === "members" ? { signedIn: hasMembersAccess(ctx.auth), groups: groupsOf(ctx.auth) } : { signedIn: false };
  let category: CategoryTree;
  let breadcrumbs: Breadcrumb[];
  try {
    ({ category, breadcrumbs } = await library.categoryWithBreadcrumbs(slug, viewer));
  } catch (error) {
    if (!isNotFound(error)) throw error;
    // A member following a public link to a members-only category reads it in the members' area;
    // a visitor never learns it exists.
    if (area === "public" && hasMembersAccess(ctx.auth)) {
      const members = await library
        .categoryBySlug(slug, { signedIn: true, groups: groupsOf(ctx.auth) })
        .catch((e: unknown) => {
          if (isNotFound(e)) return null;
          throw e;
        });
      if (members) return redirect(`${LIBRARY_HOME.members}/${members.slug}`);
    }
    throw notFound();
  }

  const params = url.searchParams;
  const children = category.children;
  const tabs = category.children_display === "tabs" && children.length > 0;
  const openTab = tabs ? (children.find((c) => c.slug === params.get("tab")) ?? children[0]) : null;

  // The categories whose papers are on the screen: its own, then the open tab or every section.
  const shown: CategoryTree[] = [];
  if (category.papers_count > 0) shown.push(category);
  for (const child of openTab ? [openTab] : tabs ? [] : children) if (child.papers_count > 0) shown.push(child);

  const defaultList = openTab && openTab.papers_count > 0 ? openTab.slug : category.papers_count > 0 ? slug : null;
  const namedList = shown.find((c) => c.slug === params.get("list"))?.slug ?? null;
  const named = namedList ?? defaultList;

  const lists: Record<string, PaperList> = {};
  await Promise.all(
    shown.map(async (listed) => {
      const active = listed.slug === named;
      const query = papersQuerySchema.parse({ search: active ? params.get("search") : "" });
      const asked = active ? params.get("sort") : null;
      const offered = asked !== null && listed.sort_options.some((o) => o.value === asked);
      const page = active ? lenientPageSchema.parse(params.get("page") ?? undefined) : 1;
      lists[listed.slug] = {
        slug: listed.slug,
        page: await library.papersByCategory(
          listed.id,
          { search: query.search, sortBy: offered ? asked : listed.default_sort },
          page,
          viewer,
        ),
        search: query.search,
        badSort: asked && !offered ? asked.slice(0, 40) : null,
      };
    }),
  );

  return {
    area,
    home: LIBRARY_HOME[area],
    category,
    breadcrumbs,
    tab: openTab?.slug ?? null,
    defaultList,
    namedList,
    lists,
    page: named ? (lists[named]?.page ?? null) : null,
  };
}
