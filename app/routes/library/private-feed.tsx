import { viewerOf } from "../../../core/access/access";
import { getRequestContext } from "../../context";
import { ATOM_TYPE, papersAtom } from "../../lib/papers-atom.server";
import type { Route } from "./+types/private-feed";

const NOT_FOUND = () =>
  new Response("This feed could not be found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });

/**
 * /library-feed/{token}.xml: a member's private Atom feed of the library categories they follow
 * (issue 33), at a secret address made on their preferences page, as their private calendar is
 * (decision 0034): only its hash is kept, a new address or a new password ends the old one, the
 * path is logged redacted, and the answer is never cached or sent on in a Referer. It reads as its
 * owner may read the library now: a lapsed company's representative gets the public categories only.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { services, origin } = getRequestContext(context);
  const file = params.file;
  if (!file.endsWith(".xml")) return NOT_FOUND();
  const owner = await services.profile.libraryFeedOwner(file.slice(0, -".xml".length));
  if (!owner) return NOT_FOUND();
  const { follows } = await services.notifications.preferences(owner.id);
  const categoryIds = follows.flatMap((f) => (f.kind === "category" && f.id !== undefined ? [f.id] : []));
  // The library's own viewer (core/access/access.ts viewerOf): members' content while they have
  // members' access, and their working groups' categories (issue 36).
  const viewer = viewerOf(await services.members.accessOf(owner));
  const papers = await services.library.followedPapers(categoryIds, viewer);
  const settings = await services.settings.getAll();
  const body = papersAtom({
    title: `What you follow · ${settings["site.name"]} library`,
    page: `${origin}/dashboard/notifications`,
    self: `${origin}/library-feed/${file}`,
    siteName: settings["site.name"],
    origin,
    papers,
  });
  return new Response(body, {
    headers: { "Content-Type": ATOM_TYPE, "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" },
  });
}
