import { Download, ExternalLink, Inbox, Users } from "lucide-react";
import type { ReactNode } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { editsFor, type GroupsSeen } from "../../../core/access/access";
import {
  type Meeting,
  meetingInputSchema,
  scheduleInputSchema,
  sponsorInputSchema,
} from "../../../core/meetings/meetings.schema";
import { MEETING_TYPES, meetingTypeLabel, meetingUrl } from "../../../core/meetings/meetings.values";
import { isAppError } from "../../../lib/errors";
import { parseId } from "../../../lib/ids";
import { imageTextSchema } from "../../../lib/image-text";
import { timeZoneChoices } from "../../../lib/time-zones";
import { IMAGE_ACCEPT } from "../../../lib/uploads";
import { parseOrThrow } from "../../../lib/validation";
import { AuditHistory } from "../../components/admin/audit-rows";
import { RevisionsPanel } from "../../components/admin/revisions-panel";
import { formatDateRange } from "../../components/events/format";
import type { InlineResult } from "../../components/events/inline-form";
import { PicturesEditor } from "../../components/events/pictures-editor";
import { ProgrammeEditor } from "../../components/events/programme-editor";
import {
  RegistrationBadge,
  registrationCount,
  registrationsExportUrl,
  VisibilityBadge,
} from "../../components/events/registration-status";
import { FILE_INPUT, SponsorsEditor } from "../../components/events/sponsors-editor";
import { GroupCheckboxes } from "../../components/groups/group-checkboxes";
import { Breadcrumbs } from "../../components/ui/breadcrumbs";
import { ImageTextFields } from "../../components/ui/image-text-fields";
import { Notice } from "../../components/ui/notice";
import { RichTextEditor } from "../../components/ui/rich-text-editor";
import { SelectField } from "../../components/ui/select-field";
import { TextField } from "../../components/ui/text-field";
import { getRequestContext } from "../../context";
import { useAdminTrail } from "../../lib/admin-home";
import { shownAuditRows } from "../../lib/audit";
import { setFlash, takeFlash } from "../../lib/flash.server";
import { fieldFailureOf, formId, lengthLimit } from "../../lib/forms";
import { readFormWithFiles } from "../../lib/read-form.server";
import { shownRevisions } from "../../lib/revisions";
import type { Route } from "./+types/manage-event-edit";
import { meetingOf } from "./registrations.server";

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: `${loaderData?.meeting ? `Edit ${loaderData.meeting.title}` : "New meeting"} · Manager` },
];

const FORMATS = ["In person", "Online", "Hybrid"];

/** The fields of the meeting's form, as typed (kept on a refusal). */
const TEXT_FIELDS = [
  "title",
  "type",
  "meeting_type",
  "organization",
  "start_date",
  "end_date",
  "timezone",
  "location",
  "audience",
  "group_ids",
  // SPEC's field: what a post without `audience` (an older form or script) sends.
  "visibility",
  "registration_status",
  "registration_closes_on",
  "capacity",
  "auto_confirm",
  "waitlist",
  "content_title",
  "content",
  "information",
  "health",
  "registration",
] as const;
type MeetingValues = Record<(typeof TEXT_FIELDS)[number], string> & { images_alt?: string };

/** The meeting of the page (none for a new one), as the registrations screens read theirs: 404, or 403 with why for a chair. */
async function loadMeeting(context: Route.LoaderArgs["context"], id: string | undefined): Promise<Meeting | null> {
  return id === undefined ? null : meetingOf(context, id);
}

/**
 * The form's values: the meeting's, or a new meeting's: for the group it was asked for from the
 * group's page (`?group=`), or a chair's only group (issue 36).
 */
function valuesOf(
  meeting: Meeting | null,
  defaultTimeZone: string,
  edits: GroupsSeen,
  askedGroup: number | null,
): MeetingValues {
  const chairs = edits === "all" ? null : edits;
  const group = askedGroup ?? (chairs?.length === 1 ? chairs[0] : null);
  return {
    title: meeting?.title ?? "",
    type: meeting?.type ?? "meeting",
    meeting_type: meeting?.meeting_type ?? "",
    organization: meeting?.organization ?? "",
    start_date: meeting?.start_date ?? "",
    end_date: meeting?.end_date ?? "",
    timezone: meeting?.timezone ?? defaultTimeZone,
    location: meeting?.location ?? "",
    audience: meeting?.audience ?? (chairs || group !== null ? "groups" : "public"),
    group_ids: meeting?.group_ids.join(",") ?? (group !== null ? String(group) : ""),
    visibility: meeting?.visibility ?? "public",
    registration_status: meeting && !meeting.registration_settings.open ? "closed" : "open",
    registration_closes_on: meeting?.registration_settings.closes_on ?? "",
    capacity: meeting?.registration_settings.capacity ? String(meeting.registration_settings.capacity) : "",
    auto_confirm: meeting?.registration_settings.auto_confirm ? "1" : "0",
    waitlist: meeting && !meeting.registration_settings.waitlist ? "0" : "1",
    content_title: meeting?.content_title ?? "",
    content: meeting?.content ?? "",
    information: meeting?.information ?? "",
    health: meeting?.health ?? "",
    registration: meeting?.registration ?? "",
  };
}

export async function loader({ context, params, request, url }: Route.LoaderArgs) {
  const { services, sessionToken, secureCookies, auth } = getRequestContext(context);
  const meeting = await loadMeeting(context, params.id);
  // The working groups a meeting may be for (issue 36): every group for admins and editors; a
  // chair's own, and any other already on the meeting (which a save keeps).
  const edits = editsFor(auth);
  const groups = await services.groups.choices(edits, meeting?.group_ids ?? []);
  const asked = parseId(url.searchParams.get("group") ?? "");
  const askedGroup = groups.some((g) => g.id === asked) ? asked : null;
  const defaultTimeZone = (await services.settings.getAll())["site.timezone"];
  let registrations = null;
  if (meeting) {
    const count = (await services.registrations.seatsTaken([meeting.id])).get(meeting.id) ?? 0;
    registrations = { count, state: services.meetings.registrationState(meeting, count) };
  }
  const flash = takeFlash(request, { token: sessionToken, secure: secureCookies });
  return data(
    {
      meeting,
      registrations,
      groups,
      chair: edits !== "all",
      inbox: auth?.user.role.name === "admin",
      values: valuesOf(meeting, defaultTimeZone, edits, askedGroup),
      // Built here, not in the browser: the server's and the browser's zone lists may differ.
      timeZones: timeZoneChoices(defaultTimeZone, meeting?.timezone ?? defaultTimeZone),
      editing: url.searchParams.get("edit"),
      notice: flash.message,
      // The meeting's texts as each save kept them (decision 0073), restorable from here.
      revisions: meeting
        ? shownRevisions(await services.meetingsAdmin.revisions(meeting.id, edits), defaultTimeZone)
        : [],
      history: meeting ? shownAuditRows(await services.audit.history("meeting", meeting.id), defaultTimeZone) : [],
    },
    { headers: flash.headers },
  );
}

const text = (value: FormDataEntryValue | undefined) => (typeof value === "string" ? value : "");
const fileBytes = async (value: FormDataEntryValue | undefined) =>
  value instanceof File && value.size > 0 ? new Uint8Array(await value.arrayBuffer()) : undefined;

const SESSION_FIELDS = ["meeting_date", "is_evening", "start", "finish", "meeting_date_info", "description"];

/**
 * The meeting's form (`save`), and the small forms of the screen, each with its `intent`:
 * pictures, sessions and sponsors. A small form's answer names its row, so that its errors
 * show beside its own fields, with JavaScript (a fetcher) or without (the page's action data).
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const { services, sessionToken, secureCookies, auth } = getRequestContext(context);
  const admin = services.meetingsAdmin;
  const meeting = await loadMeeting(context, params.id);
  // Whose meetings the caller changes: every one, or a chair's groups' (issue 36).
  const edits = editsFor(auth);
  const { form, files, lists } = await readFormWithFiles(request, "images", [
    "images_alt",
    "images_decorative",
    "group_ids",
  ]);
  // Every ticked working group (a repeated field), as one list.
  form.group_ids = lists.group_ids.join(",");
  const intent = text(form.intent) || "save";

  if (intent === "save") {
    try {
      const input = parseOrThrow(meetingInputSchema, {
        ...Object.fromEntries(TEXT_FIELDS.map((f) => [f, form[f]])),
        images_alt: lists.images_alt,
        images_decorative: lists.images_decorative,
      });
      const images = await Promise.all(files.map(async (file) => new Uint8Array(await file.arrayBuffer())));
      const saved = meeting
        ? await admin.update(meeting.id, input, images, edits)
        : await admin.create(input, images, edits);
      const message = meeting
        ? `Saved “${saved.title}”.`
        : `Saved “${saved.title}”. Add its programme and sponsors below.`;
      const headers = sessionToken
        ? { "Set-Cookie": setFlash(message, { token: sessionToken, secure: secureCookies }) }
        : undefined;
      return redirect(meeting ? "/manage-events" : `/manage-events/${saved.id}/edit`, { headers });
    } catch (error) {
      const { errors, status } = fieldFailureOf(error);
      const values = {
        ...Object.fromEntries(TEXT_FIELDS.map((f) => [f, text(form[f])])),
        images_alt: lists.images_alt[0] ?? "",
      } as MeetingValues;
      return data({ intent, row: "meeting", errors, values } as InlineResult, { status });
    }
  }

  if (!meeting) throw data("Unknown action.", { status: 400 });
  if (intent === "restore") {
    const revision = parseId(form.revision);
    if (revision === null) throw data("Unknown revision.", { status: 400 });
    try {
      await admin.restoreRevision(meeting.id, revision, edits);
    } catch (error) {
      if (!isAppError(error)) throw error;
      return data({ intent, row: "revisions", error: error.message } satisfies InlineResult, { status: error.status });
    }
    const message = "Restored the meeting's texts as a new revision; its dates and settings did not change.";
    const headers = sessionToken
      ? { "Set-Cookie": setFlash(message, { token: sessionToken, secure: secureCookies }) }
      : undefined;
    return redirect(`/manage-events/${meeting.id}/edit`, { headers });
  }
  let row = "meeting";
  try {
    switch (intent) {
      case "describe-image": {
        row = `image-${formId(form)}`;
        const text = parseOrThrow(imageTextSchema, { alt: form.alt, decorative: form.decorative });
        await admin.describeImage(meeting.id, formId(form), text, edits);
        return { intent, row, done: true, message: "Alt text saved." } satisfies InlineResult;
      }
      case "delete-image":
        await admin.removeImage(meeting.id, formId(form), edits);
        return { intent, row: "images", done: true, message: "Picture deleted." } satisfies InlineResult;
      case "add-session":
      case "update-session": {
        row = intent === "add-session" ? "new-session" : `session-${formId(form)}`;
        const input = parseOrThrow(scheduleInputSchema, Object.fromEntries(SESSION_FIELDS.map((f) => [f, form[f]])));
        if (intent === "add-session") await admin.addSchedule(meeting.id, input, edits);
        else await admin.updateSchedule(meeting.id, formId(form), input, edits);
        return {
          intent,
          row,
          done: true,
          message: intent === "add-session" ? "Session added." : "Session saved.",
        } satisfies InlineResult;
      }
      case "delete-session":
        await admin.removeSchedule(meeting.id, formId(form), edits);
        return { intent, row: "sessions", done: true, message: "Session deleted." } satisfies InlineResult;
      case "add-sponsor":
      case "update-sponsor": {
        row = intent === "add-sponsor" ? "new-sponsor" : `sponsor-${formId(form)}`;
        const input = parseOrThrow(sponsorInputSchema, { name: form.name, link: form.link });
        const logo = await fileBytes(form.image);
        if (intent === "add-sponsor") await admin.addSponsor(meeting.id, input, logo, edits);
        else await admin.updateSponsor(meeting.id, formId(form), input, logo, edits);
        return {
          intent,
          row,
          done: true,
          message: intent === "add-sponsor" ? "Sponsor added." : "Sponsor saved.",
        } satisfies InlineResult;
      }
      case "delete-sponsor":
        await admin.removeSponsor(meeting.id, formId(form), edits);
        return { intent, row: "sponsors", done: true, message: "Sponsor deleted." } satisfies InlineResult;
      default:
        throw data("Unknown action.", { status: 400 });
    }
  } catch (error) {
    if (!isAppError(error)) throw error;
    const values = Object.fromEntries(
      Object.entries(form).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])),
    ) as Record<string, string>;
    // A row gone meanwhile (another admin deleted it) is said in place, not as an error page.
    if (!error.details.errors)
      return data({ intent, row, error: error.message } satisfies InlineResult, { status: error.status });
    return data({ intent, row, errors: error.details.errors, values } satisfies InlineResult, {
      status: error.status,
    });
  }
}

function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby={`${id}-legend`}
      className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id={`${id}-legend`} tabIndex={-1} className="font-display text-2xl font-bold text-navy-900">
        {title}
      </h2>
      <div className="mt-5 space-y-5">{children}</div>
    </section>
  );
}

function RegistrationsPanel({
  meeting,
  registrations,
  inbox,
}: {
  meeting: Meeting;
  registrations: NonNullable<Route.ComponentProps["loaderData"]["registrations"]>;
  /** Whether the join inbox is the viewer's (admins). */
  inbox: boolean;
}) {
  const capacity = meeting.registration_settings.capacity;
  const filled = capacity ? Math.min(100, Math.round((registrations.count / capacity) * 100)) : null;
  return (
    <section
      aria-labelledby="registrations-title"
      className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
    >
      <h2 id="registrations-title" className="text-lg font-semibold text-navy-900">
        Registrations
      </h2>
      <p className="mt-2 flex flex-wrap items-center gap-2">
        <span className="text-2xl font-bold text-navy-900 tabular-nums">
          {registrationCount(registrations.count, capacity)}
        </span>
      </p>
      {filled !== null ? (
        <div
          className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100"
          role="img"
          aria-label={`${filled}% of the places taken`}
        >
          <div className="h-full rounded-full bg-sea-600" style={{ width: `${filled}%` }} />
        </div>
      ) : null}
      <p className="mt-3">
        <RegistrationBadge state={registrations.state} />
      </p>
      {registrations.state.open ? null : <p className="mt-2 text-sm text-slate-600">{registrations.state.message}</p>}
      <div className="mt-4 flex flex-col gap-2">
        <Link to={`/manage-events/${meeting.id}/registrations`} className="btn-primary justify-start py-2">
          <Users className="h-4 w-4" aria-hidden="true" />
          Manage registrations
        </Link>
        {/* The join inbox is the admins' (issue 36): editors and chairs work from the registrations screen. */}
        {inbox ? (
          <Link
            to={`/manager/requests?kind=registration&meeting=${meeting.id}`}
            className="btn-outline justify-start py-2"
          >
            <Inbox className="h-4 w-4" aria-hidden="true" />
            Open in the inbox
          </Link>
        ) : null}
        <a href={registrationsExportUrl(meeting.id)} download className="btn-outline justify-start py-2">
          <Download className="h-4 w-4" aria-hidden="true" />
          Export CSV
        </a>
      </div>
    </section>
  );
}

/** Create or edit a meeting (issue 13): its fields and pictures, then its programme and sponsors inline. */
export default function EditMeeting({ loaderData, actionData }: Route.ComponentProps) {
  const { meeting, registrations, groups, chair, editing, notice, timeZones } = loaderData;
  const adminTrail = useAdminTrail();
  const result = actionData as (InlineResult & { values?: MeetingValues }) | undefined;
  const refused = result?.intent === "save" ? result : undefined;
  const errors: Record<string, string[]> = refused?.errors ?? {};
  const values: MeetingValues = (refused?.values as MeetingValues | undefined) ?? loaderData.values;
  const chosenGroups = new Set((values.group_ids ?? "").split(",").filter(Boolean).map(Number));
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === null;
  const formAction = meeting ? `/manage-events/${meeting.id}/edit` : "/manage-events/new";
  const err = (field: string) => errors[field]?.[0];
  // A refusal for a row no longer on the page (deleted meanwhile), after a post without JavaScript.
  const rows = new Set(["new-session", "new-sponsor", ...(meeting?.schedules ?? []).map((x) => `session-${x.id}`)]);
  for (const sponsor of meeting?.sponsors ?? []) rows.add(`sponsor-${sponsor.id}`);
  const orphan = result && result.intent !== "save" && result.error && !rows.has(result.row) ? result.error : null;
  const view = meeting ? meetingUrl(meeting.slug, meeting.visibility === "members" ? "members" : "public") : null;

  return (
    <div>
      <Breadcrumbs
        trail={[...adminTrail, { label: "Events", to: "/manage-events" }]}
        current={meeting ? "Edit" : "New meeting"}
      />
      <div className="mt-2 flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0">
          <h1 className="font-display text-3xl font-bold text-navy-900 sm:text-4xl">
            {meeting ? meeting.title : "New meeting"}
          </h1>
          {meeting ? (
            <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
              <span>{meetingTypeLabel(meeting.type)}</span>
              <span aria-hidden="true">·</span>
              <span>{formatDateRange(meeting.start_date, meeting.end_date)}</span>
              <span aria-hidden="true">·</span>
              <span>{meeting.timezone}</span>
              <VisibilityBadge visibility={meeting.visibility} />
            </p>
          ) : null}
        </div>
        {view ? (
          <a href={view} className="btn-outline">
            <ExternalLink className="h-4 w-4" aria-hidden="true" />
            View page
          </a>
        ) : null}
      </div>
      {notice ? (
        <Notice tone="success" className="mt-4">
          {notice}
        </Notice>
      ) : null}
      {orphan ? (
        <Notice tone="error" className="mt-4">
          {orphan}
        </Notice>
      ) : null}
      {refused ? (
        <Notice tone="error" className="mt-4">
          {refused.error ?? "You have validation errors! Please fix them all"}
        </Notice>
      ) : null}

      <div className="mt-6 grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_17rem]">
        <div className="min-w-0 space-y-6">
          {/* Keyed by the kept revision: after a restore the fields show the restored texts. */}
          <Form
            key={loaderData.revisions[0]?.id}
            method="post"
            action={formAction}
            encType="multipart/form-data"
            className="space-y-6"
          >
            <Card id="details" title="Details">
              <TextField
                id="title"
                name="title"
                label="Title"
                required
                defaultValue={values.title}
                error={err("title")}
                {...lengthLimit(meetingInputSchema.shape.title)}
              />
              {meeting ? (
                <p className="-mt-3 text-sm text-slate-600">
                  Address: <span className="font-medium text-navy-900">{view}</span> (stays when the title changes)
                </p>
              ) : null}
              <div className="grid gap-5 sm:grid-cols-2">
                <SelectField
                  id="type"
                  name="type"
                  label="Type"
                  defaultValue={values.type}
                  error={err("type")}
                  options={MEETING_TYPES.map((t) => [t, meetingTypeLabel(t)] as const)}
                />
                <TextField
                  id="meeting_type"
                  name="meeting_type"
                  label="Format"
                  list="meeting-formats"
                  hint="In person, Online or Hybrid."
                  defaultValue={values.meeting_type}
                  error={err("meeting_type")}
                  {...lengthLimit(meetingInputSchema.shape.meeting_type)}
                />
                <datalist id="meeting-formats">
                  {FORMATS.map((f) => (
                    <option key={f} value={f} />
                  ))}
                </datalist>
              </div>
              <TextField
                id="organization"
                name="organization"
                label="Organization"
                hint="Who organises or hosts it."
                defaultValue={values.organization}
                error={err("organization")}
                {...lengthLimit(meetingInputSchema.shape.organization)}
              />
              <div className="grid gap-5 sm:grid-cols-3">
                <TextField
                  id="start_date"
                  name="start_date"
                  type="date"
                  label="Start date"
                  required
                  defaultValue={values.start_date}
                  error={err("start_date")}
                />
                <TextField
                  id="end_date"
                  name="end_date"
                  type="date"
                  label="End date"
                  defaultValue={values.end_date}
                  error={err("end_date")}
                />
                <TextField
                  id="timezone"
                  name="timezone"
                  label="Time zone"
                  list="time-zones"
                  autoComplete="off"
                  spellCheck={false}
                  hint="Type a city to search, e.g. Paris."
                  defaultValue={values.timezone}
                  error={err("timezone")}
                  maxLength={64}
                />
                <datalist id="time-zones">
                  {timeZones.map((zone, i) => (
                    <option key={zone} value={zone}>
                      {i === 0 ? "The site's time zone" : undefined}
                    </option>
                  ))}
                </datalist>
              </div>
              <TextField
                id="location"
                name="location"
                label="Location"
                hint="Venue and city, or “Online”."
                defaultValue={values.location}
                error={err("location")}
                {...lengthLimit(meetingInputSchema.shape.location)}
              />
              <fieldset>
                <legend className="field-label">Who may see it</legend>
                <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-6">
                  {(
                    [
                      // A chair's meetings are for their groups (issue 36): the one choice they have.
                      ...(chair
                        ? []
                        : ([
                            ["public", "Public", "Everyone sees it in the calendar."],
                            ["members", "Members only", "Shown to signed-in members only."],
                          ] as const)),
                      ...(groups.length > 0 || values.audience === "groups"
                        ? ([
                            ["groups", "Working groups only", "Shown to the members of the groups ticked below."],
                          ] as const)
                        : []),
                    ] as const
                  ).map(([value, label, hint]) => (
                    <div key={value} className="flex items-start gap-2 text-sm">
                      <input
                        id={`audience-${value}`}
                        type="radio"
                        name="audience"
                        value={value}
                        defaultChecked={values.audience === value}
                        aria-describedby={`audience-${value}-hint`}
                        className="mt-0.5 h-4 w-4"
                      />
                      <div>
                        <label htmlFor={`audience-${value}`} className="font-semibold text-slate-800">
                          {label}
                        </label>
                        <p id={`audience-${value}-hint`} className="text-slate-600">
                          {hint}
                        </p>
                      </div>
                    </div>
                  ))}
                </div>
                {(err("audience") ?? err("visibility")) ? (
                  <p className="mt-1.5 text-sm text-red-700">{err("audience") ?? err("visibility")}</p>
                ) : null}
              </fieldset>
              {groups.length > 0 ? (
                <GroupCheckboxes
                  id="group_ids"
                  groups={groups}
                  chosen={chosenGroups}
                  hint="With “Working groups only”: their members see the meeting and may register; admins and editors see every meeting."
                  error={err("group_ids")}
                />
              ) : null}
            </Card>

            <Card id="registration" title="Registration">
              <div className="grid gap-5 sm:grid-cols-3">
                <SelectField
                  id="registration_status"
                  name="registration_status"
                  label="Registration"
                  defaultValue={values.registration_status}
                  error={err("registration_status")}
                  options={[
                    ["open", "Open"],
                    ["closed", "Closed"],
                  ]}
                />
                <TextField
                  id="registration_closes_on"
                  name="registration_closes_on"
                  type="date"
                  label="Closing date"
                  hint="Last day to register (optional)."
                  defaultValue={values.registration_closes_on}
                  error={err("registration_closes_on")}
                />
                <TextField
                  id="capacity"
                  name="capacity"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  step={1}
                  label="Capacity"
                  hint="Places (optional)."
                  defaultValue={values.capacity}
                  error={err("capacity")}
                />
                <SelectField
                  id="auto_confirm"
                  name="auto_confirm"
                  label="Confirmation"
                  defaultValue={values.auto_confirm}
                  error={err("auto_confirm")}
                  options={[
                    ["0", "By the secretariat"],
                    ["1", "Automatic while places remain"],
                  ]}
                />
                <SelectField
                  id="waitlist"
                  name="waitlist"
                  label="When full"
                  defaultValue={values.waitlist}
                  error={err("waitlist")}
                  options={[
                    ["1", "Waiting list"],
                    ["0", "Refuse registrations"],
                  ]}
                />
              </div>
              <RichTextEditor
                name="registration"
                label="Registration text"
                initialHtml={values.registration}
                error={err("registration")}
                compact
              />
            </Card>

            <Card id="texts" title="Texts">
              <TextField
                id="content_title"
                name="content_title"
                label="Subtitle"
                hint="One line under the title, e.g. the theme."
                defaultValue={values.content_title}
                error={err("content_title")}
                {...lengthLimit(meetingInputSchema.shape.content_title)}
              />
              <RichTextEditor name="content" label="About" initialHtml={values.content} error={err("content")} />
              <RichTextEditor
                name="information"
                label="Venue and travel"
                initialHtml={values.information}
                error={err("information")}
                compact
              />
              <RichTextEditor
                name="health"
                label="Health and accessibility"
                initialHtml={values.health}
                error={err("health")}
                compact
              />
            </Card>

            <Card id="pictures" title="Pictures">
              {meeting && meeting.images.length > 0 ? (
                <p className="text-sm text-slate-600">
                  {meeting.images.length} picture{meeting.images.length === 1 ? "" : "s"}, below the form; a new one is
                  added after them.
                </p>
              ) : (
                <p className="text-sm text-slate-600">No pictures yet. The first one is the meeting's main picture.</p>
              )}
              <TextField
                id="images"
                name="images[]"
                type="file"
                accept={IMAGE_ACCEPT}
                label="Add a picture"
                hint="JPEG, PNG or WebP. One at a time: save, then add the next."
                error={err("images")}
                className={FILE_INPUT}
              />
              <ImageTextFields
                id="new-image"
                altName="images_alt[]"
                decorativeName="images_decorative[]"
                defaultAlt={refused?.values?.images_alt ?? ""}
                defaultDecorative={false}
                error={err("images_alt")}
              />
            </Card>

            <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap justify-end gap-3 border-t border-slate-200 bg-slate-50/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border sm:px-6">
              <Link to="/manage-events" className="btn-outline">
                Cancel
              </Link>
              <button type="submit" className="btn-primary" disabled={saving}>
                {saving ? "Saving…" : meeting ? "Save meeting" : "Create meeting"}
              </button>
            </div>
          </Form>

          {meeting && meeting.images.length > 0 ? <PicturesEditor meeting={meeting} action={formAction} /> : null}
          {meeting ? (
            <>
              <ProgrammeEditor
                schedules={meeting.schedules}
                dates={{ first: meeting.start_date, last: meeting.end_date ?? meeting.start_date }}
                action={formAction}
                editing={editing}
              />
              <SponsorsEditor sponsors={meeting.sponsors} action={formAction} editing={editing} />
              <RevisionsPanel revisions={loaderData.revisions} noun="meeting" />
              <AuditHistory rows={loaderData.history} />
            </>
          ) : (
            <p className="rounded-xl border border-dashed border-slate-300 px-4 py-6 text-center text-slate-600">
              Once the meeting is created, its programme and sponsors are added here.
            </p>
          )}
        </div>

        <aside className="space-y-4 lg:sticky lg:top-6 lg:self-start max-lg:-order-1">
          {meeting && registrations ? (
            <RegistrationsPanel meeting={meeting} registrations={registrations} inbox={loaderData.inbox} />
          ) : null}
          <nav
            aria-label="On this page"
            className="rounded-xl bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200 max-lg:hidden"
          >
            <p className="font-semibold text-navy-900">On this page</p>
            <ul className="mt-2 space-y-1.5">
              {[
                ["#details-legend", "Details"],
                ["#registration-legend", "Registration"],
                ["#texts-legend", "Texts"],
                ["#pictures-legend", "Pictures"],
                ...(meeting
                  ? [
                      ["#programme-title", "Programme"],
                      ["#sponsors-title", "Sponsors"],
                    ]
                  : []),
              ].map(([href, label]) => (
                <li key={href}>
                  <a href={href} className="text-sea-700 hover:underline">
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </aside>
      </div>
    </div>
  );
}
