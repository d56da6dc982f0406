/** SPEC §4, §9: when a part of the page fails to load, reload, at most once per 60 s. */
export const CHUNK_RELOAD_GUARD_MS = 60_000;
export const CHUNK_RELOAD_KEY = "masthead.chunk-reload-at";

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (CSS )?chunk [\w-]+ failed/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_ERROR.test(`${error.name}: ${error.message}`);
}

/** Whether to reload now, given when the last such reload happened (ms since epoch, or null). */
export function shouldReloadForChunkError(error: unknown, now: number, lastReloadAt: number | null): boolean {
  return isChunkLoadError(error) && (lastReloadAt === null || now - lastReloadAt >= CHUNK_RELOAD_GUARD_MS);
}
