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

/**
 * Image types accepted for upload, decided by the file's content (lib/images.ts sniffs it).
 * Not GIF (decision 0036): photos and logos come as JPEG, PNG or WebP, and a GIF's frames
 * would be flattened to its first one anyway.
 */
export const IMAGE_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;

/** The accepted types as people read them, for hints and the refusal's message. */
export const IMAGE_TYPES_TEXT = "JPEG, PNG or WebP";

/** The most pixels an uploaded image may have (decision 0036): 40 megapixels. */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** The same list for an `<input type="file" accept>`: a hint to the picker, never a check. */
export const IMAGE_ACCEPT = IMAGE_TYPES.join(",");
