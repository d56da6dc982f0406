import { ArrowUp } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigation } from "react-router";
import { isPaperFileUrl } from "../../../core/library/library.values";
import { ROUTE_CHANGE_KEY } from "../../islands/route-change";
import { LogoMark } from "./logo";

/** SPEC §9: progress bar throttle 200 ms and duration 5 s; cover removed after 800 ms, fading over 1000 ms. */
export const PROGRESS_THROTTLE_MS = 200;
export const COVER_VISIBLE_MS = 800;
export const COVER_FADE_MS = 1000;
export const SCROLL_TOP_THRESHOLD = 150;

/** A thin bar at the top while a navigation loads, shown only if it takes longer than 200 ms. */
export function ProgressBar() {
  const navigation = useNavigation();
  return <ProgressLine busy={navigation.state !== "idle"} />;
}

function ProgressLine({ busy }: { busy: boolean }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), PROGRESS_THROTTLE_MS);
    return () => clearTimeout(timer);
  }, [busy]);
  return (
    <div
      role="progressbar"
      aria-label="Loading the page"
      aria-hidden={!visible}
      data-visible={visible}
      className="pointer-events-none fixed inset-x-0 top-0 z-[60] h-1 opacity-0 data-[visible=true]:opacity-100"
    >
      <div
        className={`h-full bg-signal-500 shadow-[0_0_8px_var(--color-signal-500)] ${visible ? "w-[90%] transition-[width] duration-[5000ms] ease-out" : "w-0"}`}
      />
    </div>
  );
}

/**
 * The full-screen cover with the logo on every route change (not on the first
 * load, so search engines and screen readers always get the content). Hidden
 * from assistive technology; no fade under prefers-reduced-motion.
 */
export function RouteCover() {
  const { pathname } = useLocation();
  const first = useRef(true);
  const [phase, setPhase] = useState<"off" | "on" | "fading">("off");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the cover is the reaction to a new path
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    setPhase("on");
    const fade = setTimeout(() => setPhase(reduced ? "off" : "fading"), COVER_VISIBLE_MS);
    const done = setTimeout(() => setPhase("off"), COVER_VISIBLE_MS + (reduced ? 0 : COVER_FADE_MS));
    return () => {
      clearTimeout(fade);
      clearTimeout(done);
    };
  }, [pathname]);
  if (phase === "off") return null;
  return (
    <div
      aria-hidden="true"
      data-testid="route-cover"
      style={{ transitionDuration: `${COVER_FADE_MS}ms` }}
      className={`pointer-events-none fixed inset-0 z-[55] flex items-center justify-center bg-white transition-opacity ${phase === "fading" ? "opacity-0" : "opacity-100"}`}
    >
      <LogoMark className="h-20 w-20 animate-pulse" />
    </div>
  );
}

/**
 * Appears once the page is scrolled more than 150 px. The footer's last line keeps room for it
 * (public-footer.tsx), so that at the bottom of a page it covers no link: change both together.
 */
export function ScrollToTop() {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > SCROLL_TOP_THRESHOLD);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  if (!visible) return null;
  return (
    <button
      type="button"
      onClick={() =>
        window.scrollTo({
          top: 0,
          behavior: window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth",
        })
      }
      className="fixed right-5 bottom-5 z-40 flex h-11 w-11 items-center justify-center rounded-full bg-navy-900 text-white shadow-lg hover:bg-navy-700"
    >
      <ArrowUp className="h-5 w-5" aria-hidden="true" />
      <span className="sr-only">Scroll to top</span>
    </button>
  );
}

/**
 * Whether `url` is another page of this site: not the same page or a fragment of it, and not a
 * file (a paper, a calendar feed, a sitemap), which the browser may download without leaving.
 */
function isRouteChange(url: URL): boolean {
  if (url.origin !== window.location.origin) return false;
  if (isPaperFileUrl(url.pathname) || /\.[a-z0-9]+$/i.test(url.pathname)) return false;
  return url.pathname !== window.location.pathname || url.search !== window.location.search;
}

/**
 * On an islands page every route change loads a document: the bar starts when a link to another
 * page is followed or a form is sent the browser's way (a handler that stopped the default, such
 * as the join form's, sends it itself), and stops when a page is shown again (the back button).
 */
function useDocumentNavigation(): boolean {
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const start = (url: URL) => {
      if (!isRouteChange(url)) return;
      try {
        window.sessionStorage.setItem(ROUTE_CHANGE_KEY, url.pathname + url.search);
      } catch {
        // No session storage (a private mode): no cover on the next page.
      }
      setBusy(true);
    };
    // Listened to on the document, after the page's own handlers have had their say.
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      start(new URL(link.href));
    };
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target as HTMLFormElement;
      if (event.defaultPrevented || (form.target && form.target !== "_self")) return;
      const url = new URL(form.action, window.location.href);
      if (form.method.toLowerCase() === "get") url.search = `?${new URLSearchParams(new FormData(form) as never)}`;
      start(url);
    };
    const onShow = () => setBusy(false);
    document.addEventListener("click", onClick);
    document.addEventListener("submit", onSubmit);
    window.addEventListener("pageshow", onShow);
    return () => {
      document.removeEventListener("click", onClick);
      document.removeEventListener("submit", onSubmit);
      window.removeEventListener("pageshow", onShow);
    };
  }, []);
  return busy;
}

/**
 * The route feedback of an islands page: the progress bar for the document being loaded and the
 * scroll-to-top button. The cover is the server's (`DocumentCover`), shown before the first paint.
 */
export function DocumentFeedback() {
  const busy = useDocumentNavigation();
  return (
    <>
      <ProgressLine busy={busy} />
      <ScrollToTop />
    </>
  );
}

/** The progress bar alone, for an islands page outside the public layout (the sign-in pages). */
export function DocumentProgress() {
  return <ProgressLine busy={useDocumentNavigation()} />;
}

/**
 * The cover of an islands page: in every page, shown by CSS when the root's inline script found
 * the route change this page ends (app.css `.route-cover`), for 800 ms and then fading over
 * 1000 ms, without waiting for any script. The first page of a visit has none.
 */
export function DocumentCover() {
  return (
    <div aria-hidden="true" data-testid="route-cover" className="route-cover">
      <LogoMark className="h-20 w-20 animate-pulse" />
    </div>
  );
}
