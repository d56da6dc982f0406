import { ISLAND_ROOT_DATA_ID, type IslandRootData } from "./names";

/**
 * What the islands build gives components in place of app/root.tsx (decision 0033): the root
 * loader's facts that islands read, from the JSON the server wrote into the page. One object for
 * the page's life, as the root's data is for a page React Router runs.
 */
let data: IslandRootData | null | undefined;
export function rootData(): IslandRootData | null {
  if (data === undefined) {
    const text = document.getElementById(ISLAND_ROOT_DATA_ID)?.textContent;
    data = text ? (JSON.parse(text) as IslandRootData) : null;
  }
  return data;
}

/** app/root.tsx's hook, as islands call it. */
export const useRootData = rootData;
