import { ArrowUp } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigation } from "react-router";
import { LogoMark } from "./logo";

/** SPEC §9: progress bar throttle 200 ms and duration 5 s; cover removed after 800 ms, fading over 1000 ms. */
export const PROGRESS_THROTTLE_MS = 200;
export const COVER_VISIBLE_MS = 800;
export const COVER_FADE_MS = 1000;
export const SCROLL_TOP_THRESHOLD = 150;

/** A thin bar at the top while a navigation loads, shown only if it takes longer than 200 ms. */
export function ProgressBar() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
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

/** Appears once the page is scrolled more than 150 px. */
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
