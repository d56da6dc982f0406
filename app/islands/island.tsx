import { type ComponentType, createContext, useContext } from "react";
import { preloadModule } from "react-dom";
import type { IslandsManifest } from "../../lib/islands-manifest";
import type { IslandName } from "./names";

/**
 * Set by the server's render when the page is served as islands (decision 0033): the page is
 * not hydrated by React Router, and only the parts wrapped in `Island` run in the browser.
 * Absent in the browser and in a page React Router hydrates.
 */
const IslandsContext = createContext<IslandsManifest | null>(null);
export const IslandsProvider = IslandsContext.Provider;
export const useIslands = () => useContext(IslandsContext);

/**
 * A component that runs in the browser on an islands page: rendered here as usual, inside a
 * box without layout (`display: contents`) that names it and carries its props, which the
 * browser's loader (app/islands/entry.ts) renders it again with over the same elements. The
 * props are written into the page, so they must be JSON and hold nothing the page may not show.
 */
export function Island<P extends object>({
  name,
  component: Component,
  props,
}: {
  name: IslandName;
  component: ComponentType<P>;
  props: P;
}) {
  const islands = useIslands();
  if (!islands) return <Component {...props} />;
  for (const file of islands.islands[name] ?? []) preloadModule(file, { as: "script" });
  return (
    <div data-island={name} data-props={JSON.stringify(props)} className="contents">
      <Component {...props} />
    </div>
  );
}

/**
 * `handle` of a public route whose page is served as islands in a production build (decision
 * 0033): its components render on the server as usual, and the browser runs only the parts
 * wrapped in `Island`, with Preact, instead of hydrating the page with React Router.
 */
export const SERVED_AS_ISLANDS = { servedAsIslands: true } as const;

/** Whether the deepest route of a server render asked to be served as islands. */
export function servedAsIslands(
  matches: readonly { route: { id: string } }[],
  routeModules: Record<string, { handle?: unknown } | undefined>,
): boolean {
  const leaf = matches.at(-1);
  const handle = leaf ? (routeModules[leaf.route.id]?.handle as { servedAsIslands?: boolean } | undefined) : undefined;
  return handle?.servedAsIslands === true;
}
