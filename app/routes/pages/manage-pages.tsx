import { FilePenLine } from "lucide-react";
import { Link } from "react-router";
import { publicPageUrl } from "../../../core/pages/fixed-pages";
import { Breadcrumbs } from "../../components/ui/breadcrumbs";
import { getRequestContext } from "../../context";
import type { Route } from "./+types/manage-pages";

export const meta: Route.MetaFunction = () => [{ title: "Pages · Manager" }];

export async function loader({ context }: Route.LoaderArgs) {
  return { pages: await getRequestContext(context).services.pages.listPages() };
}

/** The CMS pages an admin can edit. */
export default function AdminPages({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <Breadcrumbs trail={[{ label: "Manager", to: "/manager" }]} current={"Pages"} />
      <h1 className="mt-2 font-display text-4xl font-bold text-navy-900">Pages</h1>
      <div className="mt-8 overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">
                Title
              </th>
              <th scope="col" className="hidden px-4 py-3 sm:table-cell">
                Address
              </th>
              <th scope="col" className="hidden px-4 py-3 md:table-cell">
                Last changed
              </th>
              <th scope="col" className="px-4 py-3">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {loaderData.pages.map((page) => (
              <tr key={page.url}>
                <td className="px-4 py-3 font-medium text-navy-900">{page.title}</td>
                <td className="hidden px-4 py-3 text-slate-600 sm:table-cell">{publicPageUrl(page.url)}</td>
                <td className="hidden px-4 py-3 text-slate-600 md:table-cell">{page.updated_at.slice(0, 10)}</td>
                <td className="px-4 py-3 text-right">
                  <Link to={`/manager/pages${page.url}`} className="btn-outline py-1.5">
                    <FilePenLine className="h-4 w-4" aria-hidden="true" />
                    Edit<span className="sr-only"> {page.title}</span>
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
