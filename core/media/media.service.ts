import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import { imageSrcSet } from "../../lib/image-variants";
import { storeImage } from "../../lib/images";
import type { FileStorage } from "../../lib/storage";
import { uploadUrl } from "../../lib/uploads";
import { invalidInput } from "../../lib/validation";
import type { ContentImage } from "./media.schema";
import { type SweepOptions, type SweepResult, sweepUploads } from "./upload-sweep";

/** Images placed inside rich content (news, pages) from the editor; uploads no row references. */
export function createMediaService(deps: { storage: FileStorage; db: Kysely<Database> }) {
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
    /** Removes the public uploads no row references, past their grace period (decision 0015). */
    sweepUploads(options: SweepOptions = {}): Promise<SweepResult> {
      return sweepUploads({ db: deps.db, storage: deps.storage }, options);
    },
  };
}
export type MediaService = ReturnType<typeof createMediaService>;
