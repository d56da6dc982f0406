import { z } from "@hono/zod-openapi";
import type { RegistrationRow } from "../../core/join/registrations.repository";
import {
  registrationChangeSchema,
  registrationListQuerySchema,
  registrationPageSchema,
  registrationSchema,
} from "../../core/join/registrations.schema";
import { REGISTRATION_NOT_FOUND } from "../../core/join/registrations.service";
import {
  type Meeting,
  meetingImageSchema,
  meetingInputSchema,
  meetingSchema,
  meetingSummarySchema,
  meetingsAdminQuerySchema,
  registrationSettingsSchema,
  scheduleInputSchema,
  scheduleSchema,
  sponsorInputSchema,
  sponsorSchema,
} from "../../core/meetings/meetings.schema";
import { revisionSchema } from "../../core/revisions/revisions.schema";
import { imageTextSchema } from "../../lib/image-text";
import type { Runtime } from "../env";
import { fileField } from "./admin-media";
import { apiRouter, declare, pageAnswer, success } from "./contract";
import { access, currentAuth, editsOf, idParam, ok, uploadedImage, uploadedImages } from "./http";

const MEETING_NOT_FOUND = "Meeting not found.";
/** Who calls these routes (issue 36), said in the list's description. */
const CHAIRS =
  "Admins and editors manage every meeting; a working group's chairs list and change their groups' meetings, with their programme, sponsors and registrations (403 with why for any other).";

/** The admin's meeting: each image with the address it is deleted at (SPEC §7 'DELETE of an image'). */
function withLinks(meeting: Meeting) {
  return {
    ...meeting,
    images: meeting.images.map((image) => ({
      ...image,
      delete_url: `/api/dashboard/meeting/${meeting.id}/image/${image.id}`,
    })),
  };
}

const adminMeetingSchema = meetingSchema
  .extend({
    images: z.array(
      meetingSchema.shape.images.element.extend({
        delete_url: z.string().meta({ description: "DELETE here removes the image from the meeting." }),
      }),
    ),
  })
  .meta({ id: "AdminMeeting" });

const adminSummarySchema = meetingSummarySchema
  .extend({ registration_settings: registrationSettingsSchema })
  .meta({ id: "AdminMeetingSummary" });

const meetingBody = meetingInputSchema.extend({
  "images[]": z.array(fileField).optional().openapi({ description: "Images to add (several per request)." }),
});
const sponsorBody = sponsorInputSchema.extend({ image: fileField.optional().openapi({ description: "The logo." }) });
const scheduleBody = scheduleInputSchema;

const idText = z.string().openapi({ description: "A positive integer id.", example: "1" });
const meetingParams = z.object({ id: idText });
const childParams = z.object({ eventId: idText, id: idText });
const eventParams = z.object({ eventId: idText });
const imageParams = z.object({ id: idText, imageId: idText });

/** SPEC §7 'Meetings' (admin): meetings, their images, programme and sponsors. */
export function adminMeetingsRoutes(runtime: Runtime) {
  const { services } = runtime;
  const admin = services.meetingsAdmin;
  const api = apiRouter();
  const tag = "Meetings (admin)";

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/meeting",
      access: access.chair,
      tag,
      summary: "List meetings, newest first (search, page)",
      description:
        "Load-more is a GET of `next_page_url` (which carries the search) plus `&search=` (SPEC §7): a repeated `search` with the same value is taken once, with different values it is a 422. " +
        CHAIRS,
      query: meetingsAdminQuerySchema,
      response: { schema: pageAnswer(adminSummarySchema) },
      // Kept per content version, as the registrations' and companies' lists are: every change to a
      // meeting moves it (an editor's by contentChanges, a chair's by `publishes`), and the key names
      // the caller's access, a chair's groups included (accessKey).
      cache: "content",
    },
    async (c, { query }) => {
      const page = await admin.adminList(query, editsOf(c));
      let next: string | null = null;
      if (page.current_page < page.last_page) {
        const params = new URLSearchParams({ page: String(page.current_page + 1) });
        if (query.search) params.set("search", query.search);
        next = `/api/dashboard/meeting?${params}`;
      }
      return ok(c, { ...page, next_page_url: next });
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/meeting/:id",
      access: access.chair,
      tag,
      summary: "A meeting with its images, programme and sponsors",
      params: meetingParams,
      response: { schema: success({ event: adminMeetingSchema }) },
      errors: [404],
    },
    async (c) => ok(c, { event: withLinks(await admin.get(idParam(c, MEETING_NOT_FOUND), editsOf(c))) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/meeting",
      access: access.chair,
      tag,
      summary: "Create a meeting",
      description:
        "Starts with an empty programme and no sponsors (SPEC §4). A chair's meeting is for their groups: `audience` " +
        "`groups` with `group_ids` they chair (422 beside `audience` otherwise).",
      body: { schema: meetingBody },
      response: { status: 201, schema: success({ event: adminMeetingSchema }) },
      errors: [507],
    },
    async (c, { body, raw }) => {
      const event = await admin.create(body, await uploadedImages(raw), editsOf(c));
      return ok(c, { event: withLinks(event) }, 201);
    },
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/meeting/:id",
      access: access.chair,
      tag,
      summary: "Update a meeting",
      description: "Every field is replaced; `images[]` are added to the meeting's images.",
      params: meetingParams,
      body: { schema: meetingBody },
      response: { schema: success({ event: adminMeetingSchema }) },
      errors: [404, 507],
    },
    async (c, { body, raw }) => {
      const id = idParam(c, MEETING_NOT_FOUND);
      return ok(c, { event: withLinks(await admin.update(id, body, await uploadedImages(raw), editsOf(c))) });
    },
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/meeting/:id",
      access: access.chair,
      tag,
      summary: "Delete a meeting with its images, programme and sponsors",
      params: meetingParams,
      response: { schema: success({}) },
      errors: [404],
    },
    async (c) => {
      await admin.remove(idParam(c, MEETING_NOT_FOUND), editsOf(c));
      return ok(c);
    },
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/meeting/:id/image/:imageId",
      access: access.chair,
      tag,
      summary: "Change a picture's alt text, or mark it decorative",
      params: imageParams,
      body: { schema: imageTextSchema },
      response: { schema: success({ image: meetingImageSchema }) },
      errors: [404],
    },
    async (c, { body }) => {
      const meetingId = idParam(c, MEETING_NOT_FOUND);
      const image = await admin.describeImage(meetingId, idParam(c, "Image not found.", "imageId"), body, editsOf(c));
      return ok(c, { image });
    },
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/meeting/:id/image/:imageId",
      access: access.chair,
      tag,
      summary: "Delete one of a meeting's images",
      params: imageParams,
      response: { schema: success({ image_id: z.number().int() }) },
      errors: [404],
    },
    async (c) =>
      ok(
        c,
        await admin.removeImage(idParam(c, MEETING_NOT_FOUND), idParam(c, "Image not found.", "imageId"), editsOf(c)),
      ),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/meeting/:eventId/schedule",
      access: access.chair,
      tag,
      summary: "Add a session to a meeting's programme",
      description: "`id` and `event_id` in the body are ignored: the path names the meeting.",
      params: eventParams,
      body: { schema: scheduleBody },
      response: { status: 201, schema: success({ schedule: scheduleSchema }) },
      errors: [404],
    },
    async (c, { body }) => {
      const schedule = await admin.addSchedule(idParam(c, MEETING_NOT_FOUND, "eventId"), body, editsOf(c));
      return ok(c, { schedule }, 201);
    },
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/meeting/:eventId/schedule/:id",
      access: access.chair,
      tag,
      summary: "Update a session (of this meeting only)",
      params: childParams,
      body: { schema: scheduleBody },
      response: { schema: success({ schedule: scheduleSchema }) },
      errors: [404],
    },
    async (c, { body }) => {
      const meetingId = idParam(c, MEETING_NOT_FOUND, "eventId");
      const schedule = await admin.updateSchedule(meetingId, idParam(c, "Schedule not found."), body, editsOf(c));
      return ok(c, { schedule });
    },
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/meeting/:eventId/schedule/:id",
      access: access.chair,
      tag,
      summary: "Delete a session (of this meeting only)",
      params: childParams,
      response: { schema: success({}) },
      errors: [404],
    },
    async (c) => {
      const meetingId = idParam(c, MEETING_NOT_FOUND, "eventId");
      await admin.removeSchedule(meetingId, idParam(c, "Schedule not found."), editsOf(c));
      return ok(c);
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/meeting/:eventId/sponsor",
      access: access.chair,
      tag,
      summary: "Add a sponsor (name, link, logo)",
      params: eventParams,
      body: { schema: sponsorBody },
      response: { status: 201, schema: success({ sponsor: sponsorSchema }) },
      errors: [404, 507],
    },
    async (c, { body, raw }) => {
      const meetingId = idParam(c, MEETING_NOT_FOUND, "eventId");
      const sponsor = await admin.addSponsor(meetingId, body, await uploadedImage(raw), editsOf(c));
      return ok(c, { sponsor }, 201);
    },
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/meeting/:eventId/sponsor/:id",
      access: access.chair,
      tag,
      summary: "Update a sponsor (of this meeting only); a new logo replaces the old",
      params: childParams,
      body: { schema: sponsorBody },
      response: { schema: success({ sponsor: sponsorSchema }) },
      errors: [404, 507],
    },
    async (c, { body, raw }) => {
      const meetingId = idParam(c, MEETING_NOT_FOUND, "eventId");
      const id = idParam(c, "Sponsor not found.");
      const logo = await uploadedImage(raw);
      return ok(c, { sponsor: await admin.updateSponsor(meetingId, id, body, logo, editsOf(c)) });
    },
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/meeting/:eventId/sponsor/:id",
      access: access.chair,
      tag,
      summary: "Delete a sponsor (of this meeting only)",
      params: childParams,
      response: { schema: success({}) },
      errors: [404],
    },
    async (c) => {
      const meetingId = idParam(c, MEETING_NOT_FOUND, "eventId");
      await admin.removeSponsor(meetingId, idParam(c, "Sponsor not found."), editsOf(c));
      return ok(c);
    },
  );

  const registrations = "Registrations (admin)";
  const registrationParams = z.object({ id: idText, rid: idText });

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/meeting/:id/registrations",
      access: access.chair,
      tag: registrations,
      summary: "A meeting's registrations (state, search, page), with counts per state",
      description:
        "Newest first. `search` looks in the company, the attendee's name and the e-mail. `counts` says how many " +
        "registrations matching the search are in each state; pending and confirmed ones hold a seat against `capacity`.",
      params: meetingParams,
      query: registrationListQuerySchema,
      response: { schema: success({ ...registrationPageSchema.shape, next_page_url: z.string().nullable() }) },
      errors: [404],
      // Kept per content version as the companies' list is: every change to a registration moves it
      // (an admin's by contentChanges; a registration, a registrant's or member's cancel by the
      // registrations service's `published`).
      cache: "content",
    },
    async (c, { query }) => {
      const meetingId = idParam(c, MEETING_NOT_FOUND);
      await admin.checkEdits(meetingId, editsOf(c));
      const page = await services.registrations.list(meetingId, query, query.page);
      let next: string | null = null;
      if (page.current_page < page.last_page) {
        const params = new URLSearchParams({ page: String(page.current_page + 1) });
        if (query.status) params.set("status", query.status);
        if (query.search) params.set("search", query.search);
        next = `/api/dashboard/meeting/${meetingId}/registrations?${params}`;
      }
      return ok(c, { ...page, data: page.data.map(registrationOf), next_page_url: next });
    },
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/meeting/:id/registrations/:rid",
      access: access.chair,
      tag: registrations,
      summary: "Confirm, decline, cancel, move up or check in a registration",
      description:
        "`status`: confirmed, declined (with an optional `reason`, mailed), cancelled, or pending (moved up from the " +
        "waiting list). `attended`: true checks the attendee in now, false undoes it. Each change mails the " +
        "registrant; a seat freed goes to the oldest registration on the waiting list. 422 with the reason for an " +
        "impossible move (confirming past the capacity, cancelling a declined one); 404 for another meeting's registration.",
      params: registrationParams,
      body: { schema: registrationChangeSchema },
      response: { schema: success({ registration: registrationSchema }) },
      errors: [404],
    },
    async (c, { body }) => {
      const meetingId = idParam(c, MEETING_NOT_FOUND);
      const id = idParam(c, REGISTRATION_NOT_FOUND, "rid");
      await admin.checkEdits(meetingId, editsOf(c));
      const { user } = currentAuth(c);
      const by = { id: user.id, name: `${user.first_name} ${user.last_name}`.trim() || "An administrator" };
      return ok(c, { registration: registrationOf(await services.registrations.apply(meetingId, id, body, by)) });
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/meeting/:id/revisions",
      access: access.chair,
      tag,
      summary: "A meeting's revisions",
      description:
        "Every save keeps the meeting's texts (decision 0073): newest first (the latest 50), each with who saved it, " +
        "when, the fields as saved, and what changed from the revision before it, word by word.",
      params: meetingParams,
      response: { schema: success({ data: z.array(revisionSchema) }) },
      errors: [404],
    },
    async (c) => ok(c, { data: await admin.revisions(idParam(c, MEETING_NOT_FOUND), editsOf(c)) }),
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/meeting/:id/revisions/:revisionId/restore",
      access: access.chair,
      tag,
      summary: "Restore a meeting's revision",
      description:
        "Puts the revision's texts back as a new save (a new revision), told to registrants' calendars like any edit. " +
        "Dates, visibility and registration settings stay as they are.",
      params: meetingParams.extend({ revisionId: idText }),
      response: { schema: success({ event: adminMeetingSchema }) },
      errors: [404],
    },
    async (c) => {
      const id = idParam(c, MEETING_NOT_FOUND);
      const revisionId = idParam(c, "Revision not found.", "revisionId");
      return ok(c, { event: withLinks(await admin.restoreRevision(id, revisionId, editsOf(c))) });
    },
  );

  return api;
}

/** A registration as the API answers it (the row's other columns left out). */
function registrationOf(row: RegistrationRow) {
  return {
    id: row.id,
    meeting_id: Number(row.meeting_id),
    company_name: row.company_name,
    representative_name: row.representative_name,
    email: row.email,
    phone_number: row.phone_number,
    note: row.note,
    status: row.status ?? "pending",
    attended_at: row.attended_at,
    created_at: row.created_at,
  };
}
