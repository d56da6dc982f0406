import { Trash2 } from "lucide-react";
import { Dialog } from "radix-ui";
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from "react";
import { Form, Link, useFetcher } from "react-router";
import { DeleteDialogContent } from "../ui/confirm-delete";
import { Notice } from "../ui/notice";

/** What a page does with the answers of its delete dialogs: see useDeleteStatus. */
export const DeleteStatus = createContext<((fetcherKey: string, focusAfter: string) => void) | null>(null);

/**
 * The page's side of its delete dialogs: the message of the last delete ("Deleted “Policies”."),
 * for the page's status line. A delete's answer can arrive in the same render that removes its
 * row, and the dialog with it (React Router's updates are transitions, which a busy browser
 * merges), so the row cannot be trusted to say it: the page follows the fetcher of the delete last
 * submitted, by its key, and reads the answer itself. Give the result to `DeleteStatus`.
 */
export function useDeleteStatus(
  onDeleted: (message: string) => void,
): (fetcherKey: string, focusAfter: string) => void {
  const [followed, setFollowed] = useState<{ key: string; focusAfter: string }>();
  const fetcher = useFetcher<{ message?: string }>({ key: followed?.key });
  const said = useRef(onDeleted);
  said.current = onDeleted;
  const reported = useRef<object | undefined>(undefined);
  useEffect(() => {
    const answer = fetcher.data;
    if (!followed || !answer?.message || answer === reported.current) return;
    reported.current = answer;
    said.current(answer.message);
    // The dialog went with its row, and focus with them: to the heading, as when the dialog closes itself.
    if (document.activeElement && document.activeElement !== document.body) return;
    const heading = document.querySelector<HTMLElement>(followed.focusAfter);
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus();
  }, [followed, fetcher.data]);
  return (key, focusAfter) => setFollowed({ key, focusAfter });
}

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
}) {
  const [open, setOpen] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const fetcherKey = `library-delete-${row}`;
  const fetcher = useFetcher<{ error?: string; message?: string }>({ key: fetcherKey });
  const follow = useContext(DeleteStatus);
  const busy = fetcher.state !== "idle";
  const link = useRef<HTMLAnchorElement>(null);
  const deleted = useRef(false);
  /** The answer there was when this opening's Delete was pressed: only a newer one is this opening's. */
  const pressed = useRef<{ before: unknown } | null>(null);
  useEffect(() => {
    const asked = pressed.current;
    if (!open || !asked || fetcher.state === "submitting" || fetcher.data === asked.before) return;
    pressed.current = null;
    if (fetcher.data?.error) setRefused(fetcher.data.error);
    else {
      deleted.current = true;
      setOpen(false);
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
        onSubmit={() => {
          pressed.current = { before: fetcher.data };
          follow?.(fetcherKey, focusAfter);
        }}
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

/** The page's status line: what the last action did ("Deleted “Policies”."), said politely to screen readers. */
export function StatusLine({ message }: { message: string | null | undefined }) {
  return (
    <p role="status" className={message ? "mt-4 rounded-md bg-sea-100 px-4 py-2.5 text-sm text-navy-900" : "sr-only"}>
      {message ?? ""}
    </p>
  );
}
