import { CheckCircle2, Download, Mail, RotateCcw, ShieldAlert, ShieldCheck } from "lucide-react";
import { data, Form, useFetcher } from "react-router";
import {
  applicationApproveSchema,
  applicationDeclineSchema,
  type JoinRequest,
  joinListSchema,
  type SpamReason,
} from "../../../core/join/join.schema";
import { MIN_FILL_SECONDS } from "../../../core/join/join.values";
import type { MailStatus } from "../../../core/mail/mail.schema";
import { companiesQuerySchema } from "../../../core/members/members.schema";
import { isAppError } from "../../../lib/errors";
import { parseId } from "../../../lib/ids";
import { parseOrThrow } from "../../../lib/validation";
import { AdminList, type FilterSelects, filterParams, resultNotices } from "../../components/admin/admin-list";
import {
  type ApplicationRefusal,
  ApproveForm,
  DeclineForm,
  History,
  StatusBadge,
} from "../../components/join/application-forms";
import { ConfirmDelete } from "../../components/ui/confirm-delete";
import { getRequestContext } from "../../context";
import { actionRefusal, firstMessages, formId } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/manage-requests";

/**
 * What the page holds: everything the public forms bring in (decision 0039). SPEC names no such
 * page; "Inbox" says what it is, the filters tell the kinds apart.
 */
const TITLE = "Inbox";

export const meta: Route.MetaFunction = () => [{ title: `${TITLE} · Manager` }];

/** Why a request is shown as probable spam (decision 0039): said to the admin, who decides. */
const SPAM_LABEL: Record<SpamReason, string> = {
  too_fast: `Probable spam: sent within ${MIN_FILL_SECONDS} seconds of the form being shown`,
  no_form_time: "Probable spam: sent without the time stamp the site gives its forms (a script, or an API client)",
  honeypot: "Probable spam: a field hidden from people was filled in; no mail was sent",
};

function kindLabel(row: JoinRequest): string {
  if (row.kind === "message") return "Message";
  if (row.kind === "registration") return `Registration${row.meeting_title ? `: ${row.meeting_title}` : ""}`;
  return "Membership";
}

/** The first word of a company's name worth searching by ("Lagoon" of "Lagoon Coast Marine Radio Ltd"). */
function searchWord(name: string | null): string {
  return (name ?? "").split(/\s+/).find((word) => word.replace(/\W/g, "").length >= 3) ?? "";
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const list = await services.join.list(joinListSchema.parse(Object.fromEntries(url.searchParams)));
  // `?approve=ID` or `?decline=ID` opens that application's form (a link, so it works without JavaScript).
  const open = (name: string) => {
    const id = parseId(url.searchParams.get(name));
    return list.data.find((row) => row.id === id && row.status === "new") ?? null;
  };
  const approving = open("approve");
  const declining = approving ? null : open("decline");
  if (!approving) return { ...list, approving: null, declining: declining?.id ?? null };
  const companySearch = (url.searchParams.get("company_search") ?? searchWord(approving.company_name)).slice(0, 100);
  const matches = companySearch
    ? await services.members.adminList(companiesQuerySchema.parse({ search: companySearch }))
    : { data: [] };
  return {
    ...list,
    declining: null,
    approving: {
      id: approving.id,
      companySearch,
      companies: matches.data.map((c) => ({ id: c.id, name: c.name, country_name: c.country_name })),
      countries: services.members.countryChoices(),
    },
  };
}

/**
 * Approve or decline an application (decision 0047); mark handled or open, not spam, delete, resend a
 * failed mail: each one form, so all work without JavaScript.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, auth, origin } = getRequestContext(context);
  const form = await readForm(request);
  const id = formId(form);
  if (form.intent === "approve" || form.intent === "decline") {
    const actor = auth?.user;
    // The admin layout's guard already stops everyone else; the check stays beside what it protects.
    if (actor?.role.name !== "admin") throw data("This action is unauthorized.", { status: 403 });
    try {
      if (form.intent === "approve") {
        const { company, invited } = await services.applications.approve(
          id,
          parseOrThrow(applicationApproveSchema, form),
          actor,
          origin,
        );
        return {
          done: "approve",
          notice: `Approved: ${company.name} is a member company, and ${invited ? "an invitation was sent to" : "the existing account was linked and told:"} ${typeof form.email === "string" && form.email ? form.email : "the applicant"}.`,
        };
      }
      await services.applications.decline(id, parseOrThrow(applicationDeclineSchema, form), actor);
      return { done: "decline", notice: "Declined: the reason was e-mailed to the applicant." };
    } catch (error) {
      // A field to correct (422, or the address that belongs elsewhere, 409): beside the field, with what was typed.
      if (isAppError(error) && error.details.errors) {
        const values = Object.fromEntries(
          Object.entries(form).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
        );
        return data<{ refusal: ApplicationRefusal }>(
          { refusal: { intent: form.intent, id, errors: firstMessages(error.details.errors), values } },
          { status: error.status },
        );
      }
      return actionRefusal(error);
    }
  }
  try {
    if (form.intent === "handled" || form.intent === "open")
      await services.join.setHandled(id, form.intent === "handled");
    else if (form.intent === "not-spam") await services.join.markNotSpam(id);
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

/** Who a mail went to, by what it was for. */
const PURPOSE_LABEL: Record<string, string> = {
  notification: "Notification to",
  acknowledgement: "Reply to sender",
  invitation: "Invitation (approval) to",
  representative_linked: "Approval (account linked) to",
  decline: "Decline with the reason to",
};

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
        {PURPOSE_LABEL[mail.purpose] ?? "Mail to"} {mail.to_address}:{" "}
        <span className={`font-semibold ${tone}`}>{MAIL_LABEL[mail.status]}</span>
        {mail.attempts > 1 ? ` after ${mail.attempts} attempts` : ""}
        {mail.status !== "sent" && mail.last_error ? ` (${mail.last_error})` : ""}
      </span>
      {mail.status === "failed" ? (
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="resend" />
          <input type="hidden" name="id" value={mail.id} />
          <button
            type="submit"
            className="btn-ghost px-2 py-0.5 text-xs"
            // A resend also lifts the mark of an address that refused mail for good (decision 0078).
            title="Send it again from scratch. If the address refused mail for good, it is mailed again from now on: resend once you know it works."
          >
            <RotateCcw className="h-3.5 w-3.5" aria-hidden="true" />
            Resend
          </button>
        </fetcher.Form>
      ) : null}
    </li>
  );
}

/** The inbox of join and registration requests and messages: newest first, filters, handled, not spam, delete, CSV, mail status. */
export default function Requests({ loaderData, actionData }: Route.ComponentProps) {
  const { current_page, query, meetings, approving, declining } = loaderData;
  const refusal = actionData && "refusal" in actionData ? actionData.refusal : null;
  const params = filterParams({
    kind: query.kind,
    spam: query.spam,
    status: query.status,
    meeting: query.meeting,
    search: query.search,
  });
  // The page's own address (its filters and page), for the links that open a form and the forms' cancel.
  const listing = new URLSearchParams(params);
  if (current_page > 1) listing.set("page", String(current_page));
  const here = (extra: Record<string, string> = {}, anchor = "") => {
    const next = new URLSearchParams(listing);
    for (const [key, value] of Object.entries(extra)) next.set(key, value);
    const search = next.toString();
    return `/manager/requests${search ? `?${search}` : ""}${anchor}`;
  };
  const listParams = [...listing.entries()];
  const selects: FilterSelects = {
    kind: {
      label: "Kind",
      options: [
        ["join", "Membership"],
        ["registration", "Registration"],
        ["message", "Message"],
      ],
    },
    meeting: { label: "Meeting", options: meetings.map((m) => [m.id, m.title] as const) },
    status: {
      label: "Status",
      options: [
        ["open", "Open"],
        ["handled", "Handled"],
        ["new", "New applications"],
        ["approved", "Approved applications"],
        ["declined", "Declined applications"],
      ],
    },
    spam: {
      label: "Spam",
      options: [
        ["none", "Not spam"],
        ["only", "Probable spam"],
      ],
    },
  };
  return (
    <AdminList
      title={TITLE}
      description="Membership requests, meeting registrations and messages sent through the website's forms."
      headerAction={
        <a href={`/api/dashboard/join-requests/export?${params}`} className="btn-outline" download>
          <Download className="h-4 w-4" aria-hidden="true" />
          Export CSV
        </a>
      }
      notices={[
        ...resultNotices(actionData),
        ...(refusal
          ? [
              {
                tone: "error" as const,
                text: `The application was not ${refusal.intent === "approve" ? "approved" : "declined"}: ${Object.values(refusal.errors)[0]}`,
              },
            ]
          : []),
      ]}
      search={{ id: "requests", label: "Company, name, e-mail or subject" }}
      filters={{
        label: "Filter the requests",
        selects,
        grid: "md:grid-cols-2 xl:grid-cols-[1fr_10rem_14rem_14rem_11rem_auto]",
      }}
      params={params}
      page={loaderData}
      noun={["request", "requests"]}
      empty="No requests match."
      layout="cards"
      path="/manager/requests"
      paging="pages"
      pagerLabels={["Newer", "Older"]}
      renderRow={(row) => (
        <li id={`request-${row.id}`} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold text-navy-900">{row.company_name ?? row.representative_name}</span>
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-semibold ${row.kind === "registration" ? "bg-signal-500/15 text-navy-900" : row.kind === "message" ? "bg-navy-100 text-navy-900" : "bg-sea-100 text-navy-900"}`}
                >
                  {kindLabel(row)}
                </span>
                {row.status ? <StatusBadge status={row.status} /> : null}
                {row.spam_reason ? (
                  <span className="inline-flex items-center gap-1 rounded-full bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-800 ring-1 ring-red-200">
                    <ShieldAlert className="h-3.5 w-3.5" aria-hidden="true" />
                    {SPAM_LABEL[row.spam_reason]}
                  </span>
                ) : null}
                {row.handled_at ? (
                  <span className="inline-flex items-center gap-1 text-xs text-sea-700">
                    <CheckCircle2 className="h-3.5 w-3.5" aria-hidden="true" />
                    Handled
                  </span>
                ) : null}
              </p>
              <p className="mt-1 text-sm text-slate-700">
                {row.company_name ? `${row.representative_name} · ` : null}
                <a href={`mailto:${row.email}`}>{row.email}</a>
                {row.phone_number ? (
                  <>
                    {" · "}
                    <a href={`tel:${row.phone_number.replace(/[^\d+]/g, "")}`}>{row.phone_number}</a>
                  </>
                ) : null}
              </p>
              {row.kind === "message" ? (
                <div className="mt-2 max-w-3xl rounded-md bg-slate-50 p-3 text-sm text-slate-800">
                  <p className="font-semibold">{row.subject}</p>
                  <p className="mt-1 whitespace-pre-line break-words">{row.message}</p>
                </div>
              ) : null}
              <p className="mt-1 text-xs text-slate-500">
                {RECEIVED.format(new Date(row.created_at))} UTC
                {row.page_path ? ` · sent from ${row.page_path}` : " · sent through the API"}
              </p>
              {row.privacy_shown_at ? (
                // The consent record (decision 0077): which Privacy Policy the form showed beside its button, and when.
                <p className="mt-0.5 text-xs text-slate-500">
                  Privacy Policy shown:{" "}
                  {row.privacy_revision === null ? "no revision kept yet" : `revision ${row.privacy_revision}`},{" "}
                  {RECEIVED.format(new Date(row.privacy_shown_at))} UTC
                </p>
              ) : null}
            </div>
            <div className="flex flex-wrap items-center gap-1">
              {row.status === "new" ? (
                <>
                  <a
                    href={here({ approve: String(row.id) }, `#approve-${row.id}-heading`)}
                    className="btn-primary py-1.5 text-sm"
                  >
                    Approve…<span className="sr-only"> the application of {row.company_name}</span>
                  </a>
                  <a
                    href={here({ decline: String(row.id) }, `#decline-${row.id}-heading`)}
                    className="btn-outline py-1.5 text-sm"
                  >
                    Decline…<span className="sr-only"> the application of {row.company_name}</span>
                  </a>
                </>
              ) : null}
              {row.spam_reason ? (
                <Form method="post">
                  <input type="hidden" name="id" value={row.id} />
                  <input type="hidden" name="intent" value="not-spam" />
                  <button type="submit" className="btn-outline py-1.5 text-sm">
                    <ShieldCheck className="h-4 w-4" aria-hidden="true" />
                    Not spam
                    <span className="sr-only"> (the request of {row.company_name ?? row.representative_name})</span>
                  </button>
                </Form>
              ) : null}
              <Form method="post">
                <input type="hidden" name="id" value={row.id} />
                <input type="hidden" name="intent" value={row.handled_at ? "open" : "handled"} />
                <button type="submit" className="btn-outline py-1.5 text-sm">
                  {row.handled_at ? "Reopen" : "Mark handled"}
                  <span className="sr-only"> the request of {row.company_name ?? row.representative_name}</span>
                </button>
              </Form>
              <ConfirmDelete
                label={`Delete the request of ${row.company_name ?? row.representative_name}`}
                title="Delete this request?"
                description={`The request of ${row.company_name ?? row.representative_name} and its mail history will be removed.${row.kind === "registration" && row.meeting_id ? " Its seat at the meeting is free again." : ""} This cannot be undone.`}
                fields={{ intent: "delete", id: row.id }}
              />
            </div>
          </div>
          {approving?.id === row.id ? (
            <ApproveForm
              row={row}
              countries={approving.countries}
              companies={approving.companies}
              companySearch={approving.companySearch}
              refusal={refusal?.intent === "approve" && refusal.id === row.id ? refusal : null}
              searchAction={{ path: "/manager/requests", params: listParams }}
            />
          ) : null}
          {declining === row.id ? (
            <DeclineForm
              row={row}
              refusal={refusal?.intent === "decline" && refusal.id === row.id ? refusal : null}
              back={here({}, `#request-${row.id}`)}
            />
          ) : null}
          {row.kind === "join" ? <History row={row} /> : null}
          {row.mails.length > 0 ? (
            <ul className="mt-3 space-y-1 border-t border-slate-100 pt-3">
              {row.mails.map((mail) => (
                <MailLine key={mail.id} mail={mail} />
              ))}
            </ul>
          ) : null}
        </li>
      )}
    />
  );
}
