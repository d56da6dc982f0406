import type { ContentVersionRepository } from "./content-version.repository";

/**
 * The stamp that invalidates every process's cached public pages. Bumped after
 * any successful change made by a signed-in user (server/middleware/page-cache.ts),
 * so no service can forget to; read once per cacheable request.
 */
export function createContentVersionService(deps: { repository: ContentVersionRepository }) {
  return {
    current: () => deps.repository.current(),
    changed: () => deps.repository.bump(),
  };
}
export type ContentVersionService = ReturnType<typeof createContentVersionService>;
