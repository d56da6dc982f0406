/**
 * Where uploaded files are served and which images are accepted: one home for
 * rules that the server, the services and the browser's file pickers share
 * (browser-safe: no Node modules).
 */

/** The public path prefix under which stored files are served (server/app.ts mounts it). */
export const UPLOADS_PATH = "/uploads";

/** A stored file's key (news/3fa9-1600.webp) as the address the site serves it at. */
export function uploadUrl(key: string): string;
export function uploadUrl(key: string | null): string | null;
export function uploadUrl(key: string | null): string | null {
  return key ? `${UPLOADS_PATH}/${key}` : null;
}

/** The key of a stored file from its public address; other values are answered as they are. */
export function uploadKeyOf(url: string): string {
  return url.startsWith(`${UPLOADS_PATH}/`) ? url.slice(UPLOADS_PATH.length + 1) : url;
}

/** Image types accepted for upload, decided by the file's content (lib/images.ts sniffs it). */
export const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;

/** The same list for an `<input type="file" accept>`: a hint to the picker, never a check. */
export const IMAGE_ACCEPT = IMAGE_TYPES.join(",");
