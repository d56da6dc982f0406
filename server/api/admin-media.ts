import { Hono } from "hono";
import type { AppEnv, Runtime } from "../env";
import { access, ok, readBody, uploadedImage } from "./http";

/** Uploads for the rich-text editor: an image to place inside news or page content. */
export function adminMediaRoutes({ services }: Runtime) {
  const api = new Hono<AppEnv>();
  api.post("/dashboard/images", access.admin, async (c) => {
    const image = await services.media.storeContentImage(await uploadedImage(await readBody(c, ["multipart"])));
    return ok(c, { image }, 201);
  });
  return api;
}
