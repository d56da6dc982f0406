import { Badge, CalendarDays, Download, FileText, MapPin, ScanLine } from "lucide-react";
import { data, Form, Link } from "react-router";
import { REASON_MAX } from "../../../core/join/join.schema";
import { REGISTRATION_STATUSES, type RegistrationStatus } from "../../../core/join/join.values";
import type { RegistrationRow } from "../../../core/join/registrations.service";
import { parseId } from "../../../lib/ids";
import { AdminList, type FilterSelects, filterParams, RowActionForm } from "../../components/admin/admin-list";
import { formatDateRange } from "../../components/events/format";
import {
  meetingTime,
  placesLine,
  REGISTRATION_STATE_LABELS,
  RegistrationStateBadge,
  registrationsPath,
} from "../../components/events/registrations";
import { getRequestContext } from "../../context";
import { useAdminTrail } from "../../lib/admin-home";
import { actionRefusal } from "../../lib/forms";
import { readFormWithLists } from "../../lib/read-form.server";
import type { Route } from "./+types/manage-registrations";
import { actorOf, meetingOf, refusalText } from "./registrations.server";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `Registrations${loaderData ? `: ${loaderData.meeting.title}` : ""} · Manager` },
];

const isStatus = (value: string | null): value is RegistrationStatus =>
  (REGISTRATION_STATUSES as readonly string[]).includes(value ?? "");

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const meeting = await meetingOf(context, params.id);
  const status = url.searchParams.get("status");
  const search = (url.searchParams.get("search") ?? "").trim().slice(0, 100);
  const pageParam = url.searchParams.get("page");
  const pageNumber = pageParam === null ? 1 : parseId(pageParam);
  if (pageNumber === null) throw data("That page of the list does not exist.", { status: 400 });
  const [list, overall] = await Promise.all([
    services.registrations.list(meeting.id, { status: isStatus(status) ? status : undefined, search }, pageNumber),
    services.registrations.counts(meeting.id),
  ]);
  // `?decline=ID` or `?cancel=ID` opens that row's question in place: a link, so it works without JavaScript.
  const opened = (name: string) => parseId(url.searchParams.get(name));
  return {
    meeting: {
      id: meeting.id,
      title: meeting.title,
      slug: meeting.slug,
      start_date: meeting.start_date,
      end_date: meeting.end_date,
      location: meeting.location,
      timezone: meeting.timezone,
      capacity: meeting.registration_settings.capacity,
    },
    page: { ...list, data: list.data as (RegistrationRow & { status: RegistrationStatus })[] },
    counts: list.counts,
    overall,
    query: { status: isStatus(status) ? status : "", search },
    declining: opened("decline"),
    cancelling: opened("cancel"),
  };
}

type Change = "confirm" | "decline" | "cancel" | "move-up" | "check-in" | "undo-check-in";
const CHANGES: readonly Change[] = ["confirm", "decline", "cancel", "move-up", "check-in", "undo-check-in"];
const BULK = { "bulk-confirm": "confirm", "bulk-decline": "decline", "bulk-cancel": "cancel" } as const;

/** What each change is called in a refusal: "The registration of Ada Lovelace was not confirmed: …". */
const NOT_DONE: Record<Change, string> = {
  confirm: "was not confirmed",
  decline: "was not declined",
  cancel: "was not cancelled",
  "move-up": "was not moved up",
  "check-in": "was not checked in",
  "undo-check-in": "kept its check-in",
};

const nameOf = (row: Pick<RegistrationRow, "representative_name" | "email">) => row.representative_name || row.email;

/**
 * A row's change (confirm, decline with its reason, cancel, move up, check in and its undoing) or
 * the same change for the checked rows at once (`bulk-…`): one form each, so all work without
 * JavaScript. A refusal says whose and why, in the service's words; in bulk the others are done.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const { services } = getRequestContext(context);
  const by = actorOf(context);
  const meeting = await meetingOf(context, params.id);
  const { form, lists } = await readFormWithLists(request, ["ids"]);
  const intent = typeof form.intent === "string" ? form.intent : "";
  const reason = typeof form.reason === "string" ? form.reason.trim() || null : null;
  if (reason && reason.length > REASON_MAX)
    return data({ error: `The reason may not be longer than ${REASON_MAX} characters.` }, { status: 422 });
  const registrations = services.registrations;
  const apply = (change: Change, id: number) => {
    switch (change) {
      case "confirm":
        return registrations.confirm(meeting.id, id, by);
      case "decline":
        return registrations.decline(meeting.id, id, by, reason);
      case "cancel":
        return registrations.cancel(meeting.id, id, by);
      case "move-up":
        return registrations.moveUp(meeting.id, id, by);
      case "check-in":
        return registrations.setAttended(meeting.id, id, true, by);
      case "undo-check-in":
        return registrations.setAttended(meeting.id, id, false, by);
    }
  };
  /** The row's name for a refusal; a registration of another meeting (or none) is the 404 the service said. */
  const refused = async (id: number, change: Change, error: unknown) => {
    const why = refusalText(error);
    const row = await registrations.get(meeting.id, id);
    return `The registration of ${nameOf(row)} ${NOT_DONE[change]}: ${why}`;
  };

  if (intent in BULK) {
    const change = BULK[intent as keyof typeof BULK];
    const ids = [...new Set(lists.ids.map(parseId))].filter((id): id is number => id !== null);
    if (ids.length === 0) return data({ error: "Select at least one registration first." }, { status: 422 });
    const done: string[] = [];
    const refusals: string[] = [];
    for (const id of ids) {
      try {
        done.push(nameOf(await apply(change, id)));
      } catch (error) {
        try {
          refusals.push(await refused(id, change, error));
        } catch (missing) {
          // A checked row that is not this meeting's (another meeting's id, one deleted since).
          refusals.push(`Registration ${id} was not changed: ${refusalText(missing)}`);
        }
      }
    }
    const past = { confirm: "Confirmed", decline: "Declined", cancel: "Cancelled" }[change];
    const notice =
      done.length > 0
        ? `${past} ${done.length} ${done.length === 1 ? "registration" : "registrations"}: ${done.join(", ")}.`
        : null;
    return data({ notice, refusals }, { status: done.length > 0 ? 200 : 422 });
  }

  const change = CHANGES.find((c) => c === intent);
  if (!change) throw data("Unknown action.", { status: 400 });
  const id = parseId(form.id);
  if (id === null) throw data("Unknown item.", { status: 400 });
  try {
    const row = await apply(change, id);
    const name = nameOf(row);
    const notice: Record<Change, string> = {
      confirm: `Confirmed the registration of ${name}; they are told by e-mail.`,
      decline: `Declined the registration of ${name}; they are told by e-mail.`,
      cancel: `Cancelled the registration of ${name}; they are told by e-mail.`,
      "move-up": `Moved ${name} up from the waiting list.`,
      "check-in": `${name} checked in at ${row.attended_at ? meetingTime(row.attended_at, meeting.timezone) : ""}.`,
      "undo-check-in": `Check-in of ${name} undone.`,
    };
    return { notice: notice[change], refusals: [] as string[] };
  } catch (error) {
    try {
      const text = await refused(id, change, error);
      return data({ error: text, refusals: [] as string[] }, { status: (error as { status?: number }).status ?? 422 });
    } catch (missing) {
      return actionRefusal(missing);
    }
  }
}

const BULK_FORM = "registrations-bulk";

/** SPEC-less, issue 32 'The secretariat: /manage-events/{id}/registrations' (decision 0055). */
export default function ManageRegistrations({ loaderData, actionData }: Route.ComponentProps) {
  const { meeting, page, counts, overall, query, declining, cancelling } = loaderData;
  const adminTrail = useAdminTrail();
  const path = registrationsPath(meeting.id);
  const params = filterParams({ status: query.status, search: query.search });
  // The list's own address (filters and page), for the links that open a row's question and its "Back".
  const listing = new URLSearchParams(params);
  if (page.current_page > 1) listing.set("page", String(page.current_page));
  const here = (extra: Record<string, string> = {}, anchor = "") => {
    const next = new URLSearchParams(listing);
    for (const [key, value] of Object.entries(extra)) next.set(key, value);
    const search = next.toString();
    return `${path}${search ? `?${search}` : ""}${anchor}`;
  };
  const selects: FilterSelects = {
    status: {
      label: "State",
      options: REGISTRATION_STATUSES.map((s) => [s, `${REGISTRATION_STATE_LABELS[s]} (${counts[s]})`] as const),
    },
  };
  const notices = [
    ...(actionData && "notice" in actionData && actionData.notice
      ? [{ tone: "success" as const, text: actionData.notice }]
      : []),
    ...(actionData && "error" in actionData && typeof actionData.error === "string"
      ? [{ tone: "error" as const, text: actionData.error }]
      : []),
    ...(actionData && "refusals" in actionData ? actionData.refusals : []).map((text) => ({
      tone: "error" as const,
      text,
    })),
  ];
  const files = `${path}`;
  return (
    <AdminList
      title="Registrations"
      trail={[
        ...adminTrail,
        { label: "Events", to: "/manage-events" },
        { label: meeting.title, to: `/manage-events/${meeting.id}/edit` },
      ]}
      description={
        <>
          <span className="block font-semibold text-navy-900">{meeting.title}</span>
          <span className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
            <span className="inline-flex items-center gap-1.5">
              <CalendarDays className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
              <time dateTime={meeting.start_date}>{formatDateRange(meeting.start_date, meeting.end_date)}</time>
            </span>
            {meeting.location ? (
              <span className="inline-flex items-center gap-1.5">
                <MapPin className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
                {meeting.location}
              </span>
            ) : null}
          </span>
          <span className="mt-2 block text-base font-semibold text-navy-900" data-testid="places">
            {placesLine(overall, meeting.capacity)}
          </span>
          <span className="block text-sm text-slate-600">
            {REGISTRATION_STATUSES.map((s) => `${overall[s]} ${REGISTRATION_STATE_LABELS[s].toLowerCase()}`).join(
              " · ",
            )}
          </span>
        </>
      }
      headerAction={
        <>
          <Link to={`${path}/check-in`} className="btn-primary">
            <ScanLine className="h-4 w-4" aria-hidden="true" />
            Check-in at the door
          </Link>
          <a href={`${files}/attendees.pdf`} className="btn-outline">
            <FileText className="h-4 w-4" aria-hidden="true" />
            Attendee list (PDF)
          </a>
          <a href={`${files}/badges.pdf`} className="btn-outline">
            <Badge className="h-4 w-4" aria-hidden="true" />
            Badges (PDF)
          </a>
          <a href={`${files}/export.csv`} className="btn-outline" download>
            <Download className="h-4 w-4" aria-hidden="true" />
            Export CSV
          </a>
        </>
      }
      notices={notices}
      search={{ id: "registrations", label: "Name, company or e-mail" }}
      filters={{
        label: "Filter the registrations",
        selects,
        grid: "md:grid-cols-[1fr_14rem_auto]",
      }}
      params={params}
      page={page}
      noun={["registration", "registrations"]}
      matching
      showAll
      empty={{ filtered: "No registration matches.", unfiltered: "No registrations yet." }}
      layout="rows"
      path={path}
      paging="load-more"
      beforeRows={
        page.data.length > 0 ? (
          <Form
            id={BULK_FORM}
            method="post"
            action={here()}
            preventScrollReset
            aria-label="The selected registrations"
            className="mt-3 flex flex-wrap items-end gap-2 rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200"
            onSubmit={(event) => {
              const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
              if (submitter?.value === "bulk-cancel" && !window.confirm("Cancel the selected registrations?")) {
                event.preventDefault();
              }
            }}
          >
            <p className="w-full text-sm font-semibold text-navy-900 sm:w-auto sm:self-center">With the selected:</p>
            <button type="submit" name="intent" value="bulk-confirm" className="btn-outline py-1.5 text-sm">
              Confirm
            </button>
            <div className="flex flex-wrap items-end gap-2">
              <div>
                <label htmlFor="bulk-reason" className="sr-only">
                  Reason for declining (optional)
                </label>
                <input
                  id="bulk-reason"
                  name="reason"
                  maxLength={REASON_MAX}
                  placeholder="Reason for declining (optional)"
                  className="field-input w-72 max-w-full py-1.5 text-sm"
                />
              </div>
              <button type="submit" name="intent" value="bulk-decline" className="btn-outline py-1.5 text-sm">
                Decline
              </button>
            </div>
            <button type="submit" name="intent" value="bulk-cancel" className="btn-outline py-1.5 text-sm text-red-700">
              Cancel registrations
            </button>
          </Form>
        ) : null
      }
      renderRow={(row) => {
        const name = nameOf(row);
        const status = row.status;
        const live = status === "pending" || status === "confirmed" || status === "waitlisted";
        return (
          <li id={`registration-${row.id}`} className="flex gap-3 px-4 py-4">
            <input
              type="checkbox"
              name="ids"
              value={row.id}
              form={BULK_FORM}
              aria-label={`Select ${name}`}
              className="mt-1 h-5 w-5 shrink-0 accent-sea-600"
            />
            <div className="min-w-0 flex-1">
              <div className="flex flex-col gap-3 lg:flex-row lg:items-start lg:justify-between">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold text-navy-900">{name}</span>
                    <RegistrationStateBadge status={status} />
                    {row.spam_reason ? (
                      <span className="rounded-full bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-800 ring-1 ring-red-200">
                        Probable spam
                      </span>
                    ) : null}
                  </p>
                  {row.company_name ? <p className="mt-0.5 text-sm text-slate-800">{row.company_name}</p> : null}
                  <p className="mt-0.5 text-sm break-words text-slate-700">
                    <a href={`mailto:${row.email}`}>{row.email}</a>
                    {row.phone_number ? (
                      <>
                        {" · "}
                        <a href={`tel:${row.phone_number.replace(/[^\d+]/g, "")}`}>{row.phone_number}</a>
                      </>
                    ) : null}
                  </p>
                  {row.note ? (
                    <p className="mt-1 max-w-2xl rounded-md bg-slate-50 px-2 py-1 text-sm whitespace-pre-line break-words text-slate-800">
                      <span className="font-semibold">Note: </span>
                      {row.note}
                    </p>
                  ) : null}
                  <p className="mt-1 text-xs text-slate-500">
                    Registered {meetingTime(row.created_at, meeting.timezone)}
                    {row.attended_at ? (
                      <span className="font-semibold text-emerald-800">
                        {" · "}Checked in {meetingTime(row.attended_at, meeting.timezone)}
                      </span>
                    ) : null}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-1">
                  {status === "pending" || status === "waitlisted" ? (
                    <RowActionForm fields={{ intent: "confirm", id: row.id }}>
                      Confirm<span className="sr-only"> {name}</span>
                    </RowActionForm>
                  ) : null}
                  {status === "waitlisted" ? (
                    <RowActionForm fields={{ intent: "move-up", id: row.id }}>
                      Move up<span className="sr-only"> {name}</span>
                    </RowActionForm>
                  ) : null}
                  {status === "pending" || status === "confirmed" ? (
                    <RowActionForm fields={{ intent: row.attended_at ? "undo-check-in" : "check-in", id: row.id }}>
                      {row.attended_at ? "Undo check-in" : "Check in"}
                      <span className="sr-only"> {name}</span>
                    </RowActionForm>
                  ) : null}
                  {live ? (
                    <>
                      <Link
                        to={here({ decline: String(row.id) }, `#registration-${row.id}`)}
                        preventScrollReset
                        className="btn-outline py-1.5 text-sm"
                      >
                        Decline…<span className="sr-only"> {name}</span>
                      </Link>
                      <Link
                        to={here({ cancel: String(row.id) }, `#registration-${row.id}`)}
                        preventScrollReset
                        className="btn-outline py-1.5 text-sm text-red-700"
                      >
                        Cancel…<span className="sr-only"> the registration of {name}</span>
                      </Link>
                    </>
                  ) : null}
                </div>
              </div>
              {live && declining === row.id ? (
                <Form
                  method="post"
                  action={here()}
                  preventScrollReset
                  aria-labelledby={`decline-${row.id}-title`}
                  className="mt-3 rounded-lg border border-slate-200 bg-slate-50 p-4"
                >
                  <p id={`decline-${row.id}-title`} className="font-semibold text-navy-900">
                    Decline the registration of {name}?
                  </p>
                  <input type="hidden" name="intent" value="decline" />
                  <input type="hidden" name="id" value={row.id} />
                  <label htmlFor={`decline-${row.id}-reason`} className="field-label mt-2">
                    Reason (optional, sent to {name})
                  </label>
                  <textarea
                    id={`decline-${row.id}-reason`}
                    name="reason"
                    maxLength={REASON_MAX}
                    rows={3}
                    className="field-input"
                  />
                  <div className="mt-3 flex justify-end gap-2">
                    <Link to={here({}, `#registration-${row.id}`)} preventScrollReset className="btn-outline py-1.5">
                      Back
                    </Link>
                    <button type="submit" className="btn-primary py-1.5">
                      Decline
                    </button>
                  </div>
                </Form>
              ) : null}
              {live && cancelling === row.id ? (
                <Form
                  method="post"
                  action={here()}
                  preventScrollReset
                  aria-labelledby={`cancel-${row.id}-title`}
                  className="mt-3 rounded-lg border border-red-200 bg-red-50/60 p-4"
                >
                  <p id={`cancel-${row.id}-title`} className="font-semibold text-navy-900">
                    Cancel the registration of {name}?
                  </p>
                  <p className="mt-1 text-sm text-slate-700">
                    {name} is told by e-mail
                    {status === "waitlisted" ? "." : "; the seat goes to the first on the waiting list."}
                  </p>
                  <input type="hidden" name="intent" value="cancel" />
                  <input type="hidden" name="id" value={row.id} />
                  <div className="mt-3 flex justify-end gap-2">
                    <Link to={here({}, `#registration-${row.id}`)} preventScrollReset className="btn-outline py-1.5">
                      Back
                    </Link>
                    <button type="submit" className="btn bg-red-700 py-1.5 text-white hover:bg-red-800">
                      Cancel the registration
                    </button>
                  </div>
                </Form>
              ) : null}
            </div>
          </li>
        );
      }}
    />
  );
}
