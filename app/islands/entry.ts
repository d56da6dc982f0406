import { type ComponentType, h, options, render } from "preact";
import { CHUNK_RELOAD_KEY, shouldReloadForChunkError } from "../lib/chunk-reload";
import { loadTagManager } from "../lib/third-party";
import type { IslandName } from "./names";
import { rootData } from "./root";

/**
 * The browser's side of an islands page (decision 0033), built by vite.islands.config.ts with
 * Preact in place of React: each element the server marked with `data-island` is rendered again
 * by its component, with the props the server wrote beside it, over the elements already there
 * (Preact reuses them, so nothing moves and focus stays where it is).
 */
/**
 * Effects run right after each render, as React runs them after a click or a key press, not after
 * the next frame (Preact's default): a listener an effect adds (Escape closing a menu) is then in
 * place before the next event.
 */
(options as { requestAnimationFrame?: (callback: () => void) => void }).requestAnimationFrame = queueMicrotask;

const ISLANDS: Record<IslandName, () => Promise<unknown>> = {
  "site-header": () => import("../components/layout/public-islands").then((m) => m.HeaderIsland),
  "route-feedback": () => import("../components/layout/route-feedback").then((m) => m.DocumentFeedback),
  "join-form": () => import("../components/layout/public-islands").then((m) => m.JoinFormIsland),
  "privacy-dialog": () => import("../components/layout/privacy-dialog").then((m) => m.PrivacyDialog),
  "user-menu": () => import("../components/layout/public-islands").then((m) => m.UserMenuIsland),
  "load-more": () => import("../components/ui/load-more-island").then((m) => m.LoadMoreIsland),
  "news-filter": () => import("../components/news/news-filter").then((m) => m.NewsFilter),
  "join-page-form": () => import("../components/join/public-form").then((m) => m.JoinForm),
  "message-form": () => import("../components/layout/public-islands").then((m) => m.MessageFormIsland),
  "message-page-form": () => import("../components/join/public-form").then((m) => m.MessageForm),
  "calendar-filters": () => import("../components/events/event-filters").then((m) => m.EventFilters),
  "local-time": () => import("../components/events/local-time").then((m) => m.LocalTime),
  "papers-search": () => import("../components/library/papers-search").then((m) => m.PapersSearch),
  "open-linked-paper": () => import("../components/library/open-linked-paper").then((m) => m.OpenLinkedPaper),
  "login-form": () => import("../components/account/login-form").then((m) => m.LoginForm),
  toaster: () => import("../components/ui/toast").then((m) => m.Toaster),
  "route-progress": () => import("../components/layout/route-feedback").then((m) => m.DocumentProgress),
  "contact-link": () => import("../components/layout/contact-form-link").then((m) => m.ContactFormLink),
};

/** SPEC §4, §9: a part of the page that fails to load reloads the page, at most once per 60 s. */
function reloadForChunkError(error: unknown) {
  const last = Number(window.sessionStorage.getItem(CHUNK_RELOAD_KEY)) || null;
  if (!shouldReloadForChunkError(error, Date.now(), last)) return false;
  window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
  window.location.reload();
  return true;
}

async function start() {
  const elements = Array.from(document.querySelectorAll<HTMLElement>("[data-island]"));
  await Promise.all(
    elements.map(async (element) => {
      const load = ISLANDS[element.dataset.island as IslandName];
      if (!load) return;
      try {
        // A React component, run by Preact's compatibility layer in this build.
        const Component = (await load()) as ComponentType<Record<string, unknown>>;
        render(h(Component, JSON.parse(element.dataset.props ?? "{}")), element);
      } catch (error) {
        if (!reloadForChunkError(error)) console.error(error);
      }
    }),
  );
  // Marks the page as running once the islands' effects have run, as the root does on a page React
  // Router hydrates (tests wait for it).
  await new Promise((resolve) => setTimeout(resolve));
  document.documentElement.dataset.hydrated = "true";
  const gtmId = rootData()?.publicConfig.gtmId;
  if (gtmId) loadTagManager(gtmId);
}

void start();
