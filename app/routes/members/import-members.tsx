import { Download, FileCheck2, Upload } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import type { CompanyImportReport, CompanyImportRow } from "../../../core/members/members.schema";
import { IMPORT_MAX_BYTES } from "../../../core/members/members.values";
import { Breadcrumbs } from "../../components/ui/breadcrumbs";
import { Notice } from "../../components/ui/notice";
import { getRequestContext } from "../../context";
import { fieldFailureOf } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/import-members";

export const meta: Route.MetaFunction = () => [{ title: "Import companies · Member companies · Manager" }];

type ImportActionData = { report: CompanyImportReport; csv: string; fileName: string } | { error: string };

const FIELD_LABELS: Record<string, string> = {
  name: "Name",
  country: "Country",
  website: "Website",
  membership_type: "Membership type",
  status: "Status",
  member_since: "Member since",
  renews_on: "Renews on",
  seats: "Seats",
  products: "Products",
  description: "Description",
  file: "File",
};

const ACTION_LABELS: Record<CompanyImportRow["action"], string> = {
  create: "New company",
  update: "Changes",
  unchanged: "Unchanged",
  refuse: "Refused",
};

/**
 * Step 1 posts the file (`check`): a dry run, whose report is shown with the file's text kept in
 * the page; step 2 posts that text back (`apply`), which runs the same import for real. Both work
 * without JavaScript.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { services } = getRequestContext(context);
  const form = await readForm(request);
  const apply = form.intent === "apply";
  const file = form.file instanceof File && (form.file.size > 0 || form.file.name) ? form.file : null;
  const source = apply ? String(form.csv ?? "") : file ? new Uint8Array(await file.arrayBuffer()) : null;
  const fileName = apply ? String(form.file_name ?? "") : (file?.name ?? "");
  try {
    const report = await services.companiesCsv.importCsv(source, apply);
    const csv = typeof source === "string" ? source : new TextDecoder().decode(source ?? new Uint8Array());
    return data<ImportActionData>({ report, csv: apply ? "" : csv, fileName });
  } catch (error) {
    const { errors, status } = fieldFailureOf(error);
    return data<ImportActionData>(
      { error: Object.values(errors).flat()[0] ?? "The file could not be imported." },
      { status },
    );
  }
}

function changeText(change: CompanyImportRow["changes"][number]) {
  const shown = (value: string) => (value === "" ? "none" : value.length > 80 ? `${value.slice(0, 80)}…` : value);
  return `${FIELD_LABELS[change.field] ?? change.field}: ${shown(change.before)} → ${shown(change.after)}`;
}

function RowDetails({ row }: { row: CompanyImportRow }) {
  if (row.action === "refuse") {
    return (
      <ul className="list-disc space-y-0.5 pl-4 text-red-800">
        {Object.entries(row.errors).flatMap(([field, messages]) =>
          messages.map((message) => (
            <li key={`${field}:${message}`}>
              {FIELD_LABELS[field] ?? field}: {message}
            </li>
          )),
        )}
      </ul>
    );
  }
  return row.changes.length > 0 ? (
    <ul className="space-y-0.5 break-words">
      {row.changes.map((change) => (
        <li key={change.field}>{changeText(change)}</li>
      ))}
    </ul>
  ) : null;
}

function ReportRow({ row }: { row: CompanyImportRow }) {
  const refused = row.action === "refuse";
  return (
    <tr className="align-top">
      <td className="px-3 py-2 text-slate-600 tabular-nums">{row.line}</td>
      <th scope="row" className="px-3 py-2 text-left font-semibold text-navy-900">
        {row.company_id && row.action !== "create" ? (
          <Link to={`/manager/members/${row.company_id}`} className="hover:text-sea-600 hover:underline">
            {row.name}
          </Link>
        ) : (
          row.name || <span className="font-normal text-slate-500">(no name)</span>
        )}
        {/* On a phone the details go under the name: a fourth column would be off the screen. */}
        <div className="mt-1 text-sm font-normal text-slate-700 sm:hidden">
          <RowDetails row={row} />
        </div>
      </th>
      <td className="px-3 py-2">
        <span
          className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${
            refused ? "bg-red-50 text-red-800 ring-1 ring-red-200" : "bg-sea-100 text-navy-900"
          }`}
        >
          {ACTION_LABELS[row.action]}
        </span>
      </td>
      <td className="hidden px-3 py-2 text-sm text-slate-700 sm:table-cell">
        <RowDetails row={row} />
      </td>
    </tr>
  );
}

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

/** "Import: create 2 and change 1 companies", naming only what will happen. */
function applyLabel(report: CompanyImportReport) {
  const parts = [
    report.created > 0 ? `create ${report.created}` : "",
    report.updated > 0 ? `change ${report.updated}` : "",
  ].filter(Boolean);
  const total = report.created + report.updated;
  return `Import: ${parts.join(" and ")} ${total === 1 ? "company" : "companies"}`;
}

function Summary({ report, fileName }: { report: CompanyImportReport; fileName: string }) {
  const parts = [
    `${plural(report.created, "company", "companies")} ${report.applied ? "created" : "to create"}`,
    `${report.updated} ${report.applied ? "changed" : "to change"}`,
    `${report.unchanged} unchanged`,
    `${report.refused} refused`,
  ];
  const from = fileName ? ` ${fileName}` : " the file";
  return (
    <Notice tone={report.refused > 0 && report.applied ? "error" : "success"} className="mt-6">
      {report.applied ? `Imported${from}: ` : `Checked${from}: `}
      {parts.join(", ")}.{" "}
      {report.applied
        ? report.refused > 0
          ? "The refused rows below were not imported: correct them in the file and import it again."
          : ""
        : "Nothing has been changed yet."}
    </Notice>
  );
}

/** Issue 31 'CSV': the secretariat moves a member spreadsheet in, a dry run first. */
export default function ImportMembers({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const result = actionData as ImportActionData | undefined;
  const report = result && "report" in result ? result : null;
  const listed = report ? report.report.rows.filter((row) => row.action !== "unchanged") : [];
  const toDo = report ? report.report.created + report.report.updated : 0;
  return (
    <div className="max-w-5xl">
      <Breadcrumbs
        trail={[
          { label: "Manager", to: "/manager" },
          { label: "Member companies", to: "/manager/members" },
        ]}
        current="Import"
      />
      <h1 className="mt-2 font-display text-4xl font-bold text-navy-900">Import member companies</h1>
      <div className="mt-4 space-y-2 text-slate-700">
        <p>
          A CSV file whose first row names the columns: <strong>Name</strong> (required), Country (a code such as NO or
          the English name), Website, Membership type (full or associate), Status (active, suspended or left), Member
          since and Renews on (as 2026-11-27), Seats, Products (with commas between them) and Description.
        </p>
        <p>
          Each row adds the company of its name, or changes the one that already has it. The columns in the file are the
          truth: an empty cell clears a website, renewal date, seat limit, products or description. Logos and
          representatives are not imported: invite representatives from the company’s screen.
        </p>
        <p>
          <a href="/api/dashboard/companies/export" className="font-semibold text-sea-600 hover:underline" download>
            <Download className="mr-1 inline h-4 w-4" aria-hidden="true" />
            Download the current list as CSV
          </a>{" "}
          to edit it in a spreadsheet and import it back.
        </p>
      </div>

      <Form
        method="post"
        encType="multipart/form-data"
        className="mt-6 flex flex-wrap items-end gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
      >
        <input type="hidden" name="intent" value="check" />
        <div className="min-w-0 flex-1">
          <label htmlFor="import-file" className="block text-sm font-semibold text-slate-800">
            CSV file (at most {IMPORT_MAX_BYTES / 1024 / 1024} MB)
          </label>
          <input
            id="import-file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            required
            aria-describedby={result && "error" in result ? "import-error" : undefined}
            className="mt-1 block w-full text-sm text-slate-800 file:mr-3 file:rounded-md file:border-0 file:bg-navy-900 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-white"
          />
        </div>
        <button type="submit" className="btn-outline" disabled={busy}>
          <FileCheck2 className="h-4 w-4" aria-hidden="true" />
          Check the file
        </button>
      </Form>

      {result && "error" in result ? (
        <div id="import-error">
          <Notice tone="error" className="mt-6">
            {result.error}
          </Notice>
        </div>
      ) : null}

      {report ? (
        <section aria-labelledby="import-report">
          <h2 id="import-report" className="sr-only">
            {report.report.applied ? "What was imported" : "What the import will do"}
          </h2>
          <Summary report={report.report} fileName={report.fileName} />
          {report.report.ignored_columns.length > 0 ? (
            <p className="mt-2 text-sm text-slate-600">
              Not imported (columns the import does not read): {report.report.ignored_columns.join(", ")}.
            </p>
          ) : null}
          {!report.report.applied && toDo > 0 ? (
            <Form method="post" className="mt-4">
              <input type="hidden" name="intent" value="apply" />
              <input type="hidden" name="file_name" value={report.fileName} />
              <input type="hidden" name="csv" value={report.csv} />
              <button type="submit" className="btn-primary" disabled={busy}>
                <Upload className="h-4 w-4" aria-hidden="true" />
                {applyLabel(report.report)}
              </button>
            </Form>
          ) : null}
          {listed.length > 0 ? (
            <div className="mt-4 overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
              <table className="w-full text-sm">
                <caption className="sr-only">Row by row</caption>
                <thead className="border-b border-slate-200 text-left text-xs uppercase tracking-wide text-slate-600">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      Line
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Company
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Result
                    </th>
                    <th scope="col" className="hidden px-3 py-2 sm:table-cell">
                      Details
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {listed.map((row) => (
                    <ReportRow key={row.line} row={row} />
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {report.report.unchanged > 0 ? (
            <p className="mt-2 text-sm text-slate-600">
              {plural(report.report.unchanged, "row matches its company", "rows match their companies")} already and{" "}
              {report.report.unchanged === 1 ? "is" : "are"} not listed.
            </p>
          ) : null}
          {report.report.applied ? (
            <p className="mt-4">
              <Link to="/manager/members" className="font-semibold text-sea-600 hover:underline">
                Back to the member companies
              </Link>
            </p>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
