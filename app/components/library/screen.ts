import type { Breadcrumb, CategoryTree, Paper, SortValue } from "../../../core/library/library.schema";
import type { Page } from "../../../lib/pagination";

/** What the library's category screen is given (app/routes/library/category.server.ts builds it). */
export type LibraryArea = "members" | "public";
export const LIBRARY_HOME: Record<LibraryArea, string> = { members: "/dashboard", public: "/library" };

/** One list of papers on the screen: a category's own, a tab's or an accordion section's. */
export type PaperList = {
  slug: string;
  page: Page<Paper> & { sort: SortValue };
  search: string;
  /** The sort the URL asked for when the list does not offer it. */
  badSort: string | null;
};

export type CategoryScreen = {
  area: LibraryArea;
  /** The address of the library's home and of its category pages (`${home}/${slug}`). */
  home: string;
  category: CategoryTree;
  breadcrumbs: Breadcrumb[];
  /** The open tab's slug, when the children show as tabs. */
  tab: string | null;
  /** The list the URL's search, sort and page apply to when it names none. */
  defaultList: string | null;
  /** The list the URL names (?list=), when it is one on the screen. */
  namedList: string | null;
  /** The lists on the screen, by the slug of their category. */
  lists: Record<string, PaperList>;
  /** The named list's page: what load-more's fetcher reads from this loader (useLoadMore). */
  page: (Page<Paper> & { sort: SortValue }) | null;
};
