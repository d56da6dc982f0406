import { Search } from "lucide-react";
import { Link, useNavigate } from "react-router";
import type { Category } from "../../../core/library/library.schema";
import { listHref } from "./list-url";

/**
 * A papers list's search and sort, one GET form (SPEC §2 'Paper list'): without JavaScript the
 * button applies both and the answer opens at the list; with it, the sort applies at once. Its
 * props are little, as a page served as islands writes them into the page (decision 0033).
 */
export function PapersSearch({
  path,
  tab,
  list: listParam,
  search,
  sort,
  defaultSort,
  sortOptions,
  anchor,
  categoryName,
}: {
  /** The screen's address, without its query. */
  path: string;
  tab: string | null;
  /** The list's slug in the address, or null for the screen's default list. */
  list: string | null;
  search: string;
  sort: string;
  defaultSort: Category["default_sort"];
  sortOptions: Category["sort_options"];
  /** The list's element id, where the answer opens. */
  anchor: string;
  categoryName: string;
}) {
  const navigate = useNavigate();
  const searchId = `${anchor}-search`;
  const sortId = `${anchor}-sort`;
  const sortParam = sort === defaultSort ? null : sort;
  const go = (text: string, chosen: string) =>
    navigate(
      listHref(
        path,
        { tab, list: listParam, search: text.trim(), sort: chosen === defaultSort ? null : chosen },
        anchor,
      ),
      { preventScrollReset: true },
    );
  return (
    <search aria-label={`Search ${categoryName}`}>
      <form
        // Remounted when the URL's state changes (Clear, back), so the fields show what is applied.
        key={`${search}|${sort}`}
        method="get"
        // Without JavaScript the browser keeps the fragment: the answer opens at this list.
        action={`${path}#${anchor}`}
        onSubmit={(event) => {
          event.preventDefault();
          const fields = new FormData(event.currentTarget);
          go(String(fields.get("search") ?? ""), String(fields.get("sort") ?? ""));
        }}
        className="grid gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-[minmax(0,1fr)_13rem_auto] sm:items-end"
      >
        {tab ? <input type="hidden" name="tab" value={tab} /> : null}
        {listParam ? <input type="hidden" name="list" value={listParam} /> : null}
        <div>
          <label htmlFor={searchId} className="field-label">
            Search the documents
          </label>
          <input
            id={searchId}
            type="search"
            name="search"
            defaultValue={search}
            maxLength={200}
            placeholder="Title, number or words in the document"
            className="field-input"
          />
        </div>
        <div>
          <label htmlFor={sortId} className="field-label">
            Sort by
          </label>
          <select
            id={sortId}
            name="sort"
            defaultValue={sort}
            onChange={(event) => go(search, event.currentTarget.value)}
            className="field-input"
          >
            {sortOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex gap-2">
          <button type="submit" className="btn-primary">
            <Search className="h-4 w-4" aria-hidden="true" />
            Search
          </button>
          {search ? (
            <Link
              to={listHref(path, { tab, list: listParam, sort: sortParam })}
              preventScrollReset
              className="btn-outline"
            >
              Clear
            </Link>
          ) : null}
        </div>
      </form>
    </search>
  );
}
