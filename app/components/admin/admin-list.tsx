import { Fragment, type ReactNode, useEffect, useRef } from "react";
import { Form, Link } from "react-router";
import { useLoadMore } from "../../lib/use-load-more";
import { FilterForm } from "../ui/filter-form";
import { ListHeader } from "../ui/list-header";
import { ListSearch } from "../ui/list-search";
import { LoadMoreLink } from "../ui/load-more-link";
import { Notice } from "../ui/notice";
import { Pager } from "../ui/pager";
import { type Options, SelectField } from "../ui/select-field";

/** A list's filter selects by URL parameter name: `{ status: { label: "Status", options } }`. */
export type FilterSelects = Record<string, { label: string; options: Options }>;

export type ListNotice = { tone: "success" | "error"; text: ReactNode };

type Paged<T> = { data: T[]; current_page: number; last_page: number; total: number };

/**
 * A list's filters as the URL's parameters, in the order given: empty strings, null, undefined and
 * false are left out (no filter), true is "1" (a checkbox). The one source of the list's address:
 * the filter form's values, the next page's link, the pager's links and "Show all" read it.
 */
export function filterParams(filters: Record<string, string | number | boolean | null | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (value === true) params.set(name, "1");
    else if (typeof value === "number" || (typeof value === "string" && value)) params.set(name, String(value));
  }
  return params;
}

/** What a list's action answered, as notices: `{ notice }` a success, `{ error }` a refusal. */
export function resultNotices(result: unknown): ListNotice[] {
  if (!result || typeof result !== "object") return [];
  const notices: ListNotice[] = [];
  if ("notice" in result && typeof result.notice === "string") notices.push({ tone: "success", text: result.notice });
  if ("error" in result && typeof result.error === "string") notices.push({ tone: "error", text: result.error });
  return notices;
}

/** A filter's select: "All" (no filter) first, then its options; its value is the URL's. */
export function FilterSelect({
  id,
  name,
  label,
  options,
  value,
}: {
  id: string;
  name: string;
  label: string;
  options: Options;
  value: string;
}) {
  return <SelectField id={id} name={name} label={label} defaultValue={value} options={[["", "All"], ...options]} />;
}

/**
 * SPEC §2 'Admin lists … with search' and §4 'Load-more', the one shape of every admin list:
 * header (title, "New …", the notices), the search (alone, or in the filter bar with the list's
 * selects), "N items" (with "Show all" once filtered, if asked), the rows or what an empty list
 * says, then paging. The filters live in the URL (`params`): the form shows them, and the next
 * page's link and the pager keep them. Paging is "load-more" (the next page appended with
 * JavaScript; without it the link opens the next page, and the pager from page 2 on is the way
 * back) or "pages" (the pager alone: users and requests, as they were; decision 0050).
 */
export function AdminList<T extends { id: number }>({
  title,
  trail,
  newLink,
  headerAction,
  description,
  notice = null,
  notices = [],
  beforeFilters,
  beforeRows,
  search,
  filters,
  params,
  page,
  noun,
  matching = false,
  showAll = false,
  empty,
  layout,
  renderRow,
  path,
  paging,
  pagerLabels,
}: {
  title: string;
  /** The breadcrumbs above the title, when the list lives under another screen (a meeting's registrations). */
  trail?: { label: string; to: string }[];
  newLink?: { to: string; label: string };
  /** Beside the title instead of (or after) "New …". */
  headerAction?: ReactNode;
  /** A line under the title saying what the list holds. */
  description?: ReactNode;
  /** The flash notice a redirect to the list left (a save elsewhere). */
  notice?: string | null;
  /** The action's answer on this page (see resultNotices), and any other notice. */
  notices?: ListNotice[];
  /** Between the notices and the filters: e.g. the users' invitation form. */
  beforeFilters?: ReactNode;
  /** Between the count line and the rows: e.g. the bulk actions' bar. */
  beforeRows?: ReactNode;
  /** The search field: its id is `${id}-search`; its value is the URL's `search`. */
  search: { id: string; label: string };
  /** The filter bar around the search; without it the search is a plain search form. */
  filters?: {
    /** The form's accessible name, e.g. "Filter the users". */
    label: string;
    selects: FilterSelects;
    /** After the selects, e.g. a checkbox. */
    extra?: ReactNode;
    grid: string;
    searchClassName?: string;
    buttonClassName?: string;
  };
  /** The list's filters as they are, from filterParams. */
  params: URLSearchParams;
  page: Paged<T>;
  /** For the count line: ["company", "companies"]. */
  noun: readonly [singular: string, plural: string];
  /** The count line says what was searched: "3 meetings matching “radar”". */
  matching?: boolean;
  /** The count line links to the unfiltered list once a filter is on. */
  showAll?: boolean;
  /** What an empty list says, filtered and not. */
  empty: string | { filtered: string; unfiltered: string };
  /** "rows" in one card, or each row its own "cards". */
  layout: "rows" | "cards";
  /** One row: an `<li>`. */
  renderRow: (item: T) => ReactNode;
  /** The list's own path, for the next page, the pager and "Show all". */
  path: string;
  paging: "load-more" | "pages";
  pagerLabels?: [previous: string, next: string];
}) {
  const more = useLoadMore(page);
  const items = paging === "load-more" ? more.items : page.data;
  const filtered = [...params.keys()].length > 0;
  const searched = params.get("search") ?? "";
  const nextHref = `${path}?${new URLSearchParams([...params, ["page", String(more.nextPage)]])}`;
  const emptyText = typeof empty === "string" ? empty : filtered ? empty.filtered : empty.unfiltered;
  const firstHref = `${path}${filtered ? `?${params}` : ""}`;
  const filterBar = useRef<HTMLDivElement>(null);
  const query = params.toString();
  // The filter fields are uncontrolled (the form works without JavaScript): when the URL changes
  // without them ("Show all", Back), they would still show what was chosen before. Set them to it.
  useEffect(() => {
    const form = filterBar.current?.querySelector("form");
    if (!form) return;
    const current = new URLSearchParams(query);
    for (const field of Array.from(form.elements)) {
      if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement) || !field.name) continue;
      if (field instanceof HTMLInputElement && field.type === "checkbox")
        field.checked = current.get(field.name) === field.value;
      else field.value = current.get(field.name) ?? "";
    }
  }, [query]);
  return (
    <div>
      <ListHeader
        title={title}
        trail={trail}
        newLink={newLink}
        action={headerAction}
        description={description}
        notice={notice}
      />
      {notices.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list for one render, never reordered
        <Notice key={index} tone={item.tone} className="mt-4">
          {item.text}
        </Notice>
      ))}
      {beforeFilters}
      <div ref={filterBar}>
        {filters ? (
          <FilterForm
            label={filters.label}
            id={search.id}
            searchLabel={search.label}
            search={searched}
            grid={filters.grid}
            searchClassName={filters.searchClassName}
            buttonClassName={filters.buttonClassName}
          >
            {Object.entries(filters.selects).map(([name, select]) => (
              <FilterSelect
                key={name}
                id={`${search.id}-${name}`}
                name={name}
                label={select.label}
                options={select.options}
                value={params.get(name) ?? ""}
              />
            ))}
            {filters.extra}
          </FilterForm>
        ) : (
          <ListSearch id={`${search.id}-search`} label={search.label} defaultValue={searched} />
        )}
      </div>
      <p className="mt-4 text-sm text-slate-600" aria-live="polite">
        {`${page.total} ${page.total === 1 ? noun[0] : noun[1]}`}
        {matching && searched ? ` matching “${searched}”` : null}
        {showAll && filtered ? (
          <>
            {" · "}
            <Link to={path} className="text-sea-600 underline hover:no-underline">
              Show all
            </Link>
          </>
        ) : null}
      </p>
      {beforeRows}
      {items.length === 0 ? (
        <p className="mt-3 rounded-xl bg-white p-6 text-slate-700 ring-1 ring-slate-200">
          {page.total > 0 ? (
            // A page past the last one (an old link, rows deleted since): the list is not empty.
            <>
              {`Page ${page.current_page} is past the end of the list. `}
              <Link to={firstHref} className="text-sea-600 underline hover:no-underline">
                Back to the first page
              </Link>
            </>
          ) : (
            emptyText
          )}
        </p>
      ) : (
        <ul
          className={
            layout === "rows"
              ? "mt-3 divide-y divide-slate-100 overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200"
              : "mt-3 space-y-3"
          }
        >
          {items.map((item) => (
            <Fragment key={item.id}>{renderRow(item)}</Fragment>
          ))}
        </ul>
      )}
      {paging === "load-more" && more.hasMore ? (
        <div className="mt-6 text-center">
          <LoadMoreLink href={nextHref} loading={more.loading} onLoad={more.load} />
        </div>
      ) : null}
      {/* With load-more, without JavaScript "Load more" opens the next page: the way back is here. */}
      {(paging === "pages" || page.current_page > 1) && page.current_page <= page.last_page ? (
        <Pager path={path} params={params} current={page.current_page} last={page.last_page} labels={pagerLabels} />
      ) : null}
    </div>
  );
}

/**
 * A row's action: one button posting `fields` (its intent and the row's id) to the page's action,
 * keeping the scroll. Every admin row's plain actions (users, representatives) are this form.
 */
export function RowActionForm({ fields, children }: { fields: Record<string, string | number>; children: ReactNode }) {
  return (
    <Form method="post" preventScrollReset>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="btn-outline py-1.5 text-sm">
        {children}
      </button>
    </Form>
  );
}
