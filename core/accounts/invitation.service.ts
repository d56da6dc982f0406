import type { Kysely } from "kysely";
import type { Dialect } from "../../db/connect";
import type { Database, UserRow } from "../../db/types";
import { addSeconds, type Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { hashPassword } from "../../lib/password";
import { hashToken, newToken } from "../../lib/tokens";
import { invalidInput, parseOrThrow } from "../../lib/validation";
import type { AuditService } from "../audit/audit.service";
import type { MailService } from "../mail/mail.service";
import type { SiteSettings } from "../settings/settings.schema";
import type { SettingsService } from "../settings/settings.service";
import type { AdminUser, InviteInput } from "./accounts.schema";
import { toAdminUser } from "./accounts.service";
import {
  INVITATION_ALREADY_ACCEPTED,
  INVITATION_DAYS,
  INVITATION_FOR_DEACTIVATED,
  INVITATION_LINK_INVALID,
} from "./invitation.schema";
import type { TokenPassword } from "./password.schema";
import { newPasswordSchema } from "./password-rules";
import { EMAIL_TAKEN } from "./profile.schema";
import { createTokensRepository, type TokensRepository } from "./tokens.repository";
import { createUsersRepository, type UsersRepository } from "./users.repository";

/**
 * Where links point (BASE_URL, never the request's Host) and who sends the invitation; `regarding`
 * when it answers a join request (decision 0047): the mail opens with `opening` and is listed in
 * that request's history.
 */
export type InvitationContext = {
  origin: string;
  inviter: { first_name: string; last_name: string };
  regarding?: { join_request_id: number; opening: string };
};

const LONG_DATE = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });

/**
 * Invitations: an admin creates an account without a password and the person
 * chooses one through a single-use, hashed link valid for 7 days. Sending a
 * new invitation retires the earlier link.
 */
export function createInvitationService(deps: {
  users: UsersRepository;
  tokens: TokensRepository;
  mail: MailService;
  settings: SettingsService;
  /** Runs work in one transaction (an invitation with its link and mail; an acceptance). */
  transaction: <T>(work: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;
  dialect: Dialect;
  clock: Clock;
  /** The audit log (decision 0074): an invitation sent by an admin, in its transaction. */
  audit?: Pick<AuditService, "record">;
}) {
  const { users, tokens, clock } = deps;

  /**
   * A new link for the user, mailed, inside the caller's transaction (the mail leaves once it
   * commits). `site` is read before the transaction: on SQLite the transaction holds the one
   * connection, so a read through another handle inside it would wait for ever.
   */
  async function send(
    user: UserRow,
    context: InvitationContext,
    site: SiteSettings,
    trx: Kysely<Database>,
    company?: string,
  ) {
    const now = clock();
    const token = newToken();
    const expiresAt = addSeconds(now, INVITATION_DAYS * 24 * 3600);
    const tokensInTx = createTokensRepository(trx);
    await tokensInTx.retireForUser(user.id, "invitation", now.toISOString());
    await tokensInTx.insert({
      user_id: user.id,
      kind: "invitation",
      token_hash: hashToken(token),
      expires_at: expiresAt.toISOString(),
      created_at: now.toISOString(),
    });
    const name = site["site.name"];
    const link = `${context.origin}/welcome?token=${token}`;
    const inviter = `${context.inviter.first_name} ${context.inviter.last_name}`.trim() || `The ${name} secretariat`;
    await deps.mail.enqueue(
      [
        {
          join_request_id: context.regarding?.join_request_id ?? null,
          purpose: "invitation",
          to_address: user.email,
          reply_to: site["site.email"] || null,
          subject: `Your invitation to the ${name} members area`,
          body_text: `Dear ${user.first_name},\n\n${context.regarding ? `${context.regarding.opening}\n\n` : ""}${inviter} has invited you to the members area of ${name}${user.role === "admin" ? ", as an administrator of the website" : user.role === "editor" ? ", as an editor of the website's news, pages, meetings and library" : company ? `, as a representative of ${company}` : ""}.\n\nOpen this link to choose your password and sign in:\n\n${link}\n\nThe link works once and until ${LONG_DATE.format(expiresAt)} UTC. After that, ask us for a new one.\n\nYou will sign in with this e-mail address, ${user.email}.\n\nKind regards,\n${name}`,
        },
      ],
      trx,
    );
    return expiresAt.toISOString();
  }

  /** The invitation behind a link, while it can still be accepted. */
  async function usable(token: string | null | undefined) {
    if (!token || token.length > 200) return undefined;
    const found = await tokens.findUsable(hashToken(token), "invitation", clock().toISOString());
    return found && found.is_active === 1 && !found.has_password ? found : undefined;
  }

  /** A new account without a password, its link and its mail, in the caller's transaction. */
  async function createInvited(
    trx: Kysely<Database>,
    data: InviteInput,
    context: InvitationContext,
    site: SiteSettings,
    company?: string,
  ) {
    const now = clock().toISOString();
    const row = await createUsersRepository(trx, deps.dialect).insert({
      ...data,
      phone_number: null,
      avatar: null,
      password_hash: null,
      is_active: 1,
      created_at: now,
      updated_at: now,
    });
    return { row, expiresAt: await send(row, context, site, trx, company) };
  }

  return {
    /**
     * A company's representative (core/members): the account with this e-mail if there is one
     * (`invited: false`, nothing sent: the caller decides whether it may be linked), else a new
     * member's account invited as the company's representative. Runs in the caller's transaction;
     * `site` is read before it (see send), and the caller calls mail.deliverSoon() once it commits.
     */
    async accountOrInvitation(
      trx: Kysely<Database>,
      data: Omit<InviteInput, "role">,
      context: InvitationContext,
      site: SiteSettings,
      company: string,
    ): Promise<{ row: UserRow; invited: boolean; expiresAt: string | null }> {
      const existing = await createUsersRepository(trx, deps.dialect).findByEmail(data.email);
      if (existing) return { row: existing, invited: false, expiresAt: null };
      const created = await createInvited(trx, { ...data, role: "member" }, context, site, company);
      return { ...created, invited: true };
    },

    async invite(data: InviteInput, context: InvitationContext): Promise<AdminUser> {
      if (await users.findByEmail(data.email)) throw invalidInput({ email: [EMAIL_TAKEN] });
      const site = await deps.settings.getAll();
      // The account, its link and its mail exist together or not at all.
      const invited = await deps.transaction(async (trx) => {
        const created = await createInvited(trx, data, context, site);
        await deps.audit?.record(
          {
            action: "invited",
            entity: "user",
            entityId: created.row.id,
            summary: `${data.email} invited as ${data.role}`,
            after: { email: data.email, first_name: data.first_name, last_name: data.last_name, role: data.role },
          },
          trx,
        );
        return created;
      });
      deps.mail.deliverSoon();
      return toAdminUser({ ...invited.row, invitation_expires_at: invited.expiresAt });
    },

    async resend(id: number, context: InvitationContext): Promise<AdminUser> {
      const row = await users.findById(id);
      if (!row) throw new AppError("not_found", "User not found.");
      if (row.is_active !== 1) throw new AppError("conflict", INVITATION_FOR_DEACTIVATED);
      if (row.password_hash) throw new AppError("conflict", INVITATION_ALREADY_ACCEPTED);
      const site = await deps.settings.getAll();
      const expiresAt = await deps.transaction(async (trx) => {
        const until = await send(row, context, site, trx);
        await deps.audit?.record(
          {
            action: "invitation_sent",
            entity: "user",
            entityId: row.id,
            summary: `A new invitation sent to ${row.email}`,
          },
          trx,
        );
        return until;
      });
      deps.mail.deliverSoon();
      return toAdminUser({ ...row, invitation_expires_at: expiresAt });
    },

    /** Who a link invites, for the welcome page; null once it cannot be used. */
    async describe(token: string | null | undefined): Promise<{ first_name: string; email: string } | null> {
      const found = await usable(token);
      return found ? { first_name: found.first_name, email: found.email } : null;
    },

    /** Sets the invited user's first password; answers their id, to sign them in. */
    async accept(input: TokenPassword): Promise<number> {
      const found = await usable(input.token);
      if (!found) throw invalidInput({ token: [INVITATION_LINK_INVALID] });
      const checked = parseOrThrow(newPasswordSchema(found.email), input);
      const now = clock().toISOString();
      const passwordHash = await hashPassword(checked.password);
      // The link is spent only together with the password it set.
      await deps.transaction(async (trx) => {
        if (!(await createTokensRepository(trx).consume(found.id, now))) {
          throw invalidInput({ token: [INVITATION_LINK_INVALID] });
        }
        // A password chosen meanwhile through a reset link is kept: the invitation has served its purpose.
        if (!(await createUsersRepository(trx, deps.dialect).setFirstPassword(found.user_id, passwordHash, now))) {
          throw invalidInput({ token: [INVITATION_LINK_INVALID] });
        }
      });
      return found.user_id;
    },
  };
}
export type InvitationService = ReturnType<typeof createInvitationService>;
