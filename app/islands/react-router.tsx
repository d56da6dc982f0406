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

/**
 * "submitting" from the moment a form on the page is sent the browser's way (no handler stopped
 * it) until a page is shown, as React Router says while its own form is on its way: a button can
 * say "Signing in…" and refuse a second press. Otherwise idle: moving to another page is the
 * progress bar's business (DocumentFeedback).
 */
type Navigation = { state: "idle" | "submitting"; location: undefined; formMethod: undefined; formAction: undefined };
const IDLE: Navigation = { state: "idle", location: undefined, formMethod: undefined, formAction: undefined };
const SUBMITTING: Navigation = { ...IDLE, state: "submitting" };
export function useNavigation(): Navigation {
  const [navigation, setNavigation] = useState(IDLE);
  useEffect(() => {
    const onSubmit = (event: Event) => {
      const form = event.target as HTMLFormElement;
      if (!event.defaultPrevented && (!form.target || form.target === "_self")) setNavigation(SUBMITTING);
    };
    const onShow = () => setNavigation(IDLE);
    document.addEventListener("submit", onSubmit);
    window.addEventListener("pageshow", onShow);
    return () => {
      document.removeEventListener("submit", onSubmit);
      window.removeEventListener("pageshow", onShow);
    };
  }, []);
  return navigation;
}

export function useNavigate() {
  return (to: To | number) => {
    if (typeof to === "number") window.history.go(to);
    else window.location.assign(href(to));
  };
}
