import { randomBytes } from "node:crypto";
import { fileTypeFromBuffer } from "file-type";
import type { Sharp, default as SharpFactory } from "sharp";
import { AppError } from "./errors";
import { IMAGE_WIDTHS } from "./image-variants";
import type { FileStorage } from "./storage";
import { IMAGE_TYPES, uploadKeyOf } from "./uploads";

const ACCEPTED = new Set<string>(IMAGE_TYPES);
const MAX_PIXELS = 50_000_000;

let loadedSharp: typeof SharpFactory | undefined;
/** sharp (libvips, 30 MB resident) is loaded by the first image a process handles, not at start. */
async function imageLibrary(): Promise<typeof SharpFactory> {
  loadedSharp ??= (await import("sharp")).default;
  return loadedSharp;
}

export type StoredImage = { key: string; width: number; height: number; keys: string[] };

function unreadable(field: string, message: string): never {
  throw new AppError("unsupported_media_type", message, { errors: { [field]: [message] } });
}

/**
 * Checks an upload by its content (not its name or declared type), then
 * stores resized WebP variants with metadata (EXIF, GPS) stripped. The
 * width and height come from the file, never from the client.
 */
export async function storeImage(
  storage: FileStorage,
  folder: string,
  data: Uint8Array,
  field = "image",
): Promise<StoredImage> {
  const type = await fileTypeFromBuffer(data);
  if (!type || !ACCEPTED.has(type.mime)) unreadable(field, "The image must be a JPEG, PNG, WebP or GIF file.");
  const sharp = await imageLibrary();
  let source: Sharp;
  let width: number;
  try {
    source = sharp(data, { limitInputPixels: MAX_PIXELS, failOn: "error" }).rotate();
    const meta = await sharp(data, { limitInputPixels: MAX_PIXELS }).metadata();
    // EXIF orientations 5-8 are quarter turns: width and height swap once rotated.
    width = (meta.orientation ?? 1) >= 5 ? (meta.height ?? 0) : (meta.width ?? 0);
    if (!width) throw new Error("no dimensions");
  } catch {
    unreadable(field, "The image could not be read.");
  }
  const largest = Math.min(width, IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]);
  const widths = [...IMAGE_WIDTHS.filter((w) => w < largest), largest];
  const base = `${folder}/${randomBytes(8).toString("hex")}`;
  let stored = { width: 0, height: 0 };
  const keys = await storeVariants(
    storage,
    field,
    widths.map((w) => ({
      key: `${base}-${w}.webp`,
      render: async () => {
        const { data: out, info } = await source
          .clone()
          .resize({ width: w, withoutEnlargement: true })
          .webp({ quality: 78 })
          .toBuffer({ resolveWithObject: true });
        stored = { width: info.width, height: info.height };
        return out;
      },
    })),
  );
  return { key: keys[keys.length - 1], width: stored.width, height: stored.height, keys };
}

/**
 * Renders and stores an image's variants one by one; on any failure removes
 * every variant already stored. A variant that does not render (a file that
 * passed the sniffing but does not decode) is the client's unreadable image
 * (415); a failed write is the storage's error (a full disk is 507), never
 * reported as bad input.
 */
async function storeVariants(
  storage: FileStorage,
  field: string,
  variants: { key: string; render: () => Promise<Uint8Array> }[],
): Promise<string[]> {
  const keys: string[] = [];
  const removeStored = () => Promise.allSettled(keys.map((key) => storage.remove(key)));
  for (const variant of variants) {
    let data: Uint8Array;
    try {
      data = await variant.render();
    } catch {
      await removeStored();
      unreadable(field, "The image could not be read.");
    }
    try {
      await storage.put(variant.key, data);
    } catch (error) {
      await removeStored();
      throw error;
    }
    keys.push(variant.key);
  }
  return keys;
}

/** Avatar sizes: the user menu shows 32 px (64 on sharp screens); 128 and 256 for larger places. */
export const AVATAR_SIZES = [64, 128, 256] as const;

/**
 * An avatar: checked by content like storeImage, cropped to a centred square
 * and stored as WebP at each size, metadata stripped. Answers the largest key.
 */
export async function storeAvatar(storage: FileStorage, folder: string, data: Uint8Array, field = "avatar") {
  const type = await fileTypeFromBuffer(data);
  if (!type || !ACCEPTED.has(type.mime)) unreadable(field, "The image must be a JPEG, PNG, WebP or GIF file.");
  const base = `${folder}/${randomBytes(8).toString("hex")}`;
  const sharp = await imageLibrary();
  const source = sharp(data, { limitInputPixels: MAX_PIXELS, failOn: "error" }).rotate();
  const keys = await storeVariants(
    storage,
    field,
    AVATAR_SIZES.map((size) => ({
      key: `${base}-${size}.webp`,
      render: () =>
        source
          .clone()
          .resize({ width: size, height: size, fit: "cover", position: "attention" })
          .webp({ quality: 80 })
          .toBuffer(),
    })),
  );
  return { key: keys[keys.length - 1], keys };
}

/** Every stored size of an avatar from its largest key. */
export function avatarFiles(key: string): string[] {
  const match = /^(.*)-256\.webp$/.exec(key);
  return match ? AVATAR_SIZES.map((size) => `${match[1]}-${size}.webp`) : [key];
}

/** Removes an avatar's files from its public address (`/uploads/…`); a file already gone is fine. */
export async function removeAvatarFiles(storage: FileStorage, avatar: string | null): Promise<void> {
  const key = avatar ? uploadKeyOf(avatar) : null;
  if (key) await Promise.all(avatarFiles(key).map((file) => storage.remove(file).catch(() => {})));
}
