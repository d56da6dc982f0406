import sanitize from "sanitize-html";
import { uploadedImageSrcSet } from "./image-variants";

/** Hosts whose embedded players may appear in rich content. */
const IFRAME_HOSTS = ["www.youtube-nocookie.com", "www.youtube.com", "player.vimeo.com"];

const OPTIONS: sanitize.IOptions = {
  allowedTags: [
    "p",
    "br",
    "hr",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "sub",
    "sup",
    "small",
    "mark",
    "a",
    "ul",
    "ol",
    "li",
    "blockquote",
    "code",
    "pre",
    "figure",
    "figcaption",
    "img",
    "iframe",
    "table",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "th",
    "td",
    "caption",
    "span",
    "div",
  ],
  allowedAttributes: {
    a: ["href", "title", "target", "rel"],
    img: ["src", "srcset", "sizes", "alt", "title", "width", "height", "loading"],
    iframe: ["src", "title", "width", "height", "allow", "allowfullscreen", "frameborder"],
    th: ["colspan", "rowspan", "scope"],
    td: ["colspan", "rowspan"],
    ol: ["start"],
  },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https"], iframe: ["https"] },
  allowProtocolRelative: false,
  allowedIframeHostnames: IFRAME_HOSTS,
  disallowedTagsMode: "discard",
  transformTags: {
    // Links that open a new tab must not hand the opener to the other site.
    a: (tagName, attribs) =>
      attribs.target === "_blank"
        ? { tagName, attribs: { ...attribs, rel: "noopener noreferrer" } }
        : { tagName, attribs: { ...attribs, rel: attribs.rel ?? "" } },
    // Our own uploads get their resized variants; a srcset from elsewhere is never kept.
    img: (tagName, { srcset: _ignored, sizes: _alsoIgnored, ...attribs }) => {
      const srcset = uploadedImageSrcSet(attribs.src);
      return {
        tagName,
        attribs: {
          ...attribs,
          // An image without alt text is read out by its file name: none given means decorative.
          alt: attribs.alt ?? "",
          ...(srcset ? { srcset, sizes: "(min-width: 768px) 720px, 100vw" } : {}),
          loading: "lazy",
        },
      };
    },
  },
  exclusiveFilter: (frame) =>
    (frame.tag === "a" && !frame.attribs.href && !frame.text.trim()) || (frame.tag === "iframe" && !frame.attribs.src),
};

/**
 * Rich content as stored and as rendered: an allowlist of tags and attributes,
 * no scripts, no event handlers, no javascript: URLs, iframes only from known
 * video hosts. Applied on write and again on render.
 */
export function sanitizeRichText(html: string): string {
  return sanitize(html, OPTIONS).replace(/ rel=""/g, "");
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'", nbsp: " " };

/**
 * The readable text of some HTML, for search, excerpts and descriptions. The
 * result is plain text that is always escaped when shown, so a quick tag strip
 * is enough (and far cheaper than a full parse on every list render).
 */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+\d*);/gi, (entity, name: string) => {
      const key = name.toLowerCase();
      if (key in ENTITIES) return ENTITIES[key];
      if (key.startsWith("#x")) return String.fromCodePoint(Number.parseInt(key.slice(2), 16) || 32);
      if (key.startsWith("#")) return String.fromCodePoint(Number(key.slice(1)) || 32);
      return entity;
    })
    .replace(/\s+/g, " ")
    .trim();
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const EXCERPT_LENGTH = 220;

/** A list's excerpt of some HTML: its text, cut at a word with an ellipsis past 220 characters. */
export function excerptOf(html: string): string {
  const text = htmlToText(html);
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 3).replace(/\s+\S*$/, "")}…` : text;
}

/** Whether sanitized rich content has anything to show: text, or an image. */
export function hasContent(html: string): boolean {
  return htmlToText(html).length > 0 || /<img\s/i.test(html);
}
