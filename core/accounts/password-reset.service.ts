import { setTimeout as sleep } from "node:timers/promises";
import type { Kysely } from "kysely";
import type { Dialect } from "../../db/connect";
import type { Database } from "../../db/types";
import { addSeconds, type Clock } from "../../lib/clock";
import { hashPassword } from "../../lib/password";
import { hashToken, newToken } from "../../lib/tokens";
import { invalidInput, isEmailAddress, parseOrThrow } from "../../lib/validation";
import type { AuditService } from "../audit/audit.service";
import type { MailService } from "../mail/mail.service";
import type { RateLimitService } from "../rate-limit/rate-limit.service";
import type { SettingsService } from "../settings/settings.service";
import type { TokenPassword } from "./password.schema";
import { RESET_LINK_INVALID } from "./password-reset.schema";
import { newPasswordSchema } from "./password-rules";
import { createTokensRepository, type TokensRepository } from "./tokens.repository";
import { createUsersRepository, type UsersRepository } from "./users.repository";

export const RESET_TOKEN_SECONDS = 60 * 60;
/**
 * A request for a link answers after at least this long, whether the address
 * belongs to an account (a token, a queued mail: a few writes) or not (one
 * read), so that the answer's timing does not tell which (decision 0017).
 */
export const RESET_REQUEST_MIN_MS = 200;
export const RESET_LIMITS = {
  perIp: { max: 10, windowSeconds: 3600 },
  perAddress: { max: 3, windowSeconds: 3600 },
};

/**
 * Forgotten passwords: a single-use, hashed, 60-minute token mailed as a link;
 * the same answer for known and unknown addresses; all sessions end on reset.
 */
export function createPasswordResetService(deps: {
  users: UsersRepository;
  tokens: TokensRepository;
  mail: MailService;
  settings: SettingsService;
  rateLimit: RateLimitService;
  revokeSessions: (userId: number, trx?: Kysely<Database>) => Promise<void>;
  /** Runs work in one transaction (the writes of a link sent, of a password reset). */
  transaction: <T>(work: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;
  dialect: Dialect;
  clock: Clock;
  /** A password set with a reset link is a security event (decision 0074). */
  audit?: AuditService;
}) {
  const { users, tokens, mail, clock } = deps;

  /** A new link for an active account, mailed; its earlier links stop working. */
  async function sendLink(user: { id: number; email: string; first_name: string }, origin: string) {
    const now = clock();
    const token = newToken();
    const site = await deps.settings.getAll();
    const link = `${origin}/reset-password?token=${token}`;
    await deps.transaction(async (trx) => {
      const tokensInTx = createTokensRepository(trx);
      await tokensInTx.retireForUser(user.id, "password_reset", now.toISOString());
      await tokensInTx.insert({
        user_id: user.id,
        kind: "password_reset",
        token_hash: hashToken(token),
        expires_at: addSeconds(now, RESET_TOKEN_SECONDS).toISOString(),
        created_at: now.toISOString(),
      });
      await mail.enqueue(
        [
          {
            join_request_id: null,
            purpose: "password_reset",
            to_address: user.email,
            reply_to: site["site.email"] || null,
            subject: `Choose a new password for ${site["site.name"]}`,
            body_text: `Dear ${user.first_name},\n\nSomeone, probably you, asked to choose a new password for your account at ${site["site.name"]}. Open this link within 60 minutes to do so:\n\n${link}\n\nThe link works once. If you did not ask for it, ignore this e-mail: your password stays as it is.\n\nKind regards,\n${site["site.name"]}`,
          },
        ],
        trx,
      );
    });
    mail.deliverSoon();
  }

  return {
    /**
     * Mails a link when the address is an active account's; says nothing either
     * way, and takes the same time either way (at least RESET_REQUEST_MIN_MS).
     */
    async request(sentEmail: string, context: { ip: string; origin: string }): Promise<void> {
      const email = sentEmail.trim().toLowerCase();
      if (!email) {
        throw invalidInput({ email: ["Email is required."] });
      }
      if (email.length > 254 || !isEmailAddress(email)) {
        throw invalidInput({ email: ["Email is not valid."] });
      }
      const started = performance.now();
      try {
        const message = "Too many requests. Please try again later.";
        await deps.rateLimit.consume({ key: `reset:ip:${context.ip}`, ...RESET_LIMITS.perIp }, message);
        await deps.rateLimit.consume({ key: `reset:address:${email}`, ...RESET_LIMITS.perAddress }, message);
        const user = await users.findByEmail(email);
        if (user?.is_active) await sendLink(user, context.origin);
      } finally {
        await sleep(Math.max(0, started + RESET_REQUEST_MIN_MS - performance.now()));
      }
    },

    /** Whether a link can still be used, to show the form or say at once that it expired. */
    async isUsable(token: string): Promise<boolean> {
      if (!token || token.length > 200) return false;
      return Boolean(await tokens.findUsable(hashToken(token), "password_reset", clock().toISOString()));
    },

    async reset(input: TokenPassword): Promise<void> {
      const { token } = input;
      const now = clock().toISOString();
      const found =
        token && token.length <= 200 ? await tokens.findUsable(hashToken(token), "password_reset", now) : undefined;
      if (!found?.is_active) {
        throw invalidInput({ token: [RESET_LINK_INVALID] });
      }
      const checked = parseOrThrow(newPasswordSchema(found.email), input);
      const passwordHash = await hashPassword(checked.password);
      // The link is spent, the password set, every session and the calendar address ended together, or none of it.
      await deps.transaction(async (trx) => {
        if (!(await createTokensRepository(trx).consume(found.id, now))) {
          throw invalidInput({ token: [RESET_LINK_INVALID] });
        }
        await createUsersRepository(trx, deps.dialect).setPassword(found.user_id, passwordHash, now);
        await deps.revokeSessions(found.user_id, trx);
        await deps.audit?.record(
          {
            action: "password_changed",
            entity: "user",
            entityId: found.user_id,
            summary: `Password set with a reset link sent to ${found.email}`,
            actor: { userId: found.user_id, name: found.email, ip: null },
          },
          trx,
        );
      });
    },
  };
}
export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
