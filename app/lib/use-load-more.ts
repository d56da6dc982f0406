import { useEffect, useState } from "react";
import { useFetcher } from "react-router";

type Paged<T> = { data: T[]; current_page: number; last_page: number };

/**
 * SPEC §4 'Load-more': the next page's data is appended to what is shown and
 * the paging info is taken from the new response. The page shown comes from
 * the loader (so a new filter or search starts over); more pages are fetched
 * from the same route's loader, whose data carries the page under `page`.
 */
export function useLoadMore<T extends { id: number }>(page: Paged<T>) {
  const fetcher = useFetcher<{ page: Paged<T> }>();
  const [items, setItems] = useState(page.data);
  const [paging, setPaging] = useState({ current: page.current_page, last: page.last_page });

  useEffect(() => {
    setItems(page.data);
    setPaging({ current: page.current_page, last: page.last_page });
  }, [page]);

  useEffect(() => {
    const next = fetcher.data?.page;
    if (!next) return;
    setItems((shown) => [...shown, ...next.data.filter((item) => !shown.some((s) => s.id === item.id))]);
    setPaging({ current: next.current_page, last: next.last_page });
  }, [fetcher.data]);

  return {
    items,
    hasMore: paging.current < paging.last,
    nextPage: paging.current + 1,
    loading: fetcher.state === "loading",
    load: (href: string) => fetcher.load(href),
  };
}
