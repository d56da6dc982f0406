import type { Paper } from "../../core/library/library.schema";
import { escapeHtml } from "../../lib/html";

/**
 * An Atom feed of library papers (issue 33): a public category's (/library/{slug}/feed.xml) and a
 * member's private feed of what they follow (/library-feed/{token}.xml). Each entry links to the
 * paper's file (or the page when it has none) and sums up its revision, organisation and description.
 */
export function papersAtom(feed: {
  title: string;
  /** The page the feed is of; also its id. */
  page: string;
  /** The feed's own address. */
  self: string;
  siteName: string;
  origin: string;
  papers: Paper[];
}): string {
  const host = new URL(feed.origin).hostname;
  const updated = feed.papers[0]?.updated_at ?? new Date(0).toISOString();
  const summary = (parts: (string | null)[]) => parts.filter((p) => p?.trim()).join(" · ");
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>${escapeHtml(feed.title)}</title>
  <id>${escapeHtml(feed.page)}</id>
  <link href="${escapeHtml(feed.page)}"/>
  <link rel="self" href="${escapeHtml(feed.self)}"/>
  <updated>${escapeHtml(updated)}</updated>
  <author><name>${escapeHtml(feed.siteName)}</name></author>
${feed.papers
  .map((paper) => {
    const link = paper.file ? `${feed.origin}${paper.file.url}` : feed.page;
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
}

export const ATOM_TYPE = "application/atom+xml; charset=utf-8";
