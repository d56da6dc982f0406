import sanitize from "sanitize-html";

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
    img: ["src", "alt", "title", "width", "height", "loading"],
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
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: "lazy" } }),
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

/** The readable text of some HTML, for search and descriptions. */
export function htmlToText(html: string): string {
  return sanitize(html.replace(/<\/(p|h\d|li|blockquote|tr|div)>|<br\s*\/?>/gi, "$& "), {
    allowedTags: [],
    allowedAttributes: {},
  })
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
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
