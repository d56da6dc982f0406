import type { Services } from "../../core/services";
import { isAppError } from "../../lib/errors";

/** A CMS page's content when it exists; pages built around it still render without it. */
export async function optionalPage(services: Services, url: string) {
  try {
    return await services.pages.getPage(url);
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") return null;
    throw error;
  }
}
