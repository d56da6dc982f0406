import { ArrowDown, ArrowUp, EyeOff, FilePenLine, FileText, FolderPlus, Globe2, Lock, Users } from "lucide-react";
import { createContext, useContext, useEffect, useRef } from "react";
import { Link, useActionData, useFetcher, useNavigate } from "react-router";
import { type CategoryTree, categoryCreateSchema } from "../../../core/library/library.schema";
import { VIEW_TYPE_LABELS, VIEW_TYPES } from "../../../core/library/library.values";
import { IMAGE_ACCEPT, IMAGE_TYPES_TEXT } from "../../../lib/uploads";
import { lengthLimit } from "../../lib/forms";
import { GroupCheckboxes, type GroupChoice } from "../groups/group-checkboxes";
import { Notice } from "../ui/notice";
import { RichTextEditor } from "../ui/rich-text-editor";
import { SelectField } from "../ui/select-field";
import { TextField } from "../ui/text-field";
import { DeleteControl, FetchMarker } from "./admin-delete";
import { accessLabel, type FlatCategory, indented, type LibraryResult, validParents } from "./library-admin";

export const LIBRARY_ADMIN = "/manager/library";

const FILE_INPUT =
  "block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-navy-900 file:px-3 file:py-2 file:text-white";

const VIEW_OPTIONS: [string, string][] = [
  ["default", VIEW_TYPE_LABELS.default],
  ...VIEW_TYPES.map((v) => [v, VIEW_TYPE_LABELS[v]] as [string, string]),
];

/** The working groups a category may be for (issue 36), for the audience fieldset. */
export const GroupChoices = createContext<GroupChoice[]>([]);

/** What the tree screen has open, from its address: `?edit=cat-5`, `?add=5` (a child of 5), `?add=root`, `?delete=cat-5`. */
export type TreeOpen = { edit: string | null; add: string | null; remove: string | null };

/** The answer meant for `row`: its fetcher's, or the page's after a post without JavaScript. */
function useRowForm(row: string, onDone: (message: string) => void) {
  const fetcher = useFetcher<LibraryResult>();
  const page = useActionData() as LibraryResult | undefined;
  const result = fetcher.data ?? (page?.row === row ? page : undefined);
  const form = useRef<HTMLFormElement>(null);
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    if (fetcher.data.done) done.current(fetcher.data.message ?? "Saved.");
    else form.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [fetcher.state, fetcher.data]);
  return { fetcher, result, busy: fetcher.state !== "idle", form };
}

const err = (result: LibraryResult | undefined, field: string) => result?.errors?.[field]?.[0];

/** The category form: a new child of `parent` (or a new root), or `category`'s own fields. */
function CategoryForm({
  row,
  category,
  parent,
  onDone,
}: {
  row: string;
  category: CategoryTree | null;
  parent: CategoryTree | null;
  onDone: (message: string) => void;
}) {
  const { fetcher, result, busy, form } = useRowForm(row, onDone);
  useEffect(() => {
    form.current?.querySelector<HTMLElement>("input:not([type=hidden])")?.focus();
  }, [form]);
  const typed = result?.errors ? result.values : undefined;
  const value = (field: string, fallback: string | null | undefined) => typed?.[field] ?? fallback ?? "";
  const groups = useContext(GroupChoices);
  const inherited = parent ? audienceText(parent, groups) : "members only";
  const typedGroups = typed ? (typed.group_ids ?? "").split(",").filter(Boolean).map(Number) : undefined;
  const chosenGroups = new Set(typedGroups ?? (category?.audience_setting === "groups" ? category.group_ids : []));
  const active = typed ? typed.is_active === "1" : (category?.is_active ?? true);
  // Apart from the row's own ids (`${row}-title` is the heading, `${row}-name` the name in the tree).
  const id = (field: string) => `${row}-field-${field}`;
  const title = category
    ? `Edit ${category.name}`
    : parent
      ? `New category in ${parent.name}`
      : "New top-level category";
  return (
    <fetcher.Form
      ref={form}
      method="post"
      action={LIBRARY_ADMIN}
      encType="multipart/form-data"
      aria-labelledby={`${row}-title`}
      className="mt-3 space-y-5 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h3 id={`${row}-title`} className="text-lg font-semibold text-navy-900">
        {title}
      </h3>
      <input type="hidden" name="intent" value={category ? "update" : "create"} />
      {category ? <input type="hidden" name="id" value={category.id} /> : null}
      {category ? null : <input type="hidden" name="parent_id" value={parent?.id ?? ""} />}
      <FetchMarker />
      {result?.error ? <Notice tone="error">{result.error}</Notice> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          id={id("name")}
          name="name"
          label="Name"
          required
          defaultValue={value("name", category?.name)}
          error={err(result, "name")}
          {...lengthLimit(categoryCreateSchema.shape.name)}
        />
        <SelectField
          id={id("view_type")}
          name="view_type"
          label="View type"
          defaultValue={value("view_type", category?.view_type ?? "default")}
          error={err(result, "view_type")}
          options={VIEW_OPTIONS}
        />
        <TextField
          id={id("title")}
          name="title"
          label="Title"
          hint="Shown above the list; the name when empty."
          defaultValue={value("title", category?.title)}
          error={err(result, "title")}
          {...lengthLimit(categoryCreateSchema.shape.title)}
        />
        <TextField
          id={id("title_description")}
          name="title_description"
          label="Title description"
          defaultValue={value("title_description", category?.title_description)}
          error={err(result, "title_description")}
          {...lengthLimit(categoryCreateSchema.shape.title_description)}
        />
      </div>
      <div>
        <label htmlFor={id("description")} className="field-label">
          Description
        </label>
        <textarea
          id={id("description")}
          name="description"
          rows={3}
          className="field-input"
          defaultValue={value("description", category?.description)}
          aria-invalid={err(result, "description") ? true : undefined}
          aria-describedby={err(result, "description") ? `${id("description")}-error` : undefined}
          {...lengthLimit(categoryCreateSchema.shape.description)}
        />
        {err(result, "description") ? (
          <p id={`${id("description")}-error`} className="mt-1.5 text-sm text-red-700">
            {err(result, "description")}
          </p>
        ) : null}
      </div>
      <RichTextEditor
        name="content"
        label="Content"
        initialHtml={value("content", category?.content)}
        error={err(result, "content")}
        compact
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField
          id={id("audience")}
          name="audience"
          label="Who may read it"
          defaultValue={value("audience", category?.audience_setting ?? "inherit")}
          error={err(result, "audience") ?? err(result, "is_public")}
          options={[
            ["inherit", `As its parent (now ${inherited})`],
            ["public", "Public: everyone"],
            ["members", "Members only"],
            ...(groups.length > 0 || category?.audience_setting === "groups"
              ? [["groups", "Working groups only (tick them below)"] as [string, string]]
              : []),
          ]}
        />
        <div className="flex items-start gap-2 self-end pb-3 text-sm">
          <input type="hidden" name="is_active" value="0" />
          <input
            id={id("is_active")}
            type="checkbox"
            name="is_active"
            value="1"
            defaultChecked={active}
            className="mt-0.5 h-4 w-4"
            aria-describedby={`${id("is_active")}-hint`}
          />
          <div>
            <label htmlFor={id("is_active")} className="font-semibold text-slate-800">
              Active
            </label>
            <p id={`${id("is_active")}-hint`} className="text-slate-600">
              An inactive category and everything in it is hidden from members.
            </p>
          </div>
        </div>
      </div>
      {groups.length > 0 ? (
        <GroupCheckboxes
          id={id("group_ids")}
          groups={groups}
          chosen={chosenGroups}
          hint="With “Working groups only”: the members of the groups ticked read it (and its sub-categories that inherit); admins and editors read everything."
          error={err(result, "group_ids")}
        />
      ) : null}
      <div className="flex flex-wrap items-end gap-4">
        {category?.image ? (
          <img
            src={category.image}
            alt={`${category.name} (current)`}
            width={96}
            height={64}
            className="h-16 w-24 rounded object-cover ring-1 ring-slate-200"
          />
        ) : null}
        <div className="min-w-0 flex-1">
          <TextField
            id={id("image")}
            name="image"
            type="file"
            accept={IMAGE_ACCEPT}
            label="Picture"
            hint={`${IMAGE_TYPES_TEXT}.${category?.image ? " A new file replaces the current picture." : ""}`}
            error={err(result, "image")}
            className={FILE_INPUT}
          />
        </div>
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Link to={LIBRARY_ADMIN} className="btn-outline py-1.5" preventScrollReset>
          Cancel
        </Link>
        <button type="submit" className="btn-primary py-1.5" disabled={busy}>
          {busy ? "Saving…" : category ? "Save category" : "Create category"}
        </button>
      </div>
    </fetcher.Form>
  );
}

/** Moving under another parent: a select of the valid parents (never itself or below itself). */
function MoveForm({
  category,
  flat,
  onDone,
}: {
  category: CategoryTree;
  flat: FlatCategory[];
  onDone: (message: string) => void;
}) {
  const row = `move-${category.id}`;
  const { fetcher, result, busy, form } = useRowForm(row, onDone);
  const parents = validParents(flat, category.id);
  return (
    <fetcher.Form
      ref={form}
      method="post"
      action={LIBRARY_ADMIN}
      aria-label={`Move ${category.name}`}
      className="mt-3 flex flex-wrap items-end gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:px-6"
    >
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="id" value={category.id} />
      <FetchMarker />
      <div className="min-w-0 flex-1">
        <SelectField
          id={`${row}-parent`}
          name="parent_id"
          label="Move under"
          defaultValue={category.parent_id ?? ""}
          error={err(result, "parent_id") ?? result?.error}
          options={[["", "(Top level)"], ...parents.map((p) => [p.category.id, indented(p)] as const)]}
        />
      </div>
      <button type="submit" className="btn-outline" disabled={busy}>
        {busy ? "Moving…" : "Move"}
      </button>
    </fetcher.Form>
  );
}

/** Up or down among its siblings: a one-button form. */
function StepButton({
  category,
  position,
  direction,
  disabled,
  onDone,
}: {
  category: CategoryTree;
  position: number;
  direction: "up" | "down";
  disabled: boolean;
  onDone: (message: string) => void;
}) {
  const { fetcher, busy } = useRowForm(`step-${direction}-${category.id}`, onDone);
  const Icon = direction === "up" ? ArrowUp : ArrowDown;
  return (
    <fetcher.Form method="post" action={LIBRARY_ADMIN}>
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="id" value={category.id} />
      <input type="hidden" name="parent_id" value={category.parent_id ?? ""} />
      <input type="hidden" name="position" value={position} />
      <FetchMarker />
      <button
        type="submit"
        className="btn-ghost px-2 py-1.5"
        disabled={disabled || busy}
        title={direction === "up" ? "Move up" : "Move down"}
      >
        <Icon className="h-4 w-4" aria-hidden="true" />
        <span className="sr-only">
          Move {category.name} {direction}
        </span>
      </button>
    </fetcher.Form>
  );
}

/** Who a category is for, in words: public, members only, or its groups by name. */
function audienceText(category: CategoryTree, groups: GroupChoice[]): string {
  if (category.audience !== "groups") return accessLabel(category.is_public).toLowerCase();
  const names = category.group_ids.map((id) => groups.find((g) => g.id === id)?.name ?? `group #${id}`);
  return `for ${names.join(", ")}`;
}

function AccessBadge({ category }: { category: CategoryTree }) {
  const groups = useContext(GroupChoices);
  const inherited = category.audience_setting === "inherit";
  const Icon = category.is_public ? Globe2 : category.audience === "groups" ? Users : Lock;
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ${
        category.is_public ? "bg-sea-100 text-sea-800" : "bg-navy-100 text-navy-900"
      }`}
    >
      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      {category.audience === "groups"
        ? `Groups: ${category.group_ids.map((id) => groups.find((g) => g.id === id)?.name ?? `#${id}`).join(", ")}`
        : accessLabel(category.is_public)}
      {inherited ? (
        <span className="font-normal"> ({category.parent_id === null ? "default" : "inherited"})</span>
      ) : null}
    </span>
  );
}

/** One category of the tree, with its actions, its open form if any, and its children. */
function CategoryNode({
  category,
  siblings,
  index,
  parent,
  flat,
  open,
  pageResult,
  onDone,
}: {
  category: CategoryTree;
  siblings: CategoryTree[];
  index: number;
  parent: CategoryTree | null;
  flat: FlatCategory[];
  open: TreeOpen;
  pageResult: LibraryResult | undefined;
  onDone: (message: string, focus?: string) => void;
}) {
  const row = `cat-${category.id}`;
  const editing = open.edit === row;
  const adding = open.add === String(category.id);
  const deleteError = pageResult?.intent === "delete" && pageResult.row === row ? pageResult.error : undefined;
  return (
    <li id={row} className="scroll-mt-6">
      <div className="flex flex-col gap-2 rounded-lg bg-white px-3 py-2.5 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-center sm:gap-4">
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2">
            <span id={`${row}-name`} tabIndex={-1} className="font-semibold text-navy-900">
              {category.name}
            </span>
            <AccessBadge category={category} />
            {category.is_active ? null : (
              <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                <EyeOff className="h-3.5 w-3.5" aria-hidden="true" />
                Inactive
              </span>
            )}
          </p>
          <p className="mt-0.5 text-sm text-slate-600">
            {category.view_type ? VIEW_TYPE_LABELS[category.view_type] : "Default view"} · {category.url}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-0.5">
          <Link to={`${LIBRARY_ADMIN}/${category.id}`} className="btn-ghost px-2.5 py-1.5">
            <FileText className="h-4 w-4" aria-hidden="true" />
            Papers ({category.papers_count})<span className="sr-only"> in {category.name}</span>
          </Link>
          <StepButton
            category={category}
            position={index - 1}
            direction="up"
            disabled={index === 0}
            onDone={(m) => onDone(m)}
          />
          <StepButton
            category={category}
            position={index + 1}
            direction="down"
            disabled={index === siblings.length - 1}
            onDone={(m) => onDone(m)}
          />
          <Link to={`?edit=${row}#${row}`} preventScrollReset className="btn-ghost px-2.5 py-1.5">
            <FilePenLine className="h-4 w-4" aria-hidden="true" />
            <span className="max-sm:sr-only">Edit</span>
            <span className="sr-only"> {category.name}</span>
          </Link>
          <Link to={`?add=${category.id}#${row}`} preventScrollReset className="btn-ghost px-2.5 py-1.5">
            <FolderPlus className="h-4 w-4" aria-hidden="true" />
            <span className="max-sm:sr-only">Add</span>
            <span className="sr-only"> a category in {category.name}</span>
          </Link>
          <DeleteControl
            row={row}
            label={`Delete the category ${category.name}`}
            title="Delete this category?"
            description={`“${category.name}” will be removed. A category with sub-categories or papers cannot be deleted.`}
            fields={{ intent: "delete", id: category.id }}
            confirming={open.remove === row}
            error={deleteError}
            cancelTo={`${LIBRARY_ADMIN}#${row}`}
            focusAfter="#library-tree-title"
          />
        </div>
      </div>
      {editing ? (
        <>
          <CategoryForm row={row} category={category} parent={parent} onDone={(m) => onDone(m, `${row}-name`)} />
          <MoveForm category={category} flat={flat} onDone={(m) => onDone(m, `${row}-name`)} />
        </>
      ) : null}
      {adding ? (
        <CategoryForm
          row={`add-${category.id}`}
          category={null}
          parent={category}
          onDone={(m) => onDone(m, `${row}-name`)}
        />
      ) : null}
      {category.children.length > 0 ? (
        <ul className="mt-2 space-y-2 border-l-2 border-slate-200 pl-3 sm:pl-6">
          {category.children.map((child, i) => (
            <CategoryNode
              key={child.id}
              category={child}
              siblings={category.children}
              index={i}
              parent={category}
              flat={flat}
              open={open}
              pageResult={pageResult}
              onDone={onDone}
            />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/**
 * The category tree, edited in place. Forms open through the address (`?edit=`, `?add=`,
 * `?delete=`), so they open without JavaScript too; with it, they post through fetchers and
 * the tree is read again once the action has answered.
 */
export function CategoryTreeEditor({
  tree,
  flat,
  open,
  pageResult,
  onDone,
}: {
  tree: CategoryTree[];
  flat: FlatCategory[];
  open: TreeOpen;
  pageResult: LibraryResult | undefined;
  onDone: (message: string) => void;
}) {
  const navigate = useNavigate();
  const done = (message: string, focus?: string) => {
    onDone(message);
    if (open.edit || open.add) {
      navigate(`${LIBRARY_ADMIN}${focus ? `#${focus.replace(/-name$/, "")}` : ""}`, { preventScrollReset: true });
    }
    if (focus) requestAnimationFrame(() => document.getElementById(focus)?.focus());
  };
  return (
    <>
      {open.add === "root" ? (
        <CategoryForm row="add-root" category={null} parent={null} onDone={(m) => done(m)} />
      ) : null}
      {tree.length === 0 ? (
        <p className="mt-4 rounded-xl bg-white px-4 py-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
          No categories yet.
        </p>
      ) : (
        <ul className="mt-4 space-y-2">
          {tree.map((category, i) => (
            <CategoryNode
              key={category.id}
              category={category}
              siblings={tree}
              index={i}
              parent={null}
              flat={flat}
              open={open}
              pageResult={pageResult}
              onDone={done}
            />
          ))}
        </ul>
      )}
    </>
  );
}
