import { z } from "@hono/zod-openapi";
import { groupsOf, hasMembersAccess } from "../../core/access/access";
import {
  applicationApproveSchema,
  applicationDeclineSchema,
  joinHandledSchema,
  joinListSchema,
  joinRequestListSchema,
  joinSubmissionSchema,
  messageSubmissionSchema,
} from "../../core/join/join.schema";
import { adminCompanySchema } from "../../core/members/members.schema";
import { contentDisposition } from "../../lib/content-disposition";
import { toCsv } from "../../lib/csv";
import { AppError } from "../../lib/errors";
import type { Runtime } from "../env";
import { idParams } from "./admin-news";
import { apiRouter, declare, success } from "./contract";
import { access, currentAuth, idParam, ok } from "./http";

const done = success({});

/**
 * The export's file name: one meeting's registrations are named after the meeting
 * (`radar-working-group-2030-registrations.csv`), so that several exports do not overwrite each other
 * in a download folder; the inbox's export stays `join-requests.csv`.
 */
async function exportNameFor(services: Runtime["services"], meetingId: number | undefined): Promise<string> {
  if (meetingId === undefined) return "join-requests.csv";
  const slug = await services.meetingsAdmin.get(meetingId).then(
    (meeting) => meeting.slug,
    (error: unknown) => {
      // A meeting deleted since its registrations came in still has them to export.
      if (error instanceof AppError && error.code === "not_found") return `meeting-${meetingId}`;
      throw error;
    },
  );
  return `${slug}-registrations.csv`;
}

/**
 * SPEC §7 '/api/join', the message form's `/api/contact`, and the admin's inbox of what they
 * bring in (join and registration requests, messages).
 */
export function joinRoutes({ services, logger, config }: Runtime) {
  const api = apiRouter();
  const tag = "Join and contact forms";
  const inbox = "Inbox (admin)";
  const spamChecks =
    "Spam checks (decision 0039): the per-address limit (429 with the wait, also in Retry-After); the captcha " +
    "when one is configured (`captcha_token`; a signed-in API client with a Bearer token is not asked for it); " +
    "otherwise, when the form sends `altcha` (its browser ran the site's proof-of-work widget), a solution of " +
    "an unexpired challenge from GET /api/altcha/challenge not used before (422 under `altcha` when it is not; " +
    "a signed-in API client is not asked for it); " +
    "then `website` (a field hidden from people, to be left empty) and `started_at` (the signed time the " +
    "site issued when it rendered the form; see the field). What these last two catch is kept as probable " +
    "spam for the secretariat and answered like any other request; no acknowledgement is mailed for it " +
    "(a registration's excepted). 503 when the captcha's verification service cannot answer: with " +
    "Retry-After when it may answer in a moment, without when the site's own captcha configuration is " +
    "at fault (the message says where to write instead).";

  declare(
    api,
    {
      method: "post",
      path: "/join",
      access: access.public,
      tag,
      summary: "Ask to join (or register for a meeting)",
      description:
        "422 names the fields to correct, or `page_path` when the meeting takes no more registrations (full " +
        "without a waiting list, closed, past its closing date), or `email` when the address is already " +
        "registered for the meeting. A registration (sent from a meeting's page: `page_path`) is answered with " +
        "the state it arrived in: `pending`, `confirmed` (the meeting confirms automatically) or `waitlisted` " +
        "(full: on its waiting list). 422 under `email` for an address of a throwaway e-mail service. " +
        "A members-only meeting's registration from a visitor is 404, as its page. " +
        spamChecks,
      body: { schema: joinSubmissionSchema },
      response: {
        schema: done.extend({
          registration: z
            .object({ status: z.enum(["pending", "confirmed", "waitlisted"]) })
            .optional()
            .meta({ description: "A meeting's registration only: the state it arrived in." }),
        }),
      },
      errors: [404, 429, 503],
    },
    async (c, { body }) => {
      const outcome = await services.join.submit(body, {
        ip: c.get("clientIp"),
        trusted: c.get("authVia") === "bearer",
        // A lapsed company's representative registers as a visitor would (decision 0044).
        signedIn: hasMembersAccess(c.get("auth")),
        groups: groupsOf(c.get("auth")),
        userId: c.get("auth")?.user.id ?? null,
      });
      // A bot is answered like a person, so that it learns nothing from the answer.
      if (outcome.spam)
        logger.info(
          { ip: c.get("clientIp"), reason: outcome.spam, id: outcome.id },
          "join request kept as probable spam",
        );
      return ok(c, outcome.registration ? { registration: outcome.registration } : {});
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/contact",
      access: access.public,
      tag,
      summary: "Send a message to the secretariat",
      description:
        "The contact form of /contact and /feedback-forum: kept in the inbox as kind `message`, mailed to the " +
        "secretariat and acknowledged to the sender (the acknowledgement quotes nothing the sender typed). " +
        `The same checks and per-address limit as POST /join. ${spamChecks}`,
      body: { schema: messageSubmissionSchema },
      response: { schema: done },
      errors: [429, 503],
    },
    async (c, { body }) => {
      const outcome = await services.join.sendMessage(body, {
        ip: c.get("clientIp"),
        trusted: c.get("authVia") === "bearer",
      });
      if (outcome.spam)
        logger.info({ ip: c.get("clientIp"), reason: outcome.spam, id: outcome.id }, "message kept as probable spam");
      return ok(c);
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/altcha/challenge",
      access: access.public,
      tag,
      summary: "A proof-of-work challenge for the public forms",
      description:
        "What the forms' ALTCHA widget solves before sending (decision 0077): a PBKDF2 challenge signed by the " +
        "site, valid for 10 minutes and for one request; its solution goes with the form as `altcha` (base64 " +
        "of `{ challenge, solution }`). Never cached. Served even when reCAPTCHA is configured, which then " +
        "replaces the check (the forms do not show the widget).",
      response: {
        schema: success({
          parameters: z.object({
            algorithm: z.string(),
            nonce: z.string(),
            salt: z.string(),
            cost: z.number().int(),
            keyLength: z.number().int(),
            keyPrefix: z.string(),
            keySignature: z.string().optional(),
            expiresAt: z.number().int().optional().meta({ description: "Seconds since the epoch." }),
          }),
          signature: z.string(),
        }),
      },
    },
    async (c) => {
      const challenge = await services.proofOfWork.issue();
      c.header("Cache-Control", "no-store");
      return ok(c, { parameters: challenge.parameters, signature: challenge.signature });
    },
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/join-requests",
      access: access.admin,
      tag: inbox,
      summary: "List the inbox: join and registration requests, messages",
      query: joinListSchema,
      response: { schema: success(joinRequestListSchema.shape) },
    },
    async (c, { query }) => ok(c, await services.join.list(query)),
  );

  declare(
    api,
    {
      method: "get",
      path: "/dashboard/join-requests/export",
      access: access.admin,
      tag: inbox,
      summary: "Export the requests as CSV",
      query: joinListSchema,
      response: { schema: z.string(), mediaType: "text/csv", description: "The requests, one a line." },
    },
    async (c, { query }) => {
      const rows = await services.join.exportRows(query);
      const csv = toCsv(
        [
          "Received",
          "Kind",
          "Meeting",
          "Company",
          "Representative",
          "E-mail",
          "Phone",
          "Subject",
          "Message",
          "Page",
          "Handled",
          "Probable spam",
        ],
        rows.map((r) => [
          r.created_at,
          r.kind,
          r.meeting_title,
          r.company_name,
          r.representative_name,
          r.email,
          r.phone_number,
          r.subject,
          r.message,
          r.page_path,
          r.handled_at ?? "",
          r.spam_reason ?? "",
        ]),
      );
      return c.body(csv, 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": contentDisposition("attachment", await exportNameFor(services, query.meeting)),
        "Cache-Control": "no-store",
      });
    },
  );

  declare(
    api,
    {
      method: "patch",
      path: "/dashboard/join-requests/:id",
      access: access.admin,
      tag: inbox,
      summary: "Mark a request handled or open",
      params: idParams,
      body: { schema: joinHandledSchema },
      response: { schema: done },
      errors: [404],
    },
    async (c, { body }) => {
      await services.join.setHandled(idParam(c, "Request not found."), body.handled);
      return ok(c);
    },
  );

  declare(
    api,
    {
      method: "delete",
      path: "/dashboard/join-requests/:id",
      access: access.admin,
      tag: inbox,
      summary: "Delete a request",
      description: "Its mail history goes with it; a registration's seat is free again.",
      params: idParams,
      response: { schema: done },
      errors: [404],
    },
    async (c) => {
      await services.join.remove(idParam(c, "Request not found."));
      return ok(c);
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/join-requests/:id/not-spam",
      access: access.admin,
      tag: inbox,
      summary: "Mark a request as not spam",
      description:
        "Removes the probable-spam mark (`spam_reason` becomes null): the request then shows among the others. " +
        "Nothing is mailed. A request without the mark is left as it is.",
      params: idParams,
      response: { schema: done },
      errors: [404],
    },
    async (c) => {
      await services.join.markNotSpam(idParam(c, "Request not found."));
      return ok(c);
    },
  );

  const decided =
    "404 for an unknown request; 409 when it is not a membership application (a registration, a message) or " +
    "was already approved or declined.";
  declare(
    api,
    {
      method: "post",
      path: "/dashboard/join-requests/:id/approve",
      access: access.admin,
      tag: inbox,
      summary: "Approve a membership application",
      description:
        "Creates the company (the request's company name, or `company_name`; `country` and `membership_type` " +
        "required) or, with `company_id`, links the applicant to that existing company; invites the applicant " +
        "(the request's name and e-mail, or `first_name`, `last_name`, `email`) as its representative through " +
        "the invitation flow, a new company's as its primary contact. An address that already has an account " +
        "is linked instead and its owner told. The mail opens with the approval and shows in the request's " +
        "history. All in one transaction: a refusal (422, or 409 with the reason under `email` when the " +
        `address belongs to another company's representative, an administrator or a deactivated account) leaves nothing. ${decided}`,
      params: idParams,
      body: { schema: applicationApproveSchema },
      response: {
        schema: success({
          company: adminCompanySchema,
          invited: z.boolean().openapi({
            description: "true: a new account was invited; false: an existing account was linked (and told).",
          }),
        }),
      },
      errors: [404, 409],
    },
    async (c, { body }) => {
      const { user } = currentAuth(c);
      const outcome = await services.applications.approve(
        idParam(c, "Request not found."),
        body,
        user,
        config.baseUrl.origin,
      );
      return ok(c, outcome);
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/join-requests/:id/decline",
      access: access.admin,
      tag: inbox,
      summary: "Decline a membership application",
      description: `The reason (required) is e-mailed to the applicant and kept in the request's history. ${decided}`,
      params: idParams,
      body: { schema: applicationDeclineSchema },
      response: { schema: done },
      errors: [404, 409],
    },
    async (c, { body }) => {
      await services.applications.decline(idParam(c, "Request not found."), body, currentAuth(c).user);
      return ok(c);
    },
  );

  declare(
    api,
    {
      method: "post",
      path: "/dashboard/mail/:id/resend",
      access: access.admin,
      tag: "Mail (admin)",
      summary: "Send a failed mail again (an address marked as refusing mail is mailed again from now on)",
      params: idParams,
      response: { schema: done },
      errors: [404],
    },
    async (c) => {
      await services.mail.resend(idParam(c, "There is no failed mail with this id."));
      return ok(c);
    },
  );

  return api;
}
