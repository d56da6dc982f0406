import { imageSrcSet } from "../../lib/image-variants";
import { storeImage } from "../../lib/images";
import type { FileStorage } from "../../lib/storage";
import { uploadUrl } from "../../lib/uploads";
import { invalidInput } from "../../lib/validation";
import type { ContentImage } from "./media.schema";

/** Images placed inside rich content (news, pages) from the editor. */
export function createMediaService(deps: { storage: FileStorage }) {
  return {
    /** Checked by content and stored in resized variants; the editor inserts the largest. */
    async storeContentImage(data: Uint8Array | undefined): Promise<ContentImage> {
      if (!data) {
        throw invalidInput({ image: ["Choose an image to upload."] });
      }
      const stored = await storeImage(deps.storage, "content", data);
      return {
        url: uploadUrl(stored.key),
        width: stored.width,
        height: stored.height,
        srcset: imageSrcSet(stored.key),
      };
    },
  };
}
export type MediaService = ReturnType<typeof createMediaService>;
