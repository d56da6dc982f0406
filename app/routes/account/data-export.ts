import { redirect } from "react-router";
import { isAppError } from "../../../lib/errors";
import { zipResponse } from "../../../lib/zip-response";
import { getRequestContext } from "../../context";
import type { Route } from "./+types/data-export";

/**
 * The settings page's "Download my data" (issue 35): the same ZIP as GET /api/dashboard/user/export,
 * streamed as it is written. Past the hourly limit, back to the settings page, which says how long to wait.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { services, auth } = getRequestContext(context);
  if (!auth) throw redirect("/login?redirect=/dashboard/user-settings");
  try {
    const archive = await services.privacy.exportArchive({ userId: auth.user.id });
    return zipResponse(archive);
  } catch (error) {
    if (isAppError(error) && error.code === "rate_limited") {
      throw redirect(`/dashboard/user-settings?export_wait=${Number(error.details.retryAfter ?? 3600)}#your-data`);
    }
    throw error;
  }
}
