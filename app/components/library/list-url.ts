/**
 * The address of a category screen with a list's state (see app/routes/library/category.server.ts):
 * empty and default values are left out, so the addresses stay short and shareable.
 */
export type ListState = {
  /** The open tab, if the screen has tabs. */
  tab: string | null;
  /** The list's category slug, left out when it is the screen's default list. */
  list: string | null;
  search?: string;
  sort?: string | null;
  page?: number;
};

export function listHref(path: string, state: ListState, hash?: string): string {
  const query = new URLSearchParams();
  if (state.tab) query.set("tab", state.tab);
  if (state.list) query.set("list", state.list);
  if (state.search) query.set("search", state.search);
  if (state.sort) query.set("sort", state.sort);
  if (state.page && state.page > 1) query.set("page", String(state.page));
  const text = query.toString();
  return `${path}${text ? `?${text}` : ""}${hash ? `#${hash}` : ""}`;
}
