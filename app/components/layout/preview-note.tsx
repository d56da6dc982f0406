import { Eye } from "lucide-react";
import { formatDate } from "../news/post-card";

/** A draft for whoever holds the link: never stored by a cache, never indexed, never sent on in a Referer. */
export const PREVIEW_HEADERS = {
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex",
  "Referrer-Policy": "no-referrer",
} as const;

/** The meta of a preview page: its title, and no index nor Referer. */
export const previewMeta = (title: string | undefined) => [
  { title: title ? `Preview: ${title}` : "Preview" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

/** "Preview": what state the item is in, and until when the link works (decisions 0070, 0072). */
export function PreviewNote({
  noun,
  status,
  publishAt,
  expiresAt,
}: {
  noun: "post" | "page";
  status: "draft" | "scheduled" | "published";
  publishAt: string | null;
  expiresAt: string;
}) {
  return (
    <p
      role="note"
      className="flex flex-wrap items-center gap-2 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200"
    >
      <Eye className="h-4 w-4" aria-hidden="true" />
      <span className="font-semibold">Preview</span>
      <span>
        {status === "draft"
          ? "A draft, not on the site yet."
          : status === "scheduled"
            ? `Scheduled: on the site from ${formatDate(publishAt ?? "")}.`
            : `This ${noun} is published.`}{" "}
        This link works until {formatDate(expiresAt)}.
      </span>
    </p>
  );
}
