import { Search } from "lucide-react";
import type { ReactNode } from "react";
import { Form } from "react-router";

/**
 * The GET filter bar of the admin lists: a search field, the list's own
 * selects (children) and a Filter button. It works without JavaScript; the
 * grid columns are the caller's, as the number of selects differs.
 */
export function FilterForm({
  label,
  id,
  searchLabel,
  search,
  grid,
  searchClassName = "",
  buttonClassName = "",
  children,
}: {
  /** The form's accessible name, e.g. "Filter the users". */
  label: string;
  /** Prefix of the field ids. */
  id: string;
  searchLabel: string;
  search: string;
  /** Grid column classes for the bar. */
  grid: string;
  searchClassName?: string;
  buttonClassName?: string;
  children: ReactNode;
}) {
  return (
    <Form
      method="get"
      role="search"
      aria-label={label}
      className={`mt-6 grid gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:items-end ${grid}`}
    >
      <div className={searchClassName}>
        <label htmlFor={`${id}-search`} className="field-label">
          {searchLabel}
        </label>
        <input id={`${id}-search`} type="search" name="search" defaultValue={search} className="field-input" />
      </div>
      {children}
      <button type="submit" className={`btn-primary ${buttonClassName}`}>
        <Search className="h-4 w-4" aria-hidden="true" />
        Filter
      </button>
    </Form>
  );
}
