/**
 * Names of the resized variants that storeImage (lib/images.ts) writes, kept
 * apart from it so that code without sharp (the HTML sanitizer) can build srcsets.
 */
import { UPLOADS_PATH, uploadUrl } from "./uploads";

/** Widths served through srcset; the largest is also the image's recorded size. */
export const IMAGE_WIDTHS = [480, 960, 1600] as const;

const VARIANT = /^(.*)-(\d+)\.webp$/;
const UPLOADED_VARIANT = new RegExp(`^${UPLOADS_PATH}/([\\w/-]+-\\d+\\.webp)$`);

/** All files of an image stored by storeImage (its variants), or just the key for other images. */
export function imageFiles(key: string): string[] {
  const match = VARIANT.exec(key);
  if (!match) return [key];
  const largest = Number(match[2]);
  return [...IMAGE_WIDTHS.filter((w) => w < largest).map((w) => `${match[1]}-${w}.webp`), key];
}

/** srcset for an image stored by storeImage; null for images without variants. */
export function imageSrcSet(key: string | null): string | null {
  if (!key) return null;
  if (!VARIANT.test(key)) return null;
  return imageFiles(key)
    .map((file) => `${uploadUrl(file)} ${VARIANT.exec(file)?.[2]}w`)
    .join(", ");
}

/** srcset for an <img src> that points at one of our uploaded variants (rich content). */
export function uploadedImageSrcSet(src: string | undefined): string | null {
  const match = src ? UPLOADED_VARIANT.exec(src) : null;
  return match ? imageSrcSet(match[1]) : null;
}
