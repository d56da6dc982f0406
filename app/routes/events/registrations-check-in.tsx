import { Check, Search } from "lucide-react";
import { data, Form, Link } from "react-router";
import { parseId } from "../../../lib/ids";
import { meetingTime, REGISTRATION_STATE_LABELS, registrationsPath } from "../../components/events/registrations";
import { Breadcrumbs } from "../../components/ui/breadcrumbs";
import { Notice } from "../../components/ui/notice";
import { getRequestContext } from "../../context";
import { actionRefusal } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/registrations-check-in";
import { actorOf, meetingOf, refusalText } from "./registrations.server";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `Check-in${loaderData ? `: ${loaderData.meeting.title}` : ""} · Manager` },
];

/** The most names the door's list shows at once; past it, the search narrows them. */
const AT_THE_DOOR = 300;

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const meeting = await meetingOf(context, params.id);
  const search = (url.searchParams.get("search") ?? "").trim().slice(0, 100);
  const rows = await services.registrations.atTheDoor(meeting.id, search, AT_THE_DOOR + 1);
  return {
    meeting: { id: meeting.id, title: meeting.title, timezone: meeting.timezone },
    search,
    more: rows.length > AT_THE_DOOR,
    attendees: rows.slice(0, AT_THE_DOOR).map((r) => ({
      id: r.id,
      name: r.representative_name || r.email,
      company: r.company_name,
      status: r.status as "pending" | "confirmed",
      attended_at: r.attended_at,
    })),
  };
}

/** Tap a name: checked in, with the time; tap it again: undone. One form per name, no JavaScript needed. */
export async function action({ context, params, request }: Route.ActionArgs) {
  const by = actorOf(context);
  const meeting = await meetingOf(context, params.id);
  const form = await readForm(request);
  const id = parseId(form.id);
  if (id === null || (form.intent !== "check-in" && form.intent !== "undo-check-in"))
    throw data("Unknown action.", { status: 400 });
  const { services } = getRequestContext(context);
  try {
    const row = await services.registrations.setAttended(meeting.id, id, form.intent === "check-in", by);
    const name = row.representative_name || row.email;
    return {
      notice: row.attended_at
        ? `${name} checked in at ${meetingTime(row.attended_at, meeting.timezone)}.`
        : `Check-in of ${name} undone.`,
    };
  } catch (error) {
    if ((error as { status?: number }).status === 404) return actionRefusal(error);
    return data({ error: refusalText(error) }, { status: 422 });
  }
}

/** Check-in at the door on a phone (issue 32, decision 0055): big names to tap, a search, the time each arrived. */
export default function CheckIn({ loaderData, actionData }: Route.ComponentProps) {
  const { meeting, search, attendees, more } = loaderData;
  const path = registrationsPath(meeting.id);
  const here = `${path}/check-in${search ? `?${new URLSearchParams({ search })}` : ""}`;
  const arrived = attendees.filter((a) => a.attended_at).length;
  return (
    <div className="mx-auto max-w-2xl">
      <Breadcrumbs
        trail={[
          { label: "Events", to: "/manage-events" },
          { label: "Registrations", to: path },
        ]}
        current="Check-in"
      />
      <h1 className="mt-2 font-display text-3xl font-bold text-navy-900">Check-in</h1>
      <p className="mt-1 font-semibold text-slate-800">{meeting.title}</p>
      <p className="mt-1 text-sm text-slate-600" aria-live="polite">
        {search
          ? `${attendees.length}${more ? "+" : ""} matching “${search}” · ${arrived} checked in`
          : `${arrived} of ${attendees.length}${more ? "+" : ""} checked in`}
      </p>
      <Form method="get" role="search" aria-label="Find an attendee" className="mt-4 flex gap-2">
        <label htmlFor="check-in-search" className="sr-only">
          Name, company or e-mail
        </label>
        <input
          id="check-in-search"
          type="search"
          name="search"
          defaultValue={search}
          placeholder="Name, company or e-mail"
          autoComplete="off"
          className="field-input min-h-12 flex-1 text-lg"
        />
        <button type="submit" className="btn-primary min-h-12 px-5">
          <Search className="h-5 w-5" aria-hidden="true" />
          Find
        </button>
      </Form>
      {actionData && "notice" in actionData ? (
        <Notice tone="success" className="mt-4 text-base">
          {actionData.notice}
        </Notice>
      ) : null}
      {actionData && "error" in actionData ? (
        <Notice tone="error" className="mt-4 text-base">
          {actionData.error}
        </Notice>
      ) : null}
      {search ? (
        <p className="mt-3 text-sm">
          <Link to={`${path}/check-in`} className="text-sea-600 underline hover:no-underline">
            Show everyone
          </Link>
        </p>
      ) : null}
      {attendees.length === 0 ? (
        <p className="mt-4 rounded-xl bg-white p-6 text-slate-700 ring-1 ring-slate-200">
          {search
            ? `Nobody pending or confirmed matches “${search}”.`
            : "Nobody is registered (pending or confirmed) yet."}
        </p>
      ) : (
        <ul className="mt-4 space-y-2" aria-label="Attendees">
          {attendees.map((a) => {
            const checked = a.attended_at !== null;
            return (
              <li key={a.id}>
                <Form method="post" action={here} preventScrollReset>
                  <input type="hidden" name="id" value={a.id} />
                  <input type="hidden" name="intent" value={checked ? "undo-check-in" : "check-in"} />
                  <button
                    type="submit"
                    aria-pressed={checked}
                    className={`flex min-h-16 w-full items-center gap-4 rounded-xl px-4 py-3 text-left shadow-sm ring-1 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-sea-600 ${checked ? "bg-emerald-50 ring-emerald-600/40" : "bg-white ring-slate-200 hover:bg-slate-50"}`}
                  >
                    <span
                      className={`flex h-9 w-9 shrink-0 items-center justify-center rounded-full border-2 ${checked ? "border-emerald-700 bg-emerald-700 text-white" : "border-slate-400 bg-white"}`}
                      aria-hidden="true"
                    >
                      {checked ? <Check className="h-5 w-5" /> : null}
                    </span>
                    <span className="min-w-0 flex-1">
                      <span className="block text-lg font-semibold break-words text-navy-900">{a.name}</span>
                      {a.company ? <span className="block text-sm break-words text-slate-700">{a.company}</span> : null}
                      <span className="block text-sm text-slate-600">
                        {checked && a.attended_at
                          ? `Checked in ${meetingTime(a.attended_at, meeting.timezone)} · tap to undo`
                          : `${REGISTRATION_STATE_LABELS[a.status]} · not checked in`}
                      </span>
                    </span>
                  </button>
                </Form>
              </li>
            );
          })}
        </ul>
      )}
      {more ? (
        <p className="mt-4 text-sm text-slate-600">
          The first {attendees.length} are shown: search to find the others.
        </p>
      ) : null}
    </div>
  );
}
