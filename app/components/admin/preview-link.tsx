import { Eye } from "lucide-react";
import { formatDate } from "../news/post-card";

/**
 * A draft's or a scheduled item's preview link (decisions 0070, 0072), to open or to send to
 * someone who should read it first: the screen says who can open it and until when.
 */
export function PreviewLink({ url, expires_at, noun }: { url: string; expires_at: string; noun: "post" | "page" }) {
  return (
    <div className="mt-4 rounded-md bg-slate-50 px-4 py-3 text-sm text-slate-700 ring-1 ring-slate-200">
      <label htmlFor="preview-link" className="font-semibold text-navy-900">
        Preview link
      </label>
      <p id="preview-hint" className="mt-1">
        Anyone with this link can read the {noun} as it will look until {formatDate(expires_at)}, without signing in.
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <input
          id="preview-link"
          readOnly
          value={url}
          aria-describedby="preview-hint"
          className="w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-1.5 font-mono text-xs sm:w-auto sm:flex-1"
        />
        <a href={url} target="_blank" rel="noreferrer" className="btn-outline py-1.5">
          <Eye className="h-4 w-4" aria-hidden="true" />
          Open the preview
        </a>
      </div>
    </div>
  );
}

/** The absolute address of a preview link's path, at the site's public origin. */
export const previewOf = (origin: string, link: { path: string; expires_at: string } | null) =>
  link ? { url: `${origin.replace(/\/+$/, "")}${link.path}`, expires_at: link.expires_at } : null;
