import { Search } from "lucide-react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { isPaperFileUrl } from "../../../core/library/library.values";
import type { SearchResult } from "../../../core/search/search.schema";

/** SPEC §5 'Search' and §9: 400 ms debounce. */
export const SEARCH_DEBOUNCE_MS = 400;

/**
 * The header's search box. Typing asks /api/search after a pause; results
 * are links in a panel; a click outside clears it; Enter (or no JavaScript)
 * opens the full results page. A failed search shows nothing (SPEC §8).
 */
export function SearchBox() {
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<SearchResult[] | null>(null);
  const [searched, setSearched] = useState("");
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const panelId = useId();
  const { pathname } = useLocation();

  const clear = useCallback(() => {
    setQuery("");
    setResults(null);
    setSearched("");
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page clears the box
  useEffect(() => clear(), [pathname, clear]);

  useEffect(() => {
    const text = query.trim();
    if (!text) {
      setResults(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(`/api/search?search_query=${encodeURIComponent(text)}`, {
          signal: controller.signal,
        });
        const body = (await response.json()) as { status?: string; results?: SearchResult[] };
        if (body.status === "success" && Array.isArray(body.results)) {
          setResults(body.results);
          setSearched(text);
        }
      } catch {
        // SPEC §8: a failed search shows nothing.
      }
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  // SPEC §2 'Clicking outside clears it': the text and the results, also while a search is
  // still pending (else its results would open a panel after the visitor has moved on).
  const inUse = query !== "" || results !== null;
  useEffect(() => {
    if (!inUse) return;
    const onPointer = (event: PointerEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) clear();
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [inUse, clear]);

  // Arrow keys move between the input and the result links; Escape clears.
  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        clear();
        inputRef.current?.focus();
        return;
      }
      if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
      const items = Array.from(root.querySelectorAll<HTMLAnchorElement>("[data-result]"));
      if (items.length === 0) return;
      event.preventDefault();
      const index = items.indexOf(document.activeElement as HTMLAnchorElement);
      const next = event.key === "ArrowDown" ? index + 1 : index - 1;
      if (next < 0) inputRef.current?.focus();
      else items[Math.min(next, items.length - 1)]?.focus();
    };
    root.addEventListener("keydown", onKeyDown);
    return () => root.removeEventListener("keydown", onKeyDown);
  }, [clear]);

  const open = results !== null;
  return (
    <div ref={rootRef} className="relative w-full">
      <Form method="get" action="/search" role="search" className="relative">
        <label htmlFor={`${panelId}-input`} className="sr-only">
          Search the site
        </label>
        <Search
          className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-500"
          aria-hidden="true"
        />
        <input
          ref={inputRef}
          id={`${panelId}-input`}
          type="search"
          name="q"
          placeholder="Search"
          autoComplete="off"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          aria-controls={open ? panelId : undefined}
          className="w-full rounded-full border border-slate-300 bg-white py-2 pr-4 pl-9 text-sm text-slate-900 placeholder:text-slate-500 focus:border-navy-700 focus:outline-none focus:ring-2 focus:ring-navy-700/20"
        />
      </Form>
      {open ? (
        <div
          id={panelId}
          className="absolute top-full right-0 z-50 mt-2 max-h-[600px] w-[min(92vw,28rem)] overflow-y-auto rounded-xl border border-slate-200 bg-white p-2 shadow-2xl"
        >
          <p className="sr-only" aria-live="polite">
            {results.length === 0 ? `There are no results for ${searched}` : `${results.length} results`}
          </p>
          {results.length === 0 ? (
            <p className="px-3 py-4 text-sm text-slate-600">There are no results for `{searched}`</p>
          ) : (
            <ul>
              {results.map((result) => (
                <li key={result.url + result.title}>
                  <Link
                    data-result
                    to={result.url}
                    reloadDocument={isPaperFileUrl(result.url)}
                    className="block rounded-lg px-3 py-2.5 hover:bg-navy-50 focus:bg-navy-50"
                  >
                    <span className="block text-xs font-semibold tracking-wide text-sea-600 uppercase">
                      {result.subtitle}
                    </span>
                    <span className="block font-semibold text-navy-900">{result.title}</span>
                    <span
                      className="mt-0.5 block text-sm text-slate-600 [&_mark]:bg-signal-500/30 [&_mark]:text-inherit"
                      // Snippets are escaped by the search service; only <mark> is markup.
                      // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped server-side
                      dangerouslySetInnerHTML={{ __html: result.content }}
                    />
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </div>
  );
}
