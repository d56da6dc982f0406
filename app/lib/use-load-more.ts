import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";

type Paged<T> = { data: T[]; current_page: number; last_page: number };

/**
 * SPEC §4 'Load-more': the next page's data is appended to what is shown and
 * the paging info is taken from the new response. The page shown comes from
 * the loader (so a new filter or search starts over at once); more pages are
 * fetched from the same route's loader, whose data carries the page under `page`.
 * Only the fetched pages are state, and only for the loader page they follow:
 * what is shown is derived, never copied from props.
 */
export function useLoadMore<T extends { id: number }>(page: Paged<T>) {
  const fetcher = useFetcher<{ page: Paged<T> }>();
  const [fetched, setFetched] = useState<{ after: Paged<T>; pages: Paged<T>[] }>({ after: page, pages: [] });
  const current = useRef(page);
  current.current = page;

  useEffect(() => {
    const next = fetcher.data?.page;
    if (!next) return;
    const base = current.current;
    setFetched((f) => ({ after: base, pages: f.after === base ? [...f.pages, next] : [next] }));
  }, [fetcher.data]);

  const pages = fetched.after === page ? fetched.pages : [];
  const items = [...page.data];
  for (const more of pages) {
    for (const item of more.data) if (!items.some((shown) => shown.id === item.id)) items.push(item);
  }
  const last = pages.at(-1) ?? page;
  return {
    items,
    hasMore: last.current_page < last.last_page,
    nextPage: last.current_page + 1,
    loading: fetcher.state === "loading",
    load: (href: string) => fetcher.load(href),
  };
}
