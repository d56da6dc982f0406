import { categoryUrl } from "../../../core/library/library.values";
import { companyUrl } from "../../../core/members/members.values";
import { postUrl } from "../../../core/news/news.schema";
import { HOME_PAGE } from "../../../core/pages/fixed-pages";
import { escapeHtml } from "../../../lib/html";
import { getRequestContext } from "../../context";
import type { Route } from "./+types/sitemap";

/** sitemap.xml: every public page that exists; content types add theirs as they land. */
export async function loader({ context }: Route.LoaderArgs) {
  const { services, origin } = getRequestContext(context);
  const [allPages, posts, meetings, library, companies] = await Promise.all([
    // The visible CMS pages, the association's own among them (decision 0072); /home is read at /.
    services.pages.sitemapEntries(),
    services.news.sitemapEntries(),
    services.meetings.sitemapEntries(),
    services.library.sitemapEntries(),
    // Current companies only: one that lapses or leaves drops out with no write (decision 0046).
    services.members.sitemapEntries(),
  ]);
  const pages = allPages.filter((p) => p.url !== HOME_PAGE);
  const entries = [
    { loc: "/", lastmod: undefined as string | undefined },
    { loc: "/members-list", lastmod: undefined },
    ...companies.map((c) => ({ loc: companyUrl(c.slug), lastmod: c.updated_at.slice(0, 10) })),
    { loc: "/members-join", lastmod: undefined },
    { loc: "/news", lastmod: undefined },
    ...["/events", "/conference", "/workshop"].map((loc) => ({ loc, lastmod: undefined })),
    ...pages.map((p) => ({ loc: p.url, lastmod: p.updated_at.slice(0, 10) })),
    ...posts.map((p) => ({ loc: postUrl(p.slug), lastmod: p.updated_at.slice(0, 10) })),
    ...meetings.map((m) => ({ loc: `/events/${m.slug}`, lastmod: m.updated_at.slice(0, 10) })),
    ...(library.length > 0 ? [{ loc: "/library", lastmod: undefined }] : []),
    ...library.map((c) => ({ loc: categoryUrl(c.slug, true), lastmod: c.updated_at.slice(0, 10) })),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${entries.map((e) => `  <url><loc>${escapeHtml(`${origin}${e.loc}`)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ""}</url>`).join("\n")}
</urlset>
`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
