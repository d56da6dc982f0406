import { z } from "@hono/zod-openapi";
import { contentImageSchema } from "../../core/media/media.schema";
import type { Runtime } from "../env";
import { apiRouter, declare, success } from "./contract";
import { access, ok, uploadedImage } from "./http";

/** Uploads for the rich-text editor: an image to place inside news or page content. */
export function adminMediaRoutes({ services }: Runtime) {
  const api = apiRouter();
  declare(
    api,
    {
      method: "post",
      path: "/dashboard/images",
      access: access.editor,
      tag: "Media",
      summary: "Upload an image for rich-text content",
      body: { schema: imageUpload("image"), encodings: ["multipart"] },
      response: { status: 201, schema: success({ image: contentImageSchema }) },
      errors: [507],
    },
    async (c, { raw }) => ok(c, { image: await services.media.storeContentImage(await uploadedImage(raw)) }, 201),
  );
  return api;
}

/** A multipart body with one image file field (its content is checked by lib/images). */
export function imageUpload(field: string) {
  return z.object({ [field]: fileField.optional() });
}

/** A file part of a multipart form. */
export const fileField = z.unknown().openapi({ type: "string", format: "binary" });
