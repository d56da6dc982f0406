import { type ComponentProps, useEffect, useState } from "react";

/**
 * What the islands build gives components in place of React Router (decision 0033): an islands
 * page is not run by the router, so a link is a link, a form is a form, and every navigation
 * loads a document. Only what public components use is here; an island that imports anything
 * else fails the islands build, which is the point.
 */

type To = string | { pathname?: string; search?: string; hash?: string };
const href = (to: To) => (typeof to === "string" ? to : `${to.pathname ?? ""}${to.search ?? ""}${to.hash ?? ""}`);

type RouterOnly = {
  reloadDocument?: boolean;
  replace?: boolean;
  state?: unknown;
  preventScrollReset?: boolean;
  prefetch?: string;
  viewTransition?: boolean;
  discover?: string;
  relative?: string;
};

export function Link({
  to,
  reloadDocument: _reload,
  replace: _replace,
  state: _state,
  preventScrollReset: _scroll,
  prefetch: _prefetch,
  viewTransition: _transition,
  discover: _discover,
  relative: _relative,
  ...props
}: Omit<ComponentProps<"a">, "href"> & RouterOnly & { to: To }) {
  return <a href={href(to)} {...props} />;
}

export function Form({
  reloadDocument: _reload,
  replace: _replace,
  state: _state,
  preventScrollReset: _scroll,
  viewTransition: _transition,
  discover: _discover,
  relative: _relative,
  navigate: _navigate,
  fetcherKey: _fetcherKey,
  ...props
}: ComponentProps<"form"> & RouterOnly & { navigate?: boolean; fetcherKey?: string }) {
  return <form {...props} />;
}

/**
 * The document's location. A new page is a new document, but the history can still move within
 * the page (a fragment, the back button to it): each such move is a new location with a new key,
 * as React Router gives one, so that what closes "on a route change" closes then too.
 */
let moves = 0;
const snapshot = () => ({
  pathname: window.location.pathname,
  search: window.location.search,
  hash: window.location.hash,
  state: null,
  key: moves === 0 ? "default" : `move-${moves}`,
});
export function useLocation() {
  const [location, setLocation] = useState(snapshot);
  useEffect(() => {
    const moved = () => {
      moves += 1;
      setLocation(snapshot());
    };
    window.addEventListener("popstate", moved);
    window.addEventListener("hashchange", moved);
    return () => {
      window.removeEventListener("popstate", moved);
      window.removeEventListener("hashchange", moved);
    };
  }, []);
  return location;
}

const IDLE = { state: "idle" as const, location: undefined, formMethod: undefined, formAction: undefined };
export const useNavigation = () => IDLE;

export function useNavigate() {
  return (to: To | number) => {
    if (typeof to === "number") window.history.go(to);
    else window.location.assign(href(to));
  };
}
