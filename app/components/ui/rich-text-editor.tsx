import { lazy, Suspense, useSyncExternalStore } from "react";

/** TipTap and ProseMirror load in the browser only: never on the server. */
const loadEditor = () => import("./rich-text-editor-tiptap");
// In the browser the editor's code starts loading with the page that shows it, not once it renders.
if (typeof document !== "undefined") void loadEditor();
const TiptapEditor = lazy(loadEditor);

const subscribeNever = () => () => {};
/** False on the server and while hydrating the server's HTML; true for anything rendered in the browser after that. */
function useInBrowser(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}

/**
 * The admin's rich-text editor (TipTap). The server renders a plain HTML textarea, which is what
 * stands in without JavaScript; the server sanitizes whatever arrives. In the browser the editor
 * replaces it, with a placeholder (not a field, so nothing typed is lost) while its code loads. The
 * editor's code is not part of the server's render at all, so a server process never loads it
 * (decision 0029).
 */
export function RichTextEditor({
  name,
  label,
  initialHtml,
  error,
  compact = false,
}: {
  name: string;
  label: string;
  initialHtml: string;
  error?: string;
  /** A shorter box, for the secondary texts of a form with several editors. */
  compact?: boolean;
}) {
  const inBrowser = useInBrowser();
  const labelId = `${name}-label`;
  const textarea = (
    <textarea
      name={name}
      aria-labelledby={labelId}
      defaultValue={initialHtml}
      rows={compact ? 8 : 16}
      className="field-input font-mono text-sm"
      aria-invalid={error ? true : undefined}
    />
  );
  const loading = (
    <div
      aria-busy="true"
      className={`flex items-center justify-center rounded-md border border-slate-300 bg-white text-sm text-slate-500 ${compact ? "min-h-40" : "min-h-80"}`}
    >
      Loading the editor…
    </div>
  );
  return (
    <div>
      <span id={labelId} className="field-label">
        {label}
      </span>
      {inBrowser ? (
        <Suspense fallback={loading}>
          <TiptapEditor
            name={name}
            labelId={labelId}
            initialHtml={initialHtml}
            error={error}
            compact={compact}
            fallback={loading}
          />
        </Suspense>
      ) : (
        textarea
      )}
      {error ? (
        <p id={`${name}-error`} className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
