import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { readSignedToken, signToken } from "../../lib/signed-token";

/** How long a preview link opens its draft (issue 34). */
export const PREVIEW_DAYS = 7;

/**
 * Preview links of drafts and scheduled content (decision 0070 for posts, 0072 for pages): signed,
 * not stored, so each call makes a new one and none can be withdrawn but by the key. The purpose
 * is signed too: a post's link opens no page of the same id, and the other way round.
 */
export function previewLinks(deps: { key?: () => Promise<Buffer>; clock: Clock; purpose: string }) {
  return {
    async sign(id: number): Promise<{ token: string; expires_at: string }> {
      if (!deps.key) throw new AppError("unavailable", "Previews are not available in this process.");
      const expiresAt = new Date(deps.clock().getTime() + PREVIEW_DAYS * 86_400_000);
      return { token: signToken(await deps.key(), deps.purpose, id, expiresAt), expires_at: expiresAt.toISOString() };
    },
    /** The id a link names and when it expires, or null: not a link of ours, of another purpose, or expired. */
    async read(token: string): Promise<{ id: number; expires_at: string } | null> {
      if (!deps.key || token.length > 100) return null;
      const found = readSignedToken(await deps.key(), deps.purpose, token, deps.clock());
      return found ? { id: found.id, expires_at: found.expiresAt.toISOString() } : null;
    },
  };
}
