import { isAppError } from "../../../lib/errors";
import { getRequestContext } from "../../context";
import { ATOM_TYPE, papersAtom } from "../../lib/papers-atom.server";
import type { Route } from "./+types/feed";

/**
 * /library/{slug}/feed.xml: the Atom feed of a public category (issue 33): the papers last added or
 * changed in it and its public sub-categories, newest first. It reads as a visitor reads the
 * library, whoever asks: a members-only or unknown category is the 404 for everyone, so that a
 * feed reader never stores what only members may see.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { services, origin } = getRequestContext(context);
  let feed: Awaited<ReturnType<typeof services.library.recentPapers>>;
  try {
    feed = await services.library.recentPapers(params.slug, { signedIn: false });
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") {
      return new Response("This feed could not be found", {
        status: 404,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    }
    throw error;
  }
  const { category, papers } = feed;
  const settings = await services.settings.getAll();
  const page = `${origin}/library/${category.slug}`;
  const body = papersAtom({
    title: `${category.name} · ${settings["site.name"]} library`,
    page,
    self: `${page}/feed.xml`,
    siteName: settings["site.name"],
    origin,
    papers,
  });
  return new Response(body, {
    headers: {
      "Content-Type": ATOM_TYPE,
      "Cache-Control": "public, max-age=600",
    },
  });
}
