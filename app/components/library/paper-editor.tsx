import { Download, FilePenLine, History } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Form, Link } from "react-router";
import {
  PAPER_ACCEPT,
  type Paper,
  paperInputSchema,
  revisionLabel,
  versionLabel,
} from "../../../core/library/library.schema";
import { lengthLimit } from "../../lib/forms";
import { Notice } from "../ui/notice";
import { SelectField } from "../ui/select-field";
import { TextField } from "../ui/text-field";
import { DeleteControl, useHydrated } from "./admin-delete";
import { type FlatCategory, indented, type LibraryResult } from "./library-admin";
import { postWithProgress, uploadErrors } from "./upload";

const FILE_INPUT =
  "block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-navy-900 file:px-3 file:py-2 file:text-white";

/** The paper's text fields, in the form's order (SPEC §3 'Paper'). */
const TEXT_FIELDS = [
  ["number", "Number", "Doc No., e.g. TP-2031-04."],
  ["organization", "Organization", null],
  ["reference", "Reference", "A standard's reference, e.g. IEC 61162-450."],
  ["meeting", "Meeting", "The meeting it was presented at."],
  ["revision", "Revision", null],
  ["version", "Version", null],
] as const;
const DATE_FIELDS = [
  ["date", "Date"],
  ["publication_date", "Publication date"],
  ["forecast_date", "Forecast date"],
] as const;

export function formatSize(bytes: number | null): string {
  if (bytes === null) return "";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A paper's form. With JavaScript it posts to the JSON API through XMLHttpRequest, showing the
 * upload's progress, and hands the saved paper's message to `onSaved`; without, it is a plain
 * multipart post to the page's action (`intent=save`).
 */
export function PaperForm({
  paper,
  categoryId,
  flat,
  pageResult,
  cancelTo,
  onSaved,
}: {
  paper: Paper | null;
  categoryId: number;
  flat: FlatCategory[];
  pageResult: LibraryResult | undefined;
  cancelTo: string;
  onSaved: (message: string) => void;
}) {
  const hydrated = useHydrated();
  const [progress, setProgress] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<{ errors: Record<string, string[]>; message: string | null } | null>(null);
  const [typed, setTyped] = useState<Record<string, string> | null>(null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>("input:not([type=hidden]), select")?.focus();
  }, []);
  const page = pageResult?.intent === "save" ? pageResult : undefined;
  const errors = refusal?.errors ?? page?.errors ?? {};
  const message = refusal?.message ?? page?.error ?? null;
  const values = typed ?? page?.values;
  const err = (field: string) => errors[field]?.[0];
  useEffect(() => {
    if (refusal) form.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [refusal]);
  const value = (field: keyof Paper, fallback = "") =>
    values?.[field] ?? (paper?.[field] === null || paper?.[field] === undefined ? fallback : String(paper[field]));
  const busy = progress !== null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    if (!hydrated) return;
    event.preventDefault();
    const body = new FormData(event.currentTarget);
    const current = Object.fromEntries([...body.entries()].filter(([, v]) => typeof v === "string")) as Record<
      string,
      string
    >;
    for (const name of ["intent", "id", "_fetch"]) body.delete(name);
    const file = body.get("uploaded_file");
    if (!(file instanceof File) || file.size === 0) body.delete("uploaded_file");
    const url = paper ? `/api/dashboard/papers/${paper.id}?_method=PATCH` : "/api/dashboard/papers";
    setRefusal(null);
    setProgress(0);
    try {
      const answer = await postWithProgress(url, body, setProgress).done;
      if (answer.status >= 200 && answer.status < 300) {
        setTyped(null);
        onSaved(`${paper ? "Saved" : "Created"} “${answer.body.paper?.name ?? current.name}”.`);
        return;
      }
      setTyped(current);
      setRefusal(uploadErrors(answer));
    } catch (failure) {
      setTyped(current);
      setRefusal({ errors: {}, message: failure instanceof Error ? failure.message : "The upload failed." });
    } finally {
      setProgress(null);
    }
  }

  const title = paper ? `Edit ${paper.name}` : "New paper";
  return (
    <Form
      ref={form}
      method="post"
      encType="multipart/form-data"
      onSubmit={submit}
      aria-labelledby="paper-form-title"
      className="mt-6 space-y-5 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      reloadDocument
    >
      <h2 id="paper-form-title" className="font-display text-2xl font-bold text-navy-900">
        {title}
      </h2>
      <input type="hidden" name="intent" value="save" />
      {paper ? <input type="hidden" name="id" value={paper.id} /> : null}
      {message ? <Notice tone="error">{message}</Notice> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          id="paper-name"
          name="name"
          label="Name"
          required
          defaultValue={value("name")}
          error={err("name")}
          {...lengthLimit(paperInputSchema.shape.name)}
        />
        <SelectField
          id="paper-category"
          name="papers_category_id"
          label="Category"
          defaultValue={value("papers_category_id", String(categoryId))}
          error={err("papers_category_id")}
          options={flat.map((f) => [f.category.id, indented(f)] as const)}
        />
      </div>
      <div>
        <label htmlFor="paper-description" className="field-label">
          Description
        </label>
        <textarea
          id="paper-description"
          name="description"
          rows={3}
          className="field-input"
          defaultValue={value("description")}
          aria-invalid={err("description") ? true : undefined}
          aria-describedby={err("description") ? "paper-description-error" : undefined}
          {...lengthLimit(paperInputSchema.shape.description)}
        />
        {err("description") ? (
          <p id="paper-description-error" className="mt-1.5 text-sm text-red-700">
            {err("description")}
          </p>
        ) : null}
      </div>
      <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {TEXT_FIELDS.map(([field, label, hint]) => (
          <TextField
            key={field}
            id={`paper-${field}`}
            name={field}
            label={label}
            hint={hint ?? undefined}
            defaultValue={value(field)}
            error={err(field)}
            {...lengthLimit(paperInputSchema.shape[field])}
          />
        ))}
        {DATE_FIELDS.map(([field, label]) => (
          <TextField
            key={field}
            id={`paper-${field}`}
            name={field}
            type="date"
            label={label}
            defaultValue={value(field)}
            error={err(field)}
          />
        ))}
      </div>
      <div className="rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200">
        {paper?.file ? (
          <p className="mb-3 text-sm text-slate-700">
            Current file:{" "}
            <a href={paper.file.url} className="font-semibold text-sea-700 hover:underline">
              {paper.file.label}
              {paper.file.size !== null ? `, ${formatSize(paper.file.size)}` : ""}
            </a>
          </p>
        ) : null}
        <TextField
          id="paper-file"
          name="uploaded_file"
          type="file"
          accept={PAPER_ACCEPT}
          label={paper?.file ? "Replace the file" : "File"}
          hint={`PDF, Word, Excel, PowerPoint, XML, XSD or ZIP.${paper?.file ? " The current file is kept in the history." : ""}`}
          error={err("uploaded_file")}
          className={FILE_INPUT}
          disabled={busy}
        />
        {progress !== null ? (
          <div className="mt-3 flex items-center gap-3">
            <progress
              id="paper-upload-progress"
              max={100}
              value={progress}
              aria-label="Upload progress"
              className="h-2.5 w-full overflow-hidden rounded-full [&::-moz-progress-bar]:bg-sea-600 [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-sea-600"
            />
            <span className="w-24 shrink-0 text-right text-sm text-slate-700 tabular-nums" aria-hidden="true">
              {progress < 100 ? `${progress}%` : "Processing…"}
            </span>
          </div>
        ) : null}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Link to={cancelTo} className="btn-outline" preventScrollReset>
          Cancel
        </Link>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy
            ? progress !== null && progress < 100
              ? "Uploading…"
              : "Saving…"
            : paper
              ? "Save paper"
              : "Create paper"}
        </button>
      </div>
    </Form>
  );
}

/** One paper of the list: its facts, its file, its earlier files, and its actions. */
export function PaperRow({
  paper,
  base,
  confirming,
  pageResult,
}: {
  paper: Paper;
  /** The list's address (with its search), where the forms and links lead. */
  base: string;
  confirming: string | null;
  pageResult: LibraryResult | undefined;
}) {
  const row = `paper-${paper.id}`;
  const sep = base.includes("?") ? "&" : "?";
  const facts = [
    paper.number,
    paper.organization,
    paper.reference,
    revisionLabel(paper.revision),
    versionLabel(paper.version),
    paper.date,
  ].filter(Boolean);
  const refusedHere = (r: string) => (pageResult?.row === r ? pageResult.error : undefined);
  return (
    <li id={row} className="scroll-mt-6 px-4 py-4">
      <div className="flex flex-col gap-3 md:flex-row md:items-start md:gap-6">
        <div className="min-w-0 flex-1">
          <p className="font-semibold text-navy-900">{paper.name}</p>
          {facts.length > 0 ? <p className="mt-0.5 text-sm text-slate-600">{facts.join(" · ")}</p> : null}
          {paper.file ? (
            <a
              href={paper.file.url}
              className="mt-1 inline-flex items-center gap-1.5 text-sm text-sea-700 hover:underline"
            >
              <Download className="h-4 w-4" aria-hidden="true" />
              {paper.file.label}
              {paper.file.size !== null ? `, ${formatSize(paper.file.size)}` : ""}
              <span className="sr-only"> of {paper.name}</span>
            </a>
          ) : (
            <p className="mt-1 text-sm text-slate-500">No file</p>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-1">
          <Link to={`${base}${sep}paper=${paper.id}`} className="btn-outline py-1.5">
            <FilePenLine className="h-4 w-4" aria-hidden="true" />
            Edit<span className="sr-only"> {paper.name}</span>
          </Link>
          <DeleteControl
            row={row}
            label={`Delete the paper ${paper.name}`}
            title="Delete this paper?"
            description={`“${paper.name}” will be removed with its file and its earlier files. This cannot be undone.`}
            fields={{ intent: "delete", id: paper.id }}
            confirming={confirming === row}
            error={refusedHere(row)}
            cancelTo={`${base}#${row}`}
            focusAfter="#papers-title"
          />
        </div>
      </div>
      {paper.revisions.length > 0 ? (
        <details
          className="mt-3 rounded-lg bg-slate-50 ring-1 ring-slate-200"
          open={confirming?.startsWith(`rev-${paper.id}-`)}
        >
          <summary className="flex cursor-pointer items-center gap-2 px-3 py-2 text-sm font-semibold text-navy-900">
            <History className="h-4 w-4" aria-hidden="true" />
            Earlier files ({paper.revisions.length})<span className="sr-only"> of {paper.name}</span>
          </summary>
          <ul className="divide-y divide-slate-200 border-t border-slate-200">
            {paper.revisions.map((revision) => {
              const revRow = `rev-${paper.id}-${revision.id}`;
              const labels = [revisionLabel(revision.revision), versionLabel(revision.version), revision.date].filter(
                Boolean,
              );
              return (
                <li
                  key={revision.id}
                  id={revRow}
                  className="flex flex-wrap items-center gap-x-4 gap-y-1 px-3 py-2 text-sm"
                >
                  <a href={revision.file.url} className="inline-flex items-center gap-1.5 text-sea-700 hover:underline">
                    <Download className="h-4 w-4" aria-hidden="true" />
                    {revision.file.label}
                    {revision.file.size !== null ? `, ${formatSize(revision.file.size)}` : ""}
                  </a>
                  <span className="text-slate-600">{labels.length > 0 ? labels.join(" · ") : "No labels"}</span>
                  <span className="text-slate-500">replaced {revision.replaced_at.slice(0, 10)}</span>
                  <span className="ml-auto">
                    <DeleteControl
                      row={revRow}
                      label={`Delete the earlier file replaced ${revision.replaced_at.slice(0, 10)}`}
                      title="Delete this earlier file?"
                      description="The file is removed from the paper's history. The current file stays."
                      fields={{ intent: "delete-revision", id: paper.id, revision: revision.id }}
                      confirming={confirming === revRow}
                      error={refusedHere(revRow)}
                      cancelTo={`${base}#${row}`}
                      focusAfter="#papers-title"
                    />
                  </span>
                </li>
              );
            })}
          </ul>
        </details>
      ) : null}
    </li>
  );
}
