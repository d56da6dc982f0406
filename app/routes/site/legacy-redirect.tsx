import { redirect } from "react-router";
import { LEGACY_REDIRECTS } from "../../lib/site-map";
import type { Route } from "./+types/legacy-redirect";

/** Addresses of the previous page map answer with a permanent redirect to their current page. */
export function loader({ url }: Route.LoaderArgs) {
  return redirect(`${LEGACY_REDIRECTS[url.pathname] ?? "/"}${url.search}`, 301);
}
