import { Plus } from "lucide-react";
import { useState } from "react";
import { data, Link, useNavigate } from "react-router";
import { type Paper, paperInputSchema, papersQuerySchema } from "../../../core/library/library.schema";
import { isAppError } from "../../../lib/errors";
import { parseId } from "../../../lib/ids";
import { lenientPageSchema } from "../../../lib/pagination";
import { parseOrThrow } from "../../../lib/validation";
import { AuditHistory } from "../../components/admin/audit-rows";
import { RevisionsPanel } from "../../components/admin/revisions-panel";
import { DeleteStatus, StatusLine, useDeleteStatus } from "../../components/library/admin-delete";
import { LIBRARY_ADMIN } from "../../components/library/category-editor";
import { flattenTree, type LibraryResult, typedValues } from "../../components/library/library-admin";
import { PaperForm, PaperRow } from "../../components/library/paper-editor";
import { Breadcrumbs } from "../../components/ui/breadcrumbs";
import { ListSearch } from "../../components/ui/list-search";
import { LoadMoreLink } from "../../components/ui/load-more-link";
import { Notice } from "../../components/ui/notice";
import { getRequestContext } from "../../context";
import { shownAuditRows } from "../../lib/audit";
import { takeFlash } from "../../lib/flash.server";
import { formId } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import { shownRevisions } from "../../lib/revisions";
import { useLoadMore } from "../../lib/use-load-more";
import type { Route } from "./+types/manage-papers";
import { answerDone } from "./library-action.server";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `${loaderData?.category ? `Papers in ${loaderData.category.name}` : "Papers"} · Manager` },
];

const notFound = () => data("This page could not be found", { status: 404 });

function categoryIdOf(params: { id?: string }): number {
  const id = parseId(params.id);
  if (id === null) throw notFound();
  return id;
}

export async function loader({ context, params, request, url }: Route.LoaderArgs) {
  const { services, sessionToken, secureCookies } = getRequestContext(context);
  const id = categoryIdOf(params);
  try {
    const [category, tree, revisions, history, settings] = await Promise.all([
      services.libraryAdmin.category(id),
      services.libraryAdmin.tree(),
      services.libraryAdmin.categoryRevisions(id),
      services.audit.history("category", id),
      services.settings.getAll(),
    ]);
    const search = url.searchParams.get("search") ?? "";
    const pageNumber = lenientPageSchema.parse(url.searchParams.get("page") ?? undefined);
    const page = await services.libraryAdmin.papers(id, parseOrThrow(papersQuerySchema, { search }), pageNumber);
    const opened = url.searchParams.get("paper");
    let paper: Paper | null = null;
    if (opened && opened !== "new") {
      const paperId = parseId(opened);
      if (paperId === null) throw notFound();
      paper = await services.library.paper(paperId);
    }
    const flash = takeFlash(request, { token: sessionToken, secure: secureCookies });
    return data(
      {
        category: { id: category.id, name: category.name, url: category.url, is_active: category.is_active },
        tree,
        page,
        search,
        form: opened === "new" ? ("new" as const) : paper ? ("edit" as const) : null,
        paper,
        confirming: url.searchParams.get("delete"),
        // The category's texts as each save kept them (decision 0073), restorable from here.
        revisions: shownRevisions(revisions, settings["site.timezone"]),
        history: shownAuditRows(history, settings["site.timezone"]),
        notice: flash.message,
      },
      { headers: flash.headers },
    );
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") throw notFound();
    throw error;
  }
}

/**
 * The papers' forms without JavaScript (with it, the paper form posts to the JSON API with
 * upload progress, and deletes go through fetchers): save (create or update, multipart),
 * delete, delete-revision. Done: back to the list with a flash notice (or data for a fetcher);
 * refused: data with the field errors beside their fields and what was typed.
 */
export async function action({ context, params, request, url }: Route.ActionArgs) {
  const { services, sessionToken, secureCookies } = getRequestContext(context);
  const admin = services.libraryAdmin;
  const categoryId = categoryIdOf(params);
  let form: Record<string, FormDataEntryValue>;
  try {
    form = await readForm(request);
  } catch (error) {
    // The page's form parser has its own, smaller limit than the API's.
    if (isAppError(error) && error.status === 413) {
      return data(
        {
          intent: "save",
          row: "paper-form",
          errors: { uploaded_file: [`${error.message} Try again with JavaScript on, or a smaller file.`] },
        } satisfies LibraryResult,
        { status: 413 },
      );
    }
    throw error;
  }
  const intent = typeof form.intent === "string" ? form.intent : "";
  const list = `${LIBRARY_ADMIN}/${categoryId}${url.searchParams.get("search") ? `?search=${encodeURIComponent(url.searchParams.get("search") ?? "")}` : ""}`;
  let row = intent === "save" ? "paper-form" : intent;
  const finish = (message: string, to: string) =>
    answerDone(form, { sessionToken, secureCookies }, { intent, row, message }, to);
  try {
    switch (intent) {
      case "save": {
        const input = parseOrThrow(paperInputSchema, form);
        const file = form.uploaded_file instanceof File && form.uploaded_file.size > 0 ? form.uploaded_file : null;
        const id = form.id === undefined || form.id === "" ? null : formId(form);
        const saved = id ? await admin.updatePaper(id, input, file) : await admin.createPaper(input, file);
        return finish(`${id ? "Saved" : "Created"} “${saved.name}”.`, `${list}#paper-${saved.id}`);
      }
      case "delete": {
        const id = formId(form);
        row = `paper-${id}`;
        const { name } = await services.library.paper(id);
        await admin.deletePaper(id);
        return finish(`Deleted “${name}”.`, list);
      }
      case "restore": {
        const revision = parseId(form.revision);
        if (revision === null) throw data("Unknown revision.", { status: 400 });
        row = "revisions";
        await admin.restoreCategoryRevision(categoryId, revision);
        return finish("Restored the category's texts as a new revision.", `${list}#revisions-title`);
      }
      case "delete-revision": {
        const id = formId(form);
        const revision = parseId(form.revision);
        if (revision === null) throw data("Unknown item.", { status: 400 });
        row = `rev-${id}-${revision}`;
        await admin.deleteRevision(id, revision);
        return finish("Deleted the earlier file.", `${list}#paper-${id}`);
      }
      default:
        throw data("Unknown action.", { status: 400 });
    }
  } catch (error) {
    if (!isAppError(error)) throw error;
    const errors = error.details.errors as Record<string, string[]> | undefined;
    if (!errors) return data({ intent, row, error: error.message } satisfies LibraryResult, { status: error.status });
    const { uploaded_file: _file, ...values } = typedValues(form);
    return data({ intent, row, errors, values } satisfies LibraryResult, { status: error.status });
  }
}

/** Issue 14 'Admin': a category's papers, with their files and earlier files. */
export default function ManagePapers({ loaderData, actionData }: Route.ComponentProps) {
  const { category, tree, page, search, paper, confirming, notice } = loaderData;
  const navigate = useNavigate();
  const [status, setStatus] = useState<string | null>(null);
  const followDelete = useDeleteStatus(setStatus);
  const pageResult = actionData as LibraryResult | undefined;
  const more = useLoadMore(page);
  const base = `${LIBRARY_ADMIN}/${category.id}${search ? `?${new URLSearchParams({ search })}` : ""}`;
  const sep = search ? "&" : "?";
  const nextHref = `${base}${sep}page=${more.nextPage}`;
  const formOpen = loaderData.form !== null || pageResult?.intent === "save";
  const message = status ?? notice;
  const orphan = pageResult?.error && pageResult.intent !== "save" && !confirming ? pageResult.error : null;
  return (
    <DeleteStatus.Provider value={followDelete}>
      <div>
        <Breadcrumbs
          trail={[
            { label: "Manager", to: "/manager" },
            { label: "Categories and papers", to: LIBRARY_ADMIN },
          ]}
          current={category.name}
        />
        <div className="mt-2 flex flex-wrap items-end justify-between gap-4">
          <div className="min-w-0">
            <h1 className="font-display text-4xl font-bold text-navy-900">{category.name}</h1>
            <p className="mt-1 text-sm text-slate-600">
              Papers of this category{category.is_active ? "" : " (inactive: hidden from members)"} · read at{" "}
              <a href={category.url} className="text-sea-700 hover:underline">
                {category.url}
              </a>
            </p>
          </div>
          <Link to={`${base}${sep}paper=new`} className="btn-primary">
            <Plus className="h-4 w-4" aria-hidden="true" />
            New paper
          </Link>
        </div>
        <StatusLine message={message} />
        {orphan ? (
          <Notice tone="error" className="mt-4">
            {orphan}
          </Notice>
        ) : null}
        {formOpen ? (
          <PaperForm
            key={paper?.id ?? "new"}
            paper={paper}
            categoryId={category.id}
            flat={flattenTree(tree)}
            pageResult={pageResult}
            cancelTo={base}
            onSaved={(saved) => {
              setStatus(saved);
              navigate(base, { preventScrollReset: true });
            }}
          />
        ) : null}
        <section aria-labelledby="papers-title" className="mt-8">
          <h2 id="papers-title" className="font-display text-2xl font-bold text-navy-900">
            Papers
          </h2>
          <ListSearch id="papers-search" label="Search papers" defaultValue={search} />
          <p className="mt-4 text-sm text-slate-600" aria-live="polite">
            {page.total} paper{page.total === 1 ? "" : "s"}
            {search ? ` matching “${search}”` : ""}
          </p>
          {more.items.length > 0 ? (
            <ul className="mt-3 divide-y divide-slate-100 overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
              {more.items.map((item) => (
                <PaperRow key={item.id} paper={item} base={base} confirming={confirming} pageResult={pageResult} />
              ))}
            </ul>
          ) : (
            <p className="mt-3 rounded-xl bg-white px-4 py-8 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">
              {search ? `No paper matches “${search}”.` : "No papers yet."}
            </p>
          )}
          {more.hasMore ? (
            <div className="mt-6 text-center">
              <LoadMoreLink href={nextHref} loading={more.loading} onLoad={more.load} />
            </div>
          ) : null}
        </section>
        <RevisionsPanel revisions={loaderData.revisions} noun="category" />
        <AuditHistory rows={loaderData.history} />
      </div>
    </DeleteStatus.Provider>
  );
}
