import { isAppError } from "../../../lib/errors";
import { escapeHtml } from "../../../lib/html";
import { getRequestContext } from "../../context";
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
  const host = new URL(origin).hostname;
  const updated = papers[0]?.updated_at ?? new Date(0).toISOString();
  const summary = (parts: (string | null)[]) => parts.filter((p) => p?.trim()).join(" · ");
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>${escapeHtml(`${category.name} · ${settings["site.name"]} library`)}</title>
  <id>${escapeHtml(page)}</id>
  <link href="${escapeHtml(page)}"/>
  <link rel="self" href="${escapeHtml(`${page}/feed.xml`)}"/>
  <updated>${escapeHtml(updated)}</updated>
  <author><name>${escapeHtml(settings["site.name"])}</name></author>
${papers
  .map((paper) => {
    const link = paper.file ? `${origin}${paper.file.url}` : page;
    return `  <entry>
    <title>${escapeHtml(paper.number ? `${paper.number} ${paper.name}` : paper.name)}</title>
    <id>${escapeHtml(`tag:${host},2026:paper-${paper.id}`)}</id>
    <link href="${escapeHtml(link)}"/>
    <published>${escapeHtml(paper.created_at)}</published>
    <updated>${escapeHtml(paper.updated_at)}</updated>
    <summary>${escapeHtml(summary([paper.revision ? `Revision ${paper.revision}` : null, paper.organization, paper.description]))}</summary>
  </entry>`;
  })
  .join("\n")}
</feed>
`;
  return new Response(body, {
    headers: {
      "Content-Type": "application/atom+xml; charset=utf-8",
      "Cache-Control": "public, max-age=600",
    },
  });
}
