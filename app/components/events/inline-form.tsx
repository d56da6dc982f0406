import { FilePenLine, Plus } from "lucide-react";
import { type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import { Link, useActionData, useFetcher } from "react-router";
import type { FormResult } from "../ui/form-result";
import { Notice } from "../ui/notice";

/** What the meeting editor's action answers for one of its small forms (a session, a sponsor, a picture). */
export type InlineResult = FormResult;

/**
 * One inline form of the page: with JavaScript it posts through its own fetcher (no reload);
 * without, it is a plain form post and the page's action data carries the answer. Either way
 * `result` is the answer meant for this row, if any. Once answered: `onDone`, or focus on the
 * first field in error.
 */
export function useInlineForm(row: string, onDone?: () => void) {
  const fetcher = useFetcher<InlineResult>();
  const page = useActionData() as InlineResult | undefined;
  const result = fetcher.data ?? (page?.row === row ? page : undefined);
  const form = useRef<HTMLFormElement>(null);
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.done) done.current?.();
    else form.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [fetcher.state, fetcher.data]);
  return { fetcher, result, busy: fetcher.state !== "idle", form };
}

/**
 * A row shown, or edited in place by a form of its own. Opening puts focus on the form's
 * first field; saving or cancelling puts it back on the row's Edit link. Without JavaScript
 * the Edit link opens the row through the address (`?edit=<row>`).
 */
export function useInlineEdit(row: string, initiallyEditing: boolean) {
  // Without JavaScript a refused edit comes back as the page's action data: the row stays open.
  const page = useActionData() as InlineResult | undefined;
  const [editing, setEditing] = useState(initiallyEditing || (page?.row === row && Boolean(page.errors)));
  const inline = useInlineForm(row, () => setEditing(false));
  const editLink = useRef<HTMLAnchorElement>(null);
  const wasEditing = useRef(false);
  const { form } = inline;
  useEffect(() => {
    if (editing) form.current?.querySelector<HTMLElement>("input:not([type=hidden])")?.focus();
    else if (wasEditing.current) editLink.current?.focus();
    wasEditing.current = editing;
  }, [editing, form]);
  return { ...inline, editing, setEditing, editLink };
}

/** The Edit link of a row: with JavaScript it opens the row in place, without it goes to `?edit=<row>`. */
export function EditLink({
  row,
  linkRef,
  onOpen,
  children,
}: {
  row: string;
  linkRef: RefObject<HTMLAnchorElement | null>;
  onOpen: () => void;
  children: ReactNode;
}) {
  return (
    <Link
      ref={linkRef}
      to={`?edit=${row}#${row}`}
      preventScrollReset
      className="btn-ghost px-2.5 py-1.5"
      onClick={(event) => {
        event.preventDefault();
        onOpen();
      }}
    >
      <FilePenLine className="h-4 w-4" aria-hidden="true" />
      {children}
    </Link>
  );
}

/** The foot of a row's edit form: its refusal, if any, then Cancel and Save. */
export function EditActions({
  action,
  busy,
  saveLabel,
  onCancel,
}: {
  action: string;
  busy: boolean;
  saveLabel: string;
  onCancel: () => void;
}) {
  return (
    <div className="mt-4 flex flex-wrap justify-end gap-2">
      <Link
        to={action}
        preventScrollReset
        className="btn-outline py-1.5"
        onClick={(event) => {
          event.preventDefault();
          onCancel();
        }}
      >
        Cancel
      </Link>
      <button type="submit" className="btn-primary py-1.5" disabled={busy}>
        {busy ? "Saving…" : saveLabel}
      </button>
    </div>
  );
}

/** A refusal that concerns the whole row (it was deleted meanwhile), above its fields. */
export function RowError({ result }: { result: InlineResult | undefined }) {
  return result?.error ? (
    <Notice tone="error" className="mb-4">
      {result.error}
    </Notice>
  ) : null;
}

/** The foot of an add form: what was just added (announced), and the submit button. */
export function AddActions({ result, busy, label }: { result?: InlineResult; busy: boolean; label: string }) {
  return (
    <div className="mt-4 flex flex-wrap items-center justify-end gap-3">
      <p role="status" className="text-sm text-sea-700">
        {result?.done ? result.message : ""}
      </p>
      <button type="submit" className="btn-primary" disabled={busy}>
        <Plus className="h-4 w-4" aria-hidden="true" />
        {busy ? "Adding…" : label}
      </button>
    </div>
  );
}

/** A field's first error in a result. */
export function errorOf(result: InlineResult | undefined, field: string): string | undefined {
  return result?.errors?.[field]?.[0];
}
