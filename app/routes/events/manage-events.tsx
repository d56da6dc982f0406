import { CalendarDays, Download, ExternalLink, FilePenLine, Globe2, MapPin, Users } from "lucide-react";
import { data, Link } from "react-router";
import { editsFor } from "../../../core/access/access";
import { meetingsAdminQuerySchema } from "../../../core/meetings/meetings.schema";
import { meetingTypeLabel, meetingUrl } from "../../../core/meetings/meetings.values";
import { isAppError } from "../../../lib/errors";
import { parseOrThrow } from "../../../lib/validation";
import { AdminList, filterParams } from "../../components/admin/admin-list";
import { formatDateRange } from "../../components/events/format";
import {
  RegistrationBadge,
  registrationCount,
  registrationsExportUrl,
  VisibilityBadge,
} from "../../components/events/registration-status";
import { ConfirmDelete } from "../../components/ui/confirm-delete";
import { getRequestContext } from "../../context";
import { useAdminTrail } from "../../lib/admin-home";
import { takeFlash } from "../../lib/flash.server";
import { actionRefusal, formId } from "../../lib/forms";
import { readForm } from "../../lib/read-form.server";
import type { Route } from "./+types/manage-events";

export const meta: Route.MetaFunction = () => [{ title: "Events · Manager" }];

export async function loader({ context, request, url }: Route.LoaderArgs) {
  const { services, sessionToken, secureCookies, auth } = getRequestContext(context);
  // A working group's chair: their groups' meetings (issue 36).
  const edits = editsFor(auth);
  try {
    const page = await services.meetingsAdmin.adminList(
      parseOrThrow(meetingsAdminQuerySchema, {
        search: url.searchParams.get("search"),
        page: url.searchParams.get("page") ?? undefined,
      }),
      edits,
    );
    const counts = await services.registrations.seatsTaken(page.data.map((m) => m.id));
    const rows = page.data.map((meeting) => {
      const registrations = counts.get(meeting.id) ?? 0;
      return { ...meeting, registrations, state: services.meetings.registrationState(meeting, registrations) };
    });
    const flash = takeFlash(request, { token: sessionToken, secure: secureCookies });
    return data(
      {
        page: { ...page, data: rows },
        search: url.searchParams.get("search") ?? "",
        notice: flash.message,
        chair: edits !== "all",
      },
      { headers: flash.headers },
    );
  } catch (error) {
    if (isAppError(error) && error.code === "validation")
      throw data("That page of the list does not exist.", { status: 400 });
    throw error;
  }
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await readForm(request);
  if (form.intent !== "delete") throw data("Unknown action.", { status: 400 });
  try {
    const { services, auth } = getRequestContext(context);
    await services.meetingsAdmin.remove(formId(form), editsFor(auth));
    return { deleted: true };
  } catch (error) {
    return actionRefusal(error);
  }
}

/** SPEC §2 'Admin lists for meetings … with search' (issue 13 'Admin: /manage-events'). */
export default function ManageEvents({ loaderData }: Route.ComponentProps) {
  const { page, search, notice, chair } = loaderData;
  const adminTrail = useAdminTrail();
  return (
    <AdminList
      title="Events"
      trail={adminTrail}
      newLink={{ to: "/manage-events/new", label: "New meeting" }}
      notice={notice}
      search={{ id: "manage-events", label: "Search meetings" }}
      params={filterParams({ search })}
      page={page}
      noun={["meeting", "meetings"]}
      matching
      description={
        chair
          ? "The meetings of the groups you chair, with their programme, sponsors and registrations. Other meetings are the secretariat's: ask an editor."
          : undefined
      }
      empty={{
        filtered: `No meeting matches “${search}”.`,
        unfiltered: chair
          ? "Your groups have no meetings yet: a new one is for your group's members."
          : "No meetings yet.",
      }}
      layout="rows"
      path="/manage-events"
      paging="load-more"
      renderRow={(meeting) => {
        const view = meetingUrl(meeting.slug, meeting.visibility === "members" ? "members" : "public");
        return (
          <li className="flex flex-col gap-3 px-4 py-4 md:flex-row md:items-center md:gap-6">
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-center gap-2">
                <span className="text-xs font-semibold tracking-wide text-sea-700 uppercase">
                  {meetingTypeLabel(meeting.type)}
                </span>
                <VisibilityBadge visibility={meeting.visibility} />
              </div>
              <p className="mt-1 font-semibold text-navy-900">{meeting.title}</p>
              <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
                <span className="inline-flex items-center gap-1.5">
                  <CalendarDays className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
                  <time dateTime={meeting.start_date}>{formatDateRange(meeting.start_date, meeting.end_date)}</time>
                </span>
                <span className="inline-flex items-center gap-1.5">
                  <Globe2 className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
                  {meeting.timezone}
                </span>
                {meeting.location ? (
                  <span className="inline-flex min-w-0 items-center gap-1.5">
                    <MapPin className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
                    <span className="truncate">{meeting.location}</span>
                  </span>
                ) : null}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-2 text-sm md:w-52 md:flex-col md:items-start md:gap-1">
              <span className="font-medium text-slate-800">
                {registrationCount(meeting.registrations, meeting.registration_settings.capacity)}
              </span>
              <RegistrationBadge state={meeting.state} />
            </div>
            <div className="flex flex-wrap items-center gap-1">
              <Link to={`/manage-events/${meeting.id}/edit`} className="btn-outline py-1.5">
                <FilePenLine className="h-4 w-4" aria-hidden="true" />
                Edit<span className="sr-only"> {meeting.title}</span>
              </Link>
              <Link to={`/manage-events/${meeting.id}/registrations`} className="btn-outline py-1.5">
                <Users className="h-4 w-4" aria-hidden="true" />
                Registrations<span className="sr-only"> for {meeting.title}</span>
              </Link>
              <a href={view} className="btn-ghost px-2.5 py-1.5">
                <ExternalLink className="h-4 w-4" aria-hidden="true" />
                View<span className="sr-only"> {meeting.title}</span>
              </a>
              <a href={registrationsExportUrl(meeting.id)} className="btn-ghost px-2.5 py-1.5" download>
                <Download className="h-4 w-4" aria-hidden="true" />
                CSV<span className="sr-only"> of the registrations for {meeting.title}</span>
              </a>
              <ConfirmDelete
                label={`Delete ${meeting.title}`}
                title="Delete this meeting?"
                description={`“${meeting.title}” will be removed with its programme, sponsors and pictures. Its registrations stay in the inbox. This cannot be undone.`}
                fields={{ intent: "delete", id: meeting.id }}
              />
            </div>
          </li>
        );
      }}
    />
  );
}
