import { redirect } from "react-router";
import { privacyLookupSchema } from "../../../core/privacy/privacy.schema";
import { zipResponse } from "../../../lib/zip-response";
import { getRequestContext } from "../../context";
import type { Route } from "./+types/privacy-export";

/** Everything held about an address as a ZIP (issue 35), for the secretariat. Under the admin layout: admins only. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const parsed = privacyLookupSchema.safeParse({ email: url.searchParams.get("email") ?? "" });
  // No address to export: back to the search, which says what is wrong with it.
  if (!parsed.success)
    throw redirect(`/manager/privacy?${new URLSearchParams({ email: url.searchParams.get("email") ?? "" })}`);
  const archive = await services.privacy.exportArchive({ email: parsed.data.email });
  return zipResponse(archive);
}
