import { Search } from "lucide-react";
import { Form, Link, useNavigate } from "react-router";
import { monthLabel } from "../../../core/news/news.values";

/** The news list's address for a filter, a search and a page, without empty parameters. */
export function newsQuery(params: { month: string | null; search: string; page?: number }) {
  const search = new URLSearchParams();
  if (params.month) search.set("month", params.month);
  if (params.search) search.set("q", params.search);
  if (params.page && params.page > 1) search.set("page", String(params.page));
  const text = search.toString();
  return text ? `?${text}` : "";
}

/**
 * One GET form: without JavaScript the button applies month and search together; with it,
 * choosing a month applies at once. A select, not a link per month: years of archive would be a
 * wall of links.
 */
export function NewsFilter({ month, search, months }: { month: string | null; search: string; months: string[] }) {
  const navigate = useNavigate();
  return (
    <Form
      // Remounted when the URL's filter changes (Clear, back), so the fields show what is applied.
      key={`${month ?? ""}|${search}`}
      method="get"
      // With JavaScript the URL is built without empty parameters (?month=&q=).
      onSubmit={(event) => {
        event.preventDefault();
        const fields = new FormData(event.currentTarget);
        const chosen = String(fields.get("month") ?? "");
        navigate(`/news${newsQuery({ month: chosen || null, search: String(fields.get("q") ?? "").trim() })}`);
      }}
      role="search"
      aria-label="Filter the news"
      className="flex flex-col gap-3 rounded-xl bg-navy-50 p-4 sm:flex-row sm:items-end"
    >
      <div className="sm:w-56">
        <label htmlFor="news-month" className="field-label">
          Month
        </label>
        <select
          id="news-month"
          name="month"
          defaultValue={month ?? ""}
          onChange={(event) => navigate(`/news${newsQuery({ month: event.currentTarget.value || null, search })}`)}
          className="field-input"
        >
          <option value="">All</option>
          {months.map((m) => (
            <option key={m} value={m}>
              {monthLabel(m)}
            </option>
          ))}
        </select>
      </div>
      <div className="flex-1">
        <label htmlFor="news-q" className="field-label">
          Search the news
        </label>
        <input
          id="news-q"
          type="search"
          name="q"
          defaultValue={search}
          placeholder="Words in the title or text"
          className="field-input"
        />
      </div>
      <div className="flex gap-2">
        <button type="submit" className="btn-primary">
          <Search className="h-4 w-4" aria-hidden="true" />
          Search
        </button>
        {month || search ? (
          <Link to="/news" className="btn-outline">
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
