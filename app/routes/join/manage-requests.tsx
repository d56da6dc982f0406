import { CheckCircle2, Download, Mail, RotateCcw } from "lucide-react";
import { data, Form, useFetcher } from "react-router";
import { joinListSchema } from "../../../core/join/join.schema";
import type { MailStatus } from "../../../core/mail/mail.schema";
import { Breadcrumbs } from "../../components/ui/breadcrumbs";
import { ConfirmDelete } from "../../components/ui/confirm-delete";
import { FilterForm } from "../../components/ui/filter-form";
import { Notice } from "../../components/ui/notice";
import { Pager } from "../../components/ui/pager";
import { SelectField } from "../../components/ui/select-field";
import { getRequestContext } from "../../context";
import { actionRefusal, formId } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/manage-requests";

export const meta: Route.MetaFunction = () => [{ title: "Join requests · Manager" }];

export async function loader({ context, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  return services.join.list(joinListSchema.parse(Object.fromEntries(url.searchParams)));
}

/** Mark handled or open, delete, resend a failed mail: each one form, so all work without JavaScript. */
export async function action({ context, request }: Route.ActionArgs) {
  const { services } = getRequestContext(context);
  const form = await readForm(request);
  const id = formId(form);
  try {
    if (form.intent === "handled" || form.intent === "open")
      await services.join.setHandled(id, form.intent === "handled");
    else if (form.intent === "delete") await services.join.remove(id);
    else if (form.intent === "resend") await services.mail.resend(id);
    else throw data("Unknown action.", { status: 400 });
  } catch (error) {
    // A request another admin deleted meanwhile, a mail already resent: said, not a 500.
    return actionRefusal(error);
  }
  return { done: form.intent };
}

const RECEIVED = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

const MAIL_LABEL: Record<MailStatus["status"], string> = {
  pending: "waiting to be sent",
  sending: "being sent",
  sent: "sent",
  failed: "not sent",
};

function MailLine({ mail }: { mail: MailStatus }) {
  const fetcher = useFetcher();
  const tone = mail.status === "sent" ? "text-sea-700" : mail.status === "failed" ? "text-red-700" : "text-amber-700";
  return (
    <li className="flex flex-wrap items-center gap-2 text-xs">
      <Mail className="h-3.5 w-3.5 text-slate-500" aria-hidden="true" />
      <span>
        {mail.purpose === "notification" ? "Notification to" : "Reply to sender"} {mail.to_address}:{" "}
        <span className={`font-semibold ${tone}`}>{MAIL_LABEL[mail.status]}</span>
        {mail.attempts > 1 ? ` after ${mail.attempts} attempts` : ""}
        {mail.status !== "sent" && mail.last_error ? ` (${mail.last_error})` : ""}
      </span>
      {mail.status === "failed" ? (
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="id" value={mail.id} />
          <button type="submit" className="btn-ghost px-2 py-0.5 text-xs">
            <RotateCcw className="h-3.5 w-3.5" aria-hidden="true" />
            Resend
          </button>
        </fetcher.Form>
      ) : null}
    </li>
  );
}

/** The inbox of join and registration requests: newest first, filters, handled, delete, CSV, mail status. */
export default function Requests({ loaderData, actionData }: Route.ComponentProps) {
  const { data: rows, total, current_page, last_page, query, meetings } = loaderData;
  const params = new URLSearchParams();
  if (query.kind) params.set("kind", query.kind);
  if (query.status) params.set("status", query.status);
  if (query.meeting) params.set("meeting", String(query.meeting));
  if (query.search) params.set("search", query.search);
  return (
    <div>
      <Breadcrumbs trail={[{ label: "Manager", to: "/manager" }]} current="Join requests" />
      <div className="mt-2 flex flex-wrap items-end justify-between gap-4">
        <h1 className="font-display text-4xl font-bold text-navy-900">Join requests</h1>
        <a href={`/api/dashboard/join-requests/export?${params}`} className="btn-outline" download>
          <Download className="h-4 w-4" aria-hidden="true" />
          Export CSV
        </a>
      </div>
      {actionData && "error" in actionData ? (
        <Notice tone="error" className="mt-4">
          {actionData.error}
        </Notice>
      ) : null}
      <FilterForm
        label="Filter the requests"
        id="requests"
        searchLabel="Company, name or e-mail"
        search={query.search}
        grid="md:grid-cols-2 xl:grid-cols-[1fr_10rem_14rem_10rem_auto]"
      >
        <SelectField
          id="requests-kind"
          name="kind"
          label="Kind"
          defaultValue={query.kind ?? ""}
          options={[
            ["", "All"],
            ["join", "Membership"],
            ["registration", "Registration"],
          ]}
        />
        <SelectField
          id="requests-meeting"
          name="meeting"
          label="Meeting"
          defaultValue={query.meeting ?? ""}
          options={[["", "All"], ...meetings.map((m) => [m.id, m.title] as const)]}
        />
        <SelectField
          id="requests-status"
          name="status"
          label="Status"
          defaultValue={query.status ?? ""}
          options={[
            ["", "All"],
            ["open", "Open"],
            ["handled", "Handled"],
          ]}
        />
      </FilterForm>
      <p className="mt-4 text-sm text-slate-600" aria-live="polite">
        {total} request{total === 1 ? "" : "s"}
      </p>
      {rows.length === 0 ? (
        <p className="mt-6 rounded-xl bg-white p-6 text-slate-700 ring-1 ring-slate-200">No requests match.</p>
      ) : (
        <ul className="mt-3 space-y-3">
          {rows.map((row) => (
            <li key={row.id} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold text-navy-900">{row.company_name}</span>
                    <span
                      className={`rounded-full px-2 py-0.5 text-xs font-semibold ${row.kind === "registration" ? "bg-signal-500/15 text-navy-900" : "bg-sea-100 text-navy-900"}`}
                    >
                      {row.kind === "registration"
                        ? `Registration${row.meeting_title ? `: ${row.meeting_title}` : ""}`
                        : "Membership"}
                    </span>
                    {row.handled_at ? (
                      <span className="inline-flex items-center gap-1 text-xs text-sea-700">
                        <CheckCircle2 className="h-3.5 w-3.5" aria-hidden="true" />
                        Handled
                      </span>
                    ) : null}
                  </p>
                  <p className="mt-1 text-sm text-slate-700">
                    {row.representative_name} · <a href={`mailto:${row.email}`}>{row.email}</a> ·{" "}
                    <a href={`tel:${row.phone_number.replace(/[^\d+]/g, "")}`}>{row.phone_number}</a>
                  </p>
                  <p className="mt-1 text-xs text-slate-500">
                    {RECEIVED.format(new Date(row.created_at))} UTC
                    {row.page_path ? ` · sent from ${row.page_path}` : " · sent through the API"}
                  </p>
                </div>
                <div className="flex items-center gap-1">
                  <Form method="post">
                    <input type="hidden" name="id" value={row.id} />
                    <input type="hidden" name="intent" value={row.handled_at ? "open" : "handled"} />
                    <button type="submit" className="btn-outline py-1.5 text-sm">
                      {row.handled_at ? "Reopen" : "Mark handled"}
                      <span className="sr-only"> the request of {row.company_name}</span>
                    </button>
                  </Form>
                  <ConfirmDelete
                    label={`Delete the request of ${row.company_name}`}
                    title="Delete this request?"
                    description={`The request of ${row.company_name} and its mail history will be removed. This cannot be undone.`}
                    fields={{ intent: "delete", id: row.id }}
                  />
                </div>
              </div>
              {row.mails.length > 0 ? (
                <ul className="mt-3 space-y-1 border-t border-slate-100 pt-3">
                  {row.mails.map((mail) => (
                    <MailLine key={mail.id} mail={mail} />
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Pager
        path="/manager/requests"
        params={params}
        current={current_page}
        last={last_page}
        labels={["Newer", "Older"]}
      />
    </div>
  );
}
