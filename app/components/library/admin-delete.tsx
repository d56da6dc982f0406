import { Trash2 } from "lucide-react";
import { Dialog } from "radix-ui";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Form, Link, useFetcher } from "react-router";
import { DeleteDialogContent } from "../ui/confirm-delete";
import { Notice } from "../ui/notice";

/**
 * A delete that asks first, with or without JavaScript. With it, the link opens a dialog whose
 * form posts `fields` to the page's action through a fetcher; the dialog shows the action's
 * `{ error }` (a category that still has papers) or closes once it is done. Without it, the link
 * opens the page at `?delete=<row>`, where `confirming` shows the same question as a plain form.
 */
export function DeleteControl({
  row,
  label,
  title,
  description,
  fields,
  confirming,
  error,
  cancelTo,
  focusAfter = "main h1",
  onDeleted,
}: {
  row: string;
  /** The link's accessible name: "Delete the category Policies". */
  label: string;
  title: string;
  description: ReactNode;
  fields: Record<string, string | number>;
  /** Opened without JavaScript (`?delete=<row>`): the question in place. */
  confirming: boolean;
  /** The refusal a plain post got back. */
  error?: string;
  cancelTo: string;
  focusAfter?: string;
  /** What the action said once done ("Deleted “Policies”."), for the page's status line. */
  onDeleted?: (message: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const fetcher = useFetcher<{ error?: string; message?: string }>();
  const said = useRef(onDeleted);
  said.current = onDeleted;
  const busy = fetcher.state !== "idle";
  const link = useRef<HTMLAnchorElement>(null);
  const deleted = useRef(false);
  useEffect(() => {
    if (!open || fetcher.state === "submitting" || fetcher.data === undefined) return;
    if (fetcher.data?.error) setRefused(fetcher.data.error);
    else {
      deleted.current = true;
      setOpen(false);
      if (fetcher.data?.message) said.current?.(fetcher.data.message);
    }
  }, [open, fetcher.state, fetcher.data]);

  if (confirming) {
    return (
      <Form
        method="post"
        className="mt-3 w-full rounded-lg border border-red-200 bg-red-50/60 p-4"
        aria-labelledby={`${row}-delete-title`}
      >
        <p id={`${row}-delete-title`} className="font-semibold text-navy-900">
          {title}
        </p>
        <p className="mt-1 text-sm text-slate-700">{description}</p>
        {error ? (
          <Notice tone="error" className="mt-3">
            {error}
          </Notice>
        ) : null}
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div className="mt-4 flex justify-end gap-2">
          <Link to={cancelTo} className="btn-outline py-1.5">
            Cancel
          </Link>
          <button type="submit" className="btn bg-red-700 py-1.5 text-white hover:bg-red-800">
            Delete
          </button>
        </div>
      </Form>
    );
  }

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setRefused(null);
        setOpen(next);
      }}
    >
      <Link
        ref={link}
        to={`?delete=${row}#${row}`}
        preventScrollReset
        className="btn-ghost px-2 py-1.5 text-red-700 hover:bg-red-50"
        onClick={(event) => {
          event.preventDefault();
          setRefused(null);
          setOpen(true);
        }}
      >
        <Trash2 className="h-4 w-4" aria-hidden="true" />
        <span className="sr-only">{label}</span>
      </Link>
      <DeleteDialogContent
        title={title}
        description={description}
        error={refused}
        fields={{ ...fields, _fetch: "1" }}
        busy={busy}
        Form={fetcher.Form}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          // The deleted row's link is gone with it: focus goes to a heading instead of being lost.
          const target = deleted.current ? document.querySelector<HTMLElement>(focusAfter) : link.current;
          deleted.current = false;
          if (target && target !== link.current) target.tabIndex = -1;
          target?.focus();
        }}
      />
    </Dialog.Root>
  );
}

/** Whether React has hydrated: forms then say so (`_fetch`), and the action answers data instead of redirecting. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** The hidden field a fetcher's form carries once hydrated; a plain post lacks it and is redirected. */
export function FetchMarker() {
  return useHydrated() ? <input type="hidden" name="_fetch" value="1" /> : null;
}
