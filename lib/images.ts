import { randomBytes } from "node:crypto";
import { fileTypeFromBuffer } from "file-type";
import sharp, { type Sharp } from "sharp";
import { AppError } from "./errors";
import { IMAGE_WIDTHS } from "./image-variants";
import type { FileStorage } from "./storage";

const ACCEPTED = new Set(["image/jpeg", "image/png", "image/webp", "image/gif"]);
const MAX_PIXELS = 50_000_000;

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
  const keys: string[] = [];
  let stored = { width: 0, height: 0 };
  try {
    for (const w of widths) {
      const { data: out, info } = await source
        .clone()
        .resize({ width: w, withoutEnlargement: true })
        .webp({ quality: 78 })
        .toBuffer({ resolveWithObject: true });
      const key = `${base}-${w}.webp`;
      await storage.put(key, out);
      keys.push(key);
      stored = { width: info.width, height: info.height };
    }
  } catch {
    // A file that passed the sniffing but does not decode: leave nothing behind.
    await Promise.all(keys.map((key) => storage.remove(key)));
    unreadable(field, "The image could not be read.");
  }
  return { key: keys[keys.length - 1], width: stored.width, height: stored.height, keys };
}
