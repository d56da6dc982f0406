import { FilePenLine } from "lucide-react";
import { data, Link } from "react-router";
import { PAGE_SECTIONS, publicPageUrl } from "../../../core/pages/fixed-pages";
import type { PageSummary } from "../../../core/pages/pages.schema";
import { lenientPageSchema, pageOf } from "../../../lib/pagination";
import { AdminList, type FilterSelects, filterParams, resultNotices } from "../../components/admin/admin-list";
import { PUBLICATION_FILTER, PublicationBadge } from "../../components/admin/publication-fields";
import { ConfirmDelete } from "../../components/ui/confirm-delete";
import { getRequestContext } from "../../context";
import { takeFlash } from "../../lib/flash.server";
import { actionRefusal } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/manage-pages";

export const meta: Route.MetaFunction = () => [{ title: "Pages · Manager" }];

const text = (value: string | null) => value ?? "";
/** How many pages the screen lists at once. */
const PAGES_PER_SCREEN = 25;

export async function loader({ context, request, url }: Route.LoaderArgs) {
  const { services, sessionToken, secureCookies } = getRequestContext(context);
  const filter = {
    search: text(url.searchParams.get("search")),
    status: text(url.searchParams.get("status")),
    kind: text(url.searchParams.get("kind")),
  };
  const pages = await services.pages.listPages(filter);
  // 25 a page, as the other admin lists: a site with hundreds of pages renders a screen, not all of them.
  const last = Math.max(1, Math.ceil(pages.length / PAGES_PER_SCREEN));
  const current = Math.min(lenientPageSchema.parse(url.searchParams.get("page")), last);
  const shown = pages.slice((current - 1) * PAGES_PER_SCREEN, current * PAGES_PER_SCREEN);
  // The "Saved …" notice of the editor's redirect: from a signed flash cookie, never from the URL.
  const flash = takeFlash(request, { token: sessionToken, secure: secureCookies });
  return data(
    { page: pageOf(shown, current, PAGES_PER_SCREEN, pages.length), ...filter, notice: flash.message },
    { headers: flash.headers },
  );
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await readForm(request);
  if (form.intent !== "delete" || typeof form.url !== "string") throw data("Unknown action.", { status: 400 });
  try {
    await getRequestContext(context).services.pages.deletePage(form.url);
    return { notice: `Deleted ${form.url}.` };
  } catch (error) {
    return actionRefusal(error);
  }
}

const SELECTS: FilterSelects = {
  status: PUBLICATION_FILTER,
  kind: {
    label: "Kind",
    options: [
      ["fixed", "The site's own"],
      ["own", "Added"],
    ],
  },
};

/** Where a page shows besides its address: its section, the submenu, the footer. */
function placeOf(page: PageSummary): string {
  if (page.fixed) return "Fixed in the menus";
  const section = PAGE_SECTIONS.find((s) => s.id === page.section)?.title ?? "Standing alone";
  const where = [page.in_menu ? "menu" : null, page.in_footer ? "footer" : null].filter(Boolean).join(" and ");
  return where ? `${section} · in the ${where}` : section;
}

/** The CMS pages an admin edits: SPEC's fixed ones, and the association's own, which can be added and deleted (decision 0072). */
export default function AdminPages({ loaderData, actionData }: Route.ComponentProps) {
  const { page, search, status, kind, notice } = loaderData;
  return (
    <AdminList
      title="Pages"
      newLink={{ to: "/manager/pages/new", label: "New page" }}
      notice={notice}
      notices={resultNotices(actionData)}
      search={{ id: "manage-pages", label: "Search pages" }}
      filters={{ label: "Filter the pages", selects: SELECTS, grid: "sm:grid-cols-[1fr_10rem_10rem_auto]" }}
      params={filterParams({ search, status, kind })}
      page={page}
      noun={["page", "pages"]}
      empty={{ filtered: "No page matches these filters.", unfiltered: "No pages yet." }}
      layout="rows"
      path="/manager/pages"
      paging="pages"
      renderRow={(row) => (
        <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
          <div className="min-w-0 flex-1">
            <p className="font-semibold break-words text-navy-900">
              <PublicationBadge status={row.status} />
              {row.title}
            </p>
            <p className="text-xs text-slate-600">
              {publicPageUrl(row.url)} · {placeOf(row)} · changed {row.updated_at.slice(0, 10)}
            </p>
          </div>
          <Link to={`/manager/pages${row.url}`} className="btn-outline py-1.5">
            <FilePenLine className="h-4 w-4" aria-hidden="true" />
            Edit<span className="sr-only"> {row.title}</span>
          </Link>
          {row.fixed ? null : (
            <ConfirmDelete
              label={`Delete ${row.title}`}
              title="Delete this page?"
              description={`“${row.title}” will be removed from the site, its menus and search; its address ${row.url} will answer “not found”. This cannot be undone.`}
              fields={{ intent: "delete", url: row.url }}
            />
          )}
        </li>
      )}
    />
  );
}
