import { FolderPlus } from "lucide-react";
import { useState } from "react";
import { data, Link } from "react-router";
import { categoryCreateSchema, categoryMoveSchema, categoryUpdateSchema } from "../../../core/library/library.schema";
import { isAppError } from "../../../lib/errors";
import { parseOrThrow } from "../../../lib/validation";
import { DeleteStatus, StatusLine, useDeleteStatus } from "../../components/library/admin-delete";
import { CategoryTreeEditor, GroupChoices, LIBRARY_ADMIN } from "../../components/library/category-editor";
import { flattenTree, type LibraryResult, typedValues } from "../../components/library/library-admin";
import { Breadcrumbs } from "../../components/ui/breadcrumbs";
import { Notice } from "../../components/ui/notice";
import { getRequestContext } from "../../context";
import { takeFlash } from "../../lib/flash.server";
import { formId } from "../../lib/forms";
import { readFormWithLists } from "../../lib/read-form.server";
import type { Route } from "./+types/manage-library";
import { answerDone } from "./library-action.server";

export const meta: Route.MetaFunction = () => [{ title: "Categories and papers · Manager" }];

export async function loader({ context, request, url }: Route.LoaderArgs) {
  const { services, sessionToken, secureCookies, auth } = getRequestContext(context);
  const [tree, groups] = await Promise.all([
    services.libraryAdmin.tree(),
    auth ? services.groups.list({ id: auth.user.id, role: auth.user.role.name }) : [],
  ]);
  const flash = takeFlash(request, { token: sessionToken, secure: secureCookies });
  const param = (name: string) => url.searchParams.get(name);
  return data(
    {
      tree,
      groups: groups.map((g) => ({ id: g.id, name: g.name })),
      open: { edit: param("edit"), add: param("add"), remove: param("delete") },
      notice: flash.message,
    },
    { headers: flash.headers },
  );
}

const imageOf = async (value: FormDataEntryValue | undefined) =>
  value instanceof File && value.size > 0 ? new Uint8Array(await value.arrayBuffer()) : null;

/**
 * The tree's forms, each with its `intent`: create, update, move, delete. A fetcher's post
 * (`_fetch`) gets its answer as data and the tree is read again in place; a plain post is
 * redirected back to the tree with a flash notice. A refusal is data either way, with the row
 * it belongs to, its field errors and what was typed.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, sessionToken, secureCookies } = getRequestContext(context);
  const admin = services.libraryAdmin;
  // Every ticked group (a repeated field); the rest as single fields.
  const { form: fields, lists } = await readFormWithLists(request, ["group_ids"]);
  const form: Record<string, FormDataEntryValue> = { ...fields, group_ids: lists.group_ids.join(",") };
  const intent = typeof form.intent === "string" ? form.intent : "";
  let row = intent;
  const finish = (message: string, to: string) =>
    answerDone(form, { sessionToken, secureCookies }, { intent, row, message }, to);
  try {
    switch (intent) {
      case "create": {
        const input = parseOrThrow(categoryCreateSchema, form);
        row = input.parent_id ? `add-${input.parent_id}` : "add-root";
        const created = await admin.createCategory(input, await imageOf(form.image));
        return finish(`Created “${created.name}”.`, `${LIBRARY_ADMIN}#cat-${created.id}`);
      }
      case "update": {
        const id = formId(form);
        row = `cat-${id}`;
        const saved = await admin.updateCategory(
          id,
          parseOrThrow(categoryUpdateSchema, form),
          await imageOf(form.image),
        );
        return finish(`Saved “${saved.name}”.`, `${LIBRARY_ADMIN}#cat-${id}`);
      }
      case "move": {
        const id = formId(form);
        row = form.position === undefined ? `move-${id}` : `step-${id}`;
        const moved = await admin.moveCategory(id, parseOrThrow(categoryMoveSchema, form));
        return finish(`Moved “${moved.name}”.`, `${LIBRARY_ADMIN}#cat-${id}`);
      }
      case "delete": {
        const id = formId(form);
        row = `cat-${id}`;
        const { name } = await admin.category(id);
        await admin.deleteCategory(id);
        return finish(`Deleted “${name}”.`, LIBRARY_ADMIN);
      }
      default:
        throw data("Unknown action.", { status: 400 });
    }
  } catch (error) {
    if (!isAppError(error)) throw error;
    const errors = error.details.errors as Record<string, string[]> | undefined;
    // A delete refused while the category has children or papers is said in its dialog, as one message.
    if (!errors || intent === "delete") {
      const message = errors ? Object.values(errors).flat()[0] : error.message;
      return data({ intent, row, error: message } satisfies LibraryResult, { status: error.status });
    }
    return data({ intent, row, errors, values: typedValues(form) } satisfies LibraryResult, {
      status: error.status,
    });
  }
}

/** Issue 14 'Admin': the library's category tree, edited in place. */
export default function ManageLibrary({ loaderData, actionData }: Route.ComponentProps) {
  const { tree, groups, open, notice } = loaderData;
  const [status, setStatus] = useState<string | null>(null);
  const followDelete = useDeleteStatus(setStatus);
  const pageResult = actionData as LibraryResult | undefined;
  // A refused plain post (no JavaScript) keeps its form open.
  const refusedRow = pageResult?.errors ? pageResult.row : null;
  const shown = {
    edit: open.edit ?? (refusedRow?.startsWith("cat-") ? refusedRow : null),
    add: open.add ?? (refusedRow?.startsWith("add-") ? refusedRow.slice(4) : null),
    remove: open.remove ?? (pageResult?.intent === "delete" && pageResult.error ? pageResult.row : null),
  };
  const message = status ?? notice;
  const moveRefused = pageResult?.intent === "move" && pageResult.row.startsWith("step-") ? pageResult : null;
  return (
    <GroupChoices.Provider value={groups}>
      <DeleteStatus.Provider value={followDelete}>
        <div>
          <Breadcrumbs trail={[{ label: "Manager", to: "/manager" }]} current="Categories and papers" />
          <div className="mt-2 flex flex-wrap items-end justify-between gap-4">
            <h1 className="font-display text-4xl font-bold text-navy-900">Categories and papers</h1>
            <Link to="?add=root" preventScrollReset className="btn-primary">
              <FolderPlus className="h-4 w-4" aria-hidden="true" />
              New category
            </Link>
          </div>
          <StatusLine message={message} />
          {moveRefused?.error || moveRefused?.errors ? (
            <Notice tone="error" className="mt-4">
              {moveRefused.error ?? Object.values(moveRefused.errors ?? {}).flat()[0]}
            </Notice>
          ) : null}
          <section aria-labelledby="library-tree-title" className="mt-6">
            <h2 id="library-tree-title" className="font-display text-2xl font-bold text-navy-900">
              Categories
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              In the order members see them. Open a category's papers to add documents to it.
            </p>
            <CategoryTreeEditor
              tree={tree}
              flat={flattenTree(tree)}
              open={shown}
              pageResult={pageResult}
              onDone={setStatus}
            />
          </section>
        </div>
      </DeleteStatus.Provider>
    </GroupChoices.Provider>
  );
}
