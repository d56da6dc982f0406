import { randomBytes } from "node:crypto";
import { fileTypeFromBuffer } from "file-type";
import type { Metadata, Sharp, default as SharpFactory } from "sharp";
import { AppError } from "./errors";
import { IMAGE_WIDTHS } from "./image-variants";
import type { FileStorage } from "./storage";
import { IMAGE_TYPES, IMAGE_TYPES_TEXT, MAX_IMAGE_PIXELS, uploadKeyOf } from "./uploads";
import { invalidInput } from "./validation";

const ACCEPTED = new Set<string>(IMAGE_TYPES);
export const IMAGE_TYPES_MESSAGE = `The image must be a ${IMAGE_TYPES_TEXT} file.`;

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
 * An upload's image type from its bytes and its size from its header (read before anything is
 * decoded): a type we do not take is a 415, more than MAX_IMAGE_PIXELS a 422 that says by how much.
 * Decoding a 40 MP image takes 160 MB in libvips; the limit keeps a few uploads at once from
 * taking the process's memory (decision 0036).
 */
async function checkImage(
  data: Uint8Array,
  field: string,
): Promise<{ sharp: typeof SharpFactory; meta: Metadata & { width: number; height: number } }> {
  const type = await fileTypeFromBuffer(data);
  if (!type || !ACCEPTED.has(type.mime)) unreadable(field, IMAGE_TYPES_MESSAGE);
  const sharp = await imageLibrary();
  let meta: Metadata & { width: number; height: number };
  try {
    // The header only: no pixel is decoded, so no limit is needed to read how many there are.
    // Read once: the caller takes the orientation and size from it too.
    const read = await sharp(data, { limitInputPixels: false }).metadata();
    if (!read.width || !read.height) throw new Error("no dimensions");
    meta = { ...read, width: read.width, height: read.height };
  } catch {
    unreadable(field, "The image could not be read.");
  }
  const pixels = meta.width * meta.height;
  const size = `${meta.width} × ${meta.height}`;
  if (pixels > MAX_IMAGE_PIXELS) {
    const megapixels = (Math.floor(pixels / 100_000) / 10).toFixed(1);
    throw invalidInput({
      [field]: [
        `The image is ${megapixels} megapixels (${size}); at most ${MAX_IMAGE_PIXELS / 1_000_000} are accepted. Scale it down and upload it again.`,
      ],
    });
  }
  return { sharp, meta };
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
  const { sharp, meta } = await checkImage(data, field);
  let source: Sharp;
  try {
    source = sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" }).rotate();
  } catch {
    unreadable(field, "The image could not be read.");
  }
  // EXIF orientations 5-8 are quarter turns: width and height swap once rotated.
  const width = (meta.orientation ?? 1) >= 5 ? meta.height : meta.width;
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
  const { sharp } = await checkImage(data, field);
  const base = `${folder}/${randomBytes(8).toString("hex")}`;
  const source = sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" }).rotate();
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
