import { Trash2 } from "lucide-react";
import { Dialog } from "radix-ui";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Notice } from "./notice";

/**
 * A delete button that asks first (SPEC §4: delete after confirming). On
 * Delete it posts `fields` to the current route's action through a fetcher;
 * the dialog closes once the action has answered, or shows the action's
 * `{ error }` and stays open.
 */
export function ConfirmDelete({
  label,
  title,
  description,
  fields,
  focusAfter = "main h1",
}: {
  /** The button's accessible name, e.g. "Delete Lighthouse keepers go digital". */
  label: string;
  title: string;
  description: ReactNode;
  fields: Record<string, string | number>;
  /** Where focus goes once the item (and this button with it) is gone: a selector, the page's heading by default. */
  focusAfter?: string;
}) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fetcher = useFetcher<{ error?: string }>();
  const busy = fetcher.state !== "idle";
  const deleted = useRef(false);
  /** The answer there was when this opening's Delete was pressed: an earlier refusal is not said again. */
  const pressed = useRef<{ before: unknown } | null>(null);
  // Whether this button is gone from the page. React Router's updates are transitions, which a
  // busy browser merges: the answer can come in the same render that removes the row, so the
  // effect below never sees it, and the dialog is unmounted open, with a Delete pressed.
  const gone = useRef(false);
  useEffect(() => {
    gone.current = false;
    return () => {
      gone.current = true;
    };
  }, []);
  useEffect(() => {
    // The answer is in while the page reloads its data ("loading"): close then, before the row
    // (and this dialog with it) disappears, so that focus can be placed.
    const asked = pressed.current;
    if (!open || !asked || fetcher.state === "submitting" || fetcher.data === asked.before) return;
    pressed.current = null;
    if (fetcher.data?.error) setError(fetcher.data.error);
    else {
      deleted.current = true;
      setOpen(false);
    }
  }, [open, fetcher.state, fetcher.data]);
  // The deleted item's button is gone with it: focus goes to a heading instead of being lost.
  // Radix calls this when the dialog closes and also when it is unmounted, after the unmount.
  const onCloseAutoFocus = (event: Event) => {
    const removed = deleted.current || (gone.current && pressed.current !== null);
    if (!removed) return;
    deleted.current = false;
    pressed.current = null;
    const heading = document.querySelector<HTMLElement>(focusAfter);
    if (!heading) return;
    event.preventDefault();
    heading.tabIndex = -1;
    heading.focus();
  };
  const onOpenChange = (next: boolean) => {
    setError(null);
    setOpen(next);
  };
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger className="btn-ghost px-2 text-red-700 hover:bg-red-50">
        <Trash2 className="h-4 w-4" aria-hidden="true" />
        <span className="sr-only">{label}</span>
      </Dialog.Trigger>
      <DeleteDialogContent
        title={title}
        description={description}
        error={error}
        fields={fields}
        busy={busy}
        Form={fetcher.Form}
        onSubmit={() => {
          pressed.current = { before: fetcher.data };
        }}
        onCloseAutoFocus={onCloseAutoFocus}
      />
    </Dialog.Root>
  );
}

/**
 * The question a delete asks, in its dialog: title, description, the action's refusal if any, and
 * a form posting `fields` (through the caller's fetcher form) beside Cancel.
 */
export function DeleteDialogContent({
  title,
  description,
  error,
  fields,
  busy,
  Form,
  onSubmit,
  onCloseAutoFocus,
  confirm = { label: "Delete", busy: "Deleting…" },
}: {
  title: string;
  description: ReactNode;
  error: string | null;
  fields: Record<string, string | number>;
  busy: boolean;
  Form: ReturnType<typeof useFetcher>["Form"];
  /** Delete was pressed (before the form posts). */
  onSubmit?: () => void;
  onCloseAutoFocus: (event: Event) => void;
  /** The confirming button's text, and its text while the action runs ("Remove", "Removing…"). */
  confirm?: { label: string; busy: string };
}) {
  return (
    <Dialog.Portal>
      <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/60" />
      <Dialog.Content
        onCloseAutoFocus={onCloseAutoFocus}
        className="fixed top-1/2 left-1/2 z-50 w-[90%] max-w-[450px] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-2xl"
      >
        <Dialog.Title className="font-display text-2xl font-bold text-navy-900">{title}</Dialog.Title>
        <Dialog.Description className="mt-2 text-slate-600">{description}</Dialog.Description>
        {error ? (
          <Notice tone="error" className="mt-4">
            {error}
          </Notice>
        ) : null}
        <Form method="post" className="mt-6 flex justify-end gap-3" onSubmit={onSubmit}>
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <Dialog.Close className="btn-outline">Cancel</Dialog.Close>
          <button type="submit" className="btn bg-red-700 text-white hover:bg-red-800" disabled={busy}>
            {busy ? confirm.busy : confirm.label}
          </button>
        </Form>
      </Dialog.Content>
    </Dialog.Portal>
  );
}
