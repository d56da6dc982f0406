import { CalendarCheck, Download, FilePenLine, Upload } from "lucide-react";
import { data, Form, Link } from "react-router";
import { type AdminCompany, companiesQuerySchema, RENEWALS_DUE_DAYS } from "../../../core/members/members.schema";
import { isAppError } from "../../../lib/errors";
import { parseOrThrow } from "../../../lib/validation";
import { AdminList, type FilterSelects, filterParams, resultNotices } from "../../components/admin/admin-list";
import {
  CompanyLogo,
  CompanyStatusBadge,
  formatDay,
  type MembersActionData,
  STATUS_LABELS,
  seatsText,
  TYPE_LABELS,
} from "../../components/members/company-parts";
import { ConfirmDelete } from "../../components/ui/confirm-delete";
import { getRequestContext } from "../../context";
import { takeFlash } from "../../lib/flash.server";
import { actionRefusal, formId } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/manage-members";

export const meta: Route.MetaFunction = () => [{ title: "Member companies · Manager" }];

export async function loader({ context, request, url }: Route.LoaderArgs) {
  const { services, sessionToken, secureCookies } = getRequestContext(context);
  const raw = Object.fromEntries(url.searchParams);
  let query: ReturnType<typeof companiesQuerySchema.parse>;
  try {
    query = parseOrThrow(companiesQuerySchema, raw);
  } catch (error) {
    if (isAppError(error) && error.code === "validation")
      throw data("That page of the list does not exist.", { status: 400 });
    throw error;
  }
  const page = await services.members.adminList(query);
  // The "Deleted …" notice of the company screen's redirect: from a signed flash cookie, never from the URL.
  const flash = takeFlash(request, { token: sessionToken, secure: secureCookies });
  return data(
    {
      page,
      filters: {
        search: query.search,
        status: query.status ?? "",
        current: query.current ?? "",
        type: query.type ?? "",
        due: query.due,
      },
      notice: flash.message,
    },
    { headers: flash.headers },
  );
}

/** 'Renewed' and delete, each one form on the row (a delete through ConfirmDelete's dialog). */
export async function action({ context, request }: Route.ActionArgs) {
  const { services } = getRequestContext(context);
  const form = await readForm(request);
  try {
    switch (form.intent) {
      case "renew": {
        const company = await services.members.renew(formId(form));
        return data<MembersActionData>({
          notice: `${company.name} is renewed until ${formatDay(company.renews_on ?? "")}.`,
        });
      }
      case "delete": {
        const id = formId(form);
        const { name } = await services.members.get(id);
        await services.members.remove(id);
        return data<MembersActionData>({ notice: `Deleted “${name}”.` });
      }
      default:
        throw data("Unknown action.", { status: 400 });
    }
  } catch (error) {
    return actionRefusal(error);
  }
}

function CompanyRow({ company }: { company: AdminCompany }) {
  const forName = <span className="sr-only"> {company.name}</span>;
  const facts: [string, React.ReactNode][] = [
    ["Type", TYPE_LABELS[company.membership_type]],
    ["Renews on", company.renews_on ? formatDay(company.renews_on) : "—"],
    ["Seats used", seatsText(company)],
  ];
  return (
    <li className="grid gap-3 px-4 py-3 lg:grid-cols-[minmax(0,1fr)_auto] lg:items-center">
      <div className="flex min-w-0 items-center gap-3">
        <CompanyLogo company={company} size="h-12 w-20" />
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2">
            <Link
              to={`/manager/members/${company.id}`}
              className="font-semibold text-navy-900 hover:text-sea-600 hover:underline"
            >
              {company.name}
            </Link>
            <CompanyStatusBadge company={company} />
          </p>
          <p className="text-sm text-slate-600">{company.country_name}</p>
          <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-slate-600">
            {facts.map(([term, value]) => (
              <div key={term} className="flex gap-1">
                <dt>{term}:</dt>
                <dd className="font-semibold text-slate-800">{value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-1">
        <Link to={`/manager/members/${company.id}`} className="btn-outline py-1.5 text-sm">
          <FilePenLine className="h-4 w-4" aria-hidden="true" />
          Edit{forName}
        </Link>
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="renew" />
          <input type="hidden" name="id" value={company.id} />
          <button type="submit" className="btn-outline py-1.5 text-sm">
            <CalendarCheck className="h-4 w-4" aria-hidden="true" />
            Renewed{forName}
          </button>
        </Form>
        <ConfirmDelete
          label={`Delete ${company.name}`}
          title="Delete this company?"
          description={
            company.seats_used > 0
              ? `${company.name} still has ${company.seats_used} representative${company.seats_used === 1 ? "" : "s"}: it can be deleted only once they are removed. To keep its record, set its status to Left instead.`
              : `${company.name} and its logo will be removed. This cannot be undone; to keep its record, set its status to Left instead.`
          }
          fields={{ intent: "delete", id: company.id }}
        />
      </div>
    </li>
  );
}

/** The filter selects, by URL parameter; their options are the values the query schema accepts. */
const SELECTS: FilterSelects = {
  status: { label: "Status", options: Object.entries(STATUS_LABELS) },
  current: {
    label: "Membership",
    options: [
      ["current", "Current"],
      ["lapsed", "Lapsed"],
    ],
  },
  type: { label: "Type", options: Object.entries(TYPE_LABELS) },
};

/** Issue 31 'The secretariat': the member companies, with search, filters, load-more, Renewed and delete. */
export default function ManageMembers({ loaderData, actionData }: Route.ComponentProps) {
  const { page, filters, notice } = loaderData;
  return (
    <AdminList
      title="Member companies"
      newLink={{ to: "/manager/members/new", label: "New company" }}
      headerAction={
        <>
          <Link to="/manager/members/import" className="btn-outline">
            <Upload className="h-4 w-4" aria-hidden="true" />
            Import from CSV
          </Link>
          {/* What the list shows, every page of it (the filters in the address). */}
          <a href={`/api/dashboard/companies/export?${filterParams(filters)}`} className="btn-outline" download>
            <Download className="h-4 w-4" aria-hidden="true" />
            Export CSV
          </a>
        </>
      }
      notice={notice}
      notices={resultNotices(actionData)}
      search={{ id: "companies", label: "Name, country or product" }}
      filters={{
        label: "Filter the companies",
        selects: SELECTS,
        extra: (
          <label className="flex items-center gap-2 pb-2.5 text-sm text-slate-800">
            <input type="checkbox" name="due" value="1" defaultChecked={filters.due} className="h-4 w-4" />
            Renewal due in {RENEWALS_DUE_DAYS} days
          </label>
        ),
        grid: "sm:grid-cols-2 lg:grid-cols-[1fr_9rem_9rem_10rem_auto_auto]",
        searchClassName: "sm:col-span-2 lg:col-span-1",
      }}
      params={filterParams(filters)}
      page={page}
      noun={["company", "companies"]}
      showAll
      empty={{
        filtered: "No companies match.",
        unfiltered: "No member companies yet: add the first with “New company”.",
      }}
      layout="rows"
      path="/manager/members"
      paging="load-more"
      renderRow={(company) => <CompanyRow company={company} />}
    />
  );
}
