import { postUrl } from "../../../core/news/news.schema";
import { escapeHtml } from "../../../lib/html";
import { getRequestContext } from "../../context";
import type { Route } from "./+types/feed";

/** RSS 2.0 (/news/rss.xml) and Atom (/news/atom.xml) feeds of the latest posts. */
export async function loader({ context, url }: Route.LoaderArgs) {
  const { services, origin } = getRequestContext(context);
  const settings = await services.settings.getAll();
  const { data: posts } = await services.news.list({ filters: null, search: "", page: 1 });
  const siteName = escapeHtml(settings["site.name"]);
  const atom = url.pathname.endsWith("atom.xml");
  const link = (slug: string) => escapeHtml(`${origin}${postUrl(slug)}`);
  const updated = posts[0]?.published_at ?? new Date(0).toISOString();
  const body = atom
    ? `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>${siteName} news</title>
  <id>${escapeHtml(`${origin}/news`)}</id>
  <link href="${escapeHtml(`${origin}/news`)}"/>
  <link rel="self" href="${escapeHtml(`${origin}/news/atom.xml`)}"/>
  <updated>${updated}</updated>
${posts
  .map(
    (p) => `  <entry>
    <title>${escapeHtml(p.title)}</title>
    <id>${link(p.slug)}</id>
    <link href="${link(p.slug)}"/>
    <updated>${p.published_at}</updated>
    <author><name>${escapeHtml(p.author_name ?? settings["site.name"])}</name></author>
    <summary>${escapeHtml(p.excerpt)}</summary>
  </entry>`,
  )
  .join("\n")}
</feed>
`
    : `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${siteName} news</title>
    <link>${escapeHtml(`${origin}/news`)}</link>
    <atom:link href="${escapeHtml(`${origin}/news/rss.xml`)}" rel="self" type="application/rss+xml"/>
    <description>${escapeHtml(settings["site.tagline"])}</description>
    <language>en</language>
${posts
  .map(
    (p) => `    <item>
      <title>${escapeHtml(p.title)}</title>
      <link>${link(p.slug)}</link>
      <guid isPermaLink="true">${link(p.slug)}</guid>
      <pubDate>${new Date(p.published_at).toUTCString()}</pubDate>
      <description>${escapeHtml(p.excerpt)}</description>
    </item>`,
  )
  .join("\n")}
  </channel>
</rss>
`;
  return new Response(body, {
    headers: {
      "Content-Type": atom ? "application/atom+xml; charset=utf-8" : "application/rss+xml; charset=utf-8",
      "Cache-Control": "public, max-age=600",
    },
  });
}
