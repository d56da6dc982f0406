import type { Kysely } from "kysely";
import type { Database } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { isUniqueViolation } from "../../lib/db-errors";
import { AppError } from "../../lib/errors";
import { isRowId } from "../../lib/ids";
import { invalidInput, parseOrThrow } from "../../lib/validation";
import type { AuditService } from "../audit/audit.service";
import type { MailService } from "../mail/mail.service";
import {
  type AdminCompany,
  COUNTRY_MESSAGE,
  NAME_REQUIRED,
  representativeInviteSchema,
} from "../members/members.schema";
import type { MembersService } from "../members/members.service";
import type { SettingsService } from "../settings/settings.service";
import { createJoinRepository, type JoinRepository } from "./join.repository";
import {
  ALREADY_DECIDED,
  APPLICATION_NOT_FOUND,
  type ApplicationApprove,
  type ApplicationDecline,
  NO_SUCH_COMPANY,
  NOT_AN_APPLICATION,
  TYPE_REQUIRED,
} from "./join.schema";

/** Who decides (the signed-in administrator) and where the invitation's link points. */
export type Decider = { id: number; first_name: string; last_name: string };
type Request = NonNullable<Awaited<ReturnType<JoinRepository["findById"]>>>;

/** "Ada Lovelace" → Ada / Lovelace; "Dr Erik Solberg" → Dr Erik / Solberg; one word is a first name. */
export function splitName(name: string): { first_name: string; last_name: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return { first_name: words[0] ?? "", last_name: "" };
  return { first_name: words.slice(0, -1).join(" "), last_name: words[words.length - 1] };
}

const fullName = (who: Decider) => `${who.first_name} ${who.last_name}`.trim() || "An administrator";

/**
 * Applications become members (issue 31, decision 0047): the secretariat approves a membership
 * request, which creates the company (or links to an existing one) and invites the applicant as
 * its representative in one transaction, or declines it with a reason that is mailed. Each
 * decision is recorded in the request's history with who made it.
 */
export function createApplicationsService(deps: {
  db: Kysely<Database>;
  repository: JoinRepository;
  members: Pick<MembersService, "get" | "writeContext" | "createIn" | "addRepresentativeIn">;
  mail: Pick<MailService, "enqueue" | "deliverSoon">;
  settings: Pick<SettingsService, "getAll">;
  clock: Clock;
  /** The audit log (decision 0074): each decision's row, in its transaction. */
  audit?: Pick<AuditService, "record">;
}) {
  const { db, repository, members, mail, clock } = deps;

  /** Why a request cannot be decided: none (404), another kind or decided already (409). */
  function refusal(request: Request | undefined): AppError {
    if (!request) return new AppError("not_found", APPLICATION_NOT_FOUND);
    if (request.kind !== "join") return new AppError("conflict", NOT_AN_APPLICATION);
    return new AppError("conflict", ALREADY_DECIDED(request.status === "declined" ? "declined" : "approved"));
  }

  /** The request while it is a new application; 404 or 409 otherwise. */
  async function newApplication(id: number): Promise<Request> {
    const request = isRowId(id) ? await repository.findById(id) : undefined;
    if (request?.kind !== "join" || request.status !== "new") throw refusal(request);
    return request;
  }

  /** Takes the decision inside the transaction; a decision made meanwhile (another admin) is a 409. */
  async function decideIn(trx: Kysely<Database>, id: number, status: "approved" | "declined", at: string) {
    const repo = createJoinRepository(trx);
    if (!(await repo.decide(id, status, at))) throw refusal(await repo.findById(id));
    return repo;
  }

  return {
    /**
     * Approves an application: a new company (the request's name, the country and type given) or
     * the existing `company_id`; the applicant invited as its representative through the invitation
     * flow (an address with an account is linked and told), a new company's as its primary contact;
     * the decision in the history. All in one transaction: a refusal anywhere leaves nothing.
     */
    async approve(
      id: number,
      input: ApplicationApprove,
      by: Decider,
      origin: string,
    ): Promise<{ company: AdminCompany; invited: boolean }> {
      const request = await newApplication(id);
      const derived = splitName(request.representative_name);
      const person = parseOrThrow(representativeInviteSchema, {
        email: input.email ?? request.email,
        first_name: input.first_name ?? derived.first_name,
        last_name: input.last_name ?? derived.last_name,
        primary: input.company_id === undefined || input.primary,
      });
      let linked: AdminCompany | null = null;
      if (input.company_id !== undefined) {
        linked = await members.get(input.company_id).catch((error: unknown) => {
          if (error instanceof AppError && error.code === "not_found")
            throw invalidInput({ company_id: [NO_SUCH_COMPANY] });
          throw error;
        });
      } else {
        const missing: Record<string, string[]> = {};
        if (!input.country) missing.country = [COUNTRY_MESSAGE];
        if (!input.membership_type) missing.membership_type = [TYPE_REQUIRED];
        if (!(input.company_name ?? request.company_name)) missing.company_name = [NAME_REQUIRED];
        if (Object.keys(missing).length > 0) throw invalidInput(missing);
      }
      const context = await members.writeContext();
      const site = context.site;
      const now = clock().toISOString();
      const outcome = await db
        .transaction()
        .execute(async (trx) => {
          const repo = await decideIn(trx, request.id, "approved", now);
          const company =
            linked ??
            (await members.createIn(trx, context, {
              name: input.company_name ?? request.company_name ?? "",
              country: input.country ?? "",
              membership_type: input.membership_type,
            }));
          const { invited } = await members.addRepresentativeIn(trx, context, company.id, person, {
            origin,
            inviter: by,
            regarding: {
              join_request_id: request.id,
              opening: `Your application for ${company.name} to join ${site["site.name"]} has been approved. Welcome!`,
            },
          });
          await repo.insertEvent({
            join_request_id: request.id,
            event: "approved",
            user_id: by.id,
            user_name: fullName(by),
            company_id: company.id,
            company_name: company.name,
            reason: null,
            created_at: now,
          });
          await deps.audit?.record(
            {
              action: "approved",
              entity: "request",
              entityId: request.id,
              summary: `Join request #${request.id} from ${request.email} approved: company “${company.name}”`,
              before: { status: "new" },
              after: { status: "approved", company: company.name },
            },
            trx,
          );
          return { companyId: company.id, invited };
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error, { table: "member_companies", column: "slug" })) {
            throw new AppError("conflict", "Another company took this name's address meanwhile. Please try again.");
          }
          throw error;
        });
      mail.deliverSoon();
      return { company: await members.get(outcome.companyId), invited: outcome.invited };
    },

    /** Declines an application; the reason is mailed to the applicant and kept in the history. */
    async decline(id: number, input: ApplicationDecline, by: Decider): Promise<void> {
      const request = await newApplication(id);
      const site = await deps.settings.getAll();
      const name = site["site.name"];
      const now = clock().toISOString();
      await db.transaction().execute(async (trx) => {
        const repo = await decideIn(trx, request.id, "declined", now);
        await repo.insertEvent({
          join_request_id: request.id,
          event: "declined",
          user_id: by.id,
          user_name: fullName(by),
          company_id: null,
          company_name: null,
          reason: input.reason,
          created_at: now,
        });
        await deps.audit?.record(
          {
            action: "declined",
            entity: "request",
            entityId: request.id,
            summary: `Join request #${request.id} from ${request.email} declined`,
            before: { status: "new" },
            after: { status: "declined", reason: input.reason },
          },
          trx,
        );
        await mail.enqueue(
          [
            {
              join_request_id: request.id,
              purpose: "decline",
              to_address: request.email,
              reply_to: site["site.email"] || null,
              subject: `Your application to join ${name}`,
              body_text: `Dear ${request.representative_name},\n\nThank you for your application${request.company_name ? ` for ${request.company_name}` : ""} to join ${name}. We are sorry to tell you that we cannot accept it, for this reason:\n\n${input.reason}\n\nIf you have a question about this, please reply to this message.\n\nKind regards,\n${name}`,
            },
          ],
          trx,
        );
      });
      mail.deliverSoon();
    },
  };
}
export type ApplicationsService = ReturnType<typeof createApplicationsService>;
