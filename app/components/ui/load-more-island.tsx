import { useState } from "react";

/**
 * SPEC §4 'Load-more' on a page served as islands (decision 0033), where no router holds the
 * list's data: the next page is fetched as the visitor would get it (from the page cache, as a
 * rule) and its entries are appended to the list shown. The list is the element `list` names;
 * its children carry `data-key`, and a child that groups others (a month) carries
 * `data-group` around a `data-group-items` element, whose entries join the group of the same
 * key. The next page's own button says where the page after it is. Without JavaScript, or if
 * the fetch fails, the link opens the next page.
 */
export function LoadMoreIsland({ href: first, list }: { href: string; list: string }) {
  const [href, setHref] = useState<string | null>(first);
  const [loading, setLoading] = useState(false);
  if (!href) return null;
  return (
    <a
      href={href}
      className="btn-outline px-6"
      onClick={async (event) => {
        event.preventDefault();
        if (loading) return;
        setLoading(true);
        try {
          const response = await fetch(href, { headers: { Accept: "text/html" } });
          if (!response.ok) throw new Error(`next page answered ${response.status}`);
          const next = new DOMParser().parseFromString(await response.text(), "text/html");
          const target = document.getElementById(list);
          const source = next.getElementById(list);
          if (!target || !source) throw new Error(`no #${list} to load into`);
          appendEntries(target, source);
          setHref(nextHref(next, list));
        } catch {
          window.location.assign(href);
        } finally {
          setLoading(false);
        }
      }}
    >
      {loading ? "Loading…" : "Load more"}
    </a>
  );
}

/** Appends `source`'s entries to `target`'s, skipping those already shown and merging groups. */
export function appendEntries(target: Element, source: Element) {
  for (const entry of Array.from(source.children)) {
    const key = entry.getAttribute("data-key");
    const shown = key ? Array.from(target.children).find((child) => child.getAttribute("data-key") === key) : undefined;
    if (!shown) target.append(document.importNode(entry, true));
    else if (entry.hasAttribute("data-group")) {
      const items = shown.querySelector("[data-group-items]");
      const more = entry.querySelector("[data-group-items]");
      if (items && more) appendEntries(items, more);
    }
  }
}

/** Where the fetched page's own button for the same list would load from, or null on the last page. */
function nextHref(page: Document, list: string): string | null {
  for (const island of page.querySelectorAll<HTMLElement>('[data-island="load-more"]')) {
    try {
      const props = JSON.parse(island.dataset.props ?? "null") as { href?: string; list?: string } | null;
      if (props?.list === list) return props.href ?? null;
    } catch {
      // Not ours to read: the next page is then the last one shown.
    }
  }
  return null;
}
