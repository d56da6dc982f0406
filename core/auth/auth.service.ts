import type { Kysely } from "kysely";
import { groupIdsFromText } from "../../db/queries";
import type { Database, UserRow } from "../../db/types";
import { addSeconds, type Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { createLogger, type Logger } from "../../lib/logger";
import { dummyPasswordHash, verifyPassword } from "../../lib/password";
import { hashToken, newToken } from "../../lib/tokens";
import { hasMembersAccess, managesContent, type RoleName, type UserCompany } from "../access/access";
import { type PublicUser, toPublicUser } from "../accounts/accounts.schema";
import type { AuditService } from "../audit/audit.service";
import type { Limit, RateLimitService, Taken } from "../rate-limit/rate-limit.service";
import { type AuthRepository, createAuthRepository } from "./auth.repository";
import { LOGIN_FAILED_MESSAGE, type LoginInput } from "./auth.schema";
import { CODE_WRONG, PASSKEY_SIGN_IN_FAILED, TWO_FACTOR_EXPIRED } from "./auth.values";
import type { TwoFactorService } from "./two-factor.service";

/** A session without 'Remember me' ends with the browser and, server-side, after 12 hours (or SESSION_TTL if shorter). */
export const SHORT_SESSION_SECONDS = 12 * 3600;
/**
 * How long a session lives without a request: a member's and an admin's without 'Remember me'
 * (SESSION_IDLE_TIMEOUT, SESSION_ADMIN_IDLE_TIMEOUT), and anyone's with it (SESSION_REMEMBER_IDLE_TIMEOUT).
 */
export type IdleSeconds = { short: number; admin: number; remembered: number };
/** The defaults (decision 0035): an admin's session can change everything, so it ends soonest. */
export const DEFAULT_IDLE_SECONDS: IdleSeconds = { short: 2 * 3600, admin: 30 * 60, remembered: 14 * 86400 };
/**
 * last_seen_at is written at most this often, so that a busy session costs one
 * write a minute, not one per request; an idle session may end up to this much early.
 */
export const TOUCH_INTERVAL_SECONDS = 60;
export const LOGIN_LIMITS = {
  perAccount: { max: 5, windowSeconds: 15 * 60 },
  perIp: { max: 30, windowSeconds: 15 * 60 },
};

/** A session and its user. */
export type Session = {
  user: PublicUser;
  sessionId: number;
  expiresAt: string;
  remember: boolean;
};

/** The signed-in caller of a request: the session, and the company they represent (core/access/access.ts decides from both). */
export type Authenticated = Session & {
  company: UserCompany | null;
  /** The working groups the person is in (ids, ascending; issue 36). */
  groups: number[];
  /** Those they chair (ids, ascending). */
  chairs: number[];
  /**
   * An admin who must turn on two-factor sign-in before anything else of the admin area (the site
   * setting security.admin_two_factor, decision 0075); absent for everyone else.
   */
  twoFactorSetupRequired?: boolean;
};

export type LoginResult = Session & { token: string };

/** A sign-in's first step: a session, or (two-factor sign-in, decision 0075) the challenge of its second step. */
export type SignInResult =
  | { kind: "session"; session: LoginResult }
  | {
      kind: "two_factor";
      challenge: string;
      expiresAt: string;
      /** WebAuthn options when the account has passkeys (decision 0076), else null. */
      passkey: Awaited<ReturnType<TwoFactorService["challenge"]>>["passkey"];
    };

export { TWO_FACTOR_EXPIRED };

/** Who is signing in: the address for rate limits and logs, and the request's id to find its log line. */
export type LoginClient = { ip: string; userAgent?: string | null; requestId?: string };

export function createAuthService(deps: {
  repository: AuthRepository;
  rateLimit: RateLimitService;
  clock: Clock;
  /** The longest any session lives (SESSION_TTL); a remembered one lives exactly this long unless idle. */
  sessionTtlSeconds: number;
  idleSeconds?: IdleSeconds;
  /** Security events (failed and refused sign-ins) as structured lines. */
  logger?: Logger;
  /**
   * The earliest renews_on of a current company today (core/members/membership-day.ts); without
   * one (tools that only sign in), today in UTC with no grace.
   */
  membershipCutoff?: () => Promise<string>;
  /** Sign-ins, failed sign-ins and lockouts are audit rows too (decision 0074). */
  audit?: AuditService;
  /** Two-factor sign-in (decision 0075): read when a sign-in needs it. */
  twoFactor?: () => TwoFactorService;
  /** Whether admins must use two-factor sign-in (the site setting security.admin_two_factor). */
  adminTwoFactorRequired?: () => Promise<boolean>;
}) {
  const { repository, rateLimit, clock } = deps;
  /** A security event in the audit log, as the account it names (or the address alone). */
  const audited = (
    action: string,
    user: { id: number; first_name: string; last_name: string; email: string } | undefined,
    ip: string,
    summary: string,
  ) =>
    deps.audit?.record({
      action,
      entity: "session",
      entityId: user?.id ?? null,
      summary,
      actor: user
        ? { userId: user.id, name: `${user.first_name} ${user.last_name}`.trim() || user.email, ip }
        : { userId: null, name: "Unknown account", ip },
    });
  const idle = deps.idleSeconds ?? DEFAULT_IDLE_SECONDS;
  const logger = deps.logger ?? createLogger("silent");
  /** The idle time of a session without 'Remember me', by the role of its user. */
  const shortIdle = (role: RoleName) => (managesContent(role) ? idle.admin : idle.short);

  const loginLimits = (email: string, ip: string) => ({
    account: { key: `login:account:${email}`, ...LOGIN_LIMITS.perAccount },
    ip: { key: `login:ip:${ip}`, ...LOGIN_LIMITS.perIp },
  });

  /**
   * Takes this attempt from the account's and the address's allowance before
   * the password is checked (decision 0031: concurrent attempts through any
   * number of processes check at most the allowance); refuses the sign-in,
   * and logs it, while either is used up.
   */
  async function takeAttempt(
    email: string,
    limits: Record<"account" | "ip", Limit>,
    client: LoginClient,
  ): Promise<Record<"account" | "ip", Taken>> {
    const taken: Partial<Record<"account" | "ip", Taken>> = {};
    for (const scope of ["account", "ip"] as const) {
      try {
        taken[scope] = await rateLimit.take(limits[scope], "Too many login attempts. Please try again later.");
      } catch (error) {
        // Refused: the attempt is not made, so it does not count against the other limit either.
        await taken.account?.release();
        if (error instanceof AppError && error.code === "rate_limited") {
          const user = scope === "account" ? await repository.findUserByEmail(email) : undefined;
          logger.warn(
            {
              event: "sign_in_locked",
              scope,
              user: user?.id,
              ip: client.ip,
              retry_after: error.details.retryAfter,
              req_id: client.requestId,
            },
            "sign-in refused: too many failed attempts",
          );
          await audited(
            "sign_in_locked",
            user,
            client.ip,
            scope === "account"
              ? "Sign-in refused: too many failed attempts on the account"
              : "Sign-in refused: too many failed attempts from this address",
          );
        }
        throw error;
      }
    }
    return taken as Record<"account" | "ip", Taken>;
  }

  /** A new session for a user who proved who they are; logged and audited. */
  async function opened(
    user: UserRow,
    remember: boolean,
    client: LoginClient,
    options: { endingSession?: string | null },
    summary: string,
  ): Promise<LoginResult> {
    // A browser signing in again replaces its session: the earlier one ends rather than lingering.
    if (options.endingSession) await repository.deleteByTokenHash(hashToken(options.endingSession));
    const session = await startSession(user, remember, client);
    // The account's id and the address: with sign_in_failed, an operator sees who got in from where.
    logger.info(
      { event: "sign_in", user: user.id, ip: client.ip, remember: session.remember, req_id: client.requestId },
      "signed in",
    );
    await audited("sign_in", user, client.ip, session.remember ? `${summary} (remembered)` : summary);
    return session;
  }

  async function startSession(user: UserRow, remember: boolean, client: LoginClient): Promise<LoginResult> {
    const now = clock();
    const lifetime = remember ? deps.sessionTtlSeconds : Math.min(SHORT_SESSION_SECONDS, deps.sessionTtlSeconds);
    const expiresAt = addSeconds(now, lifetime).toISOString();
    const token = newToken();
    await repository.deleteExpiredForUser(user.id, now.toISOString(), {
      short: addSeconds(now, -shortIdle(user.role)).toISOString(),
      remembered: addSeconds(now, -idle.remembered).toISOString(),
    });
    const session = await repository.insertSession({
      user_id: user.id,
      token_hash: hashToken(token),
      remember: remember ? 1 : 0,
      expires_at: expiresAt,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      ip: client.ip,
      user_agent: client.userAgent?.slice(0, 400) ?? null,
    });
    return { token, user: toPublicUser(user), sessionId: session.id, expiresAt, remember };
  }

  const service = {
    /**
     * Checks the credentials and opens a session. An unknown e-mail, a wrong
     * password and a deactivated account all give the same 401 after the same
     * amount of work, so that the answer reveals nothing about accounts.
     */
    async signIn(
      input: LoginInput,
      client: LoginClient,
      options: { endingSession?: string | null } = {},
    ): Promise<SignInResult> {
      // Parsed where it arrived (the route's contract, the login form's schema): not again here.
      const email = input.email.toLowerCase();
      const limits = loginLimits(email, client.ip);
      const attempt = await takeAttempt(email, limits, client);

      const user = await repository.findUserByEmail(email);
      const passwordOk = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), input.password);
      if (!user?.password_hash || !passwordOk || user.is_active !== 1) {
        // The attempt taken above is the failure's count.
        // The account's id only: what was typed may be a stranger's address, or a password in the wrong field.
        logger.warn(
          {
            event: "sign_in_failed",
            reason: !user
              ? "unknown_account"
              : user.is_active !== 1
                ? "deactivated"
                : !user.password_hash
                  ? "no_password"
                  : "wrong_password",
            user: user?.id,
            ip: client.ip,
            req_id: client.requestId,
          },
          "sign-in failed",
        );
        await audited(
          "sign_in_failed",
          user,
          client.ip,
          user
            ? user.is_active !== 1
              ? "Failed sign-in: the account is deactivated"
              : "Failed sign-in: wrong password"
            : "Failed sign-in: no account with that address",
        );
        throw new AppError("unauthorized", LOGIN_FAILED_MESSAGE);
      }
      // Two-factor sign-in (decision 0075): the password was right, the second step is asked for. The
      // attempt is given back, but the account's earlier failures stand until the code is right too.
      const twoFactor = deps.twoFactor?.();
      if (twoFactor && (await twoFactor.isEnabled(user.id))) {
        await attempt.account.release();
        await attempt.ip.release();
        const { challenge, expires_at, passkey } = await twoFactor.challenge(user.id, input.remember ?? false);
        return { kind: "two_factor", challenge, expiresAt: expires_at, passkey };
      }
      // Success clears the account's failures and does not count against the address.
      await rateLimit.reset(limits.account.key);
      await attempt.ip.release();
      return { kind: "session", session: await opened(user, input.remember ?? false, client, options, "Signed in") };
    },

    /**
     * Signs in with the password alone: tools, tests and the invitation's flow. An account with
     * two-factor sign-in is refused here; the sign-in form and the API take its second step.
     */
    async login(
      input: LoginInput,
      client: LoginClient,
      options: { endingSession?: string | null } = {},
    ): Promise<LoginResult> {
      const result = await service.signIn(input, client, options);
      if (result.kind === "session") return result.session;
      throw new AppError("unauthorized", "This account signs in with a second factor: use the sign-in form.");
    },

    /**
     * The second step (decision 0075): the challenge of a right password and a code of the app or a
     * recovery code. Wrong codes count toward the account's lockout like wrong passwords; the
     * challenge lasts five minutes and is spent by the right code.
     */
    async completeTwoFactor(
      input: { challenge: string; code?: string; passkey?: unknown },
      client: LoginClient,
      options: { endingSession?: string | null } = {},
    ): Promise<LoginResult> {
      const twoFactor = deps.twoFactor?.();
      const open = twoFactor ? await twoFactor.openChallenge(input.challenge) : null;
      const user = open ? await repository.findUserById(open.user_id) : undefined;
      if (!twoFactor || !open || !user || user.is_active !== 1) {
        throw new AppError("unauthorized", TWO_FACTOR_EXPIRED);
      }
      const limits = loginLimits(user.email, client.ip);
      const attempt = await takeAttempt(user.email, limits, client);
      // A passkey's answer (decision 0076) or a code: either is the second factor.
      const byPasskey = input.passkey !== undefined;
      const right = byPasskey
        ? await twoFactor.verifyPasskey(open, input.passkey)
        : await twoFactor.verify(user.id, input.code ?? "");
      if (!right) {
        logger.warn(
          {
            event: "sign_in_failed",
            reason: byPasskey ? "wrong_passkey" : "wrong_code",
            user: user.id,
            ip: client.ip,
            req_id: client.requestId,
          },
          "sign-in failed",
        );
        await audited(
          "sign_in_failed",
          user,
          client.ip,
          byPasskey ? "Failed sign-in: passkey not accepted" : "Failed sign-in: wrong second-factor code",
        );
        throw new AppError("unauthorized", byPasskey ? PASSKEY_SIGN_IN_FAILED : CODE_WRONG);
      }
      if (!(await twoFactor.spendChallenge(open.id))) throw new AppError("unauthorized", TWO_FACTOR_EXPIRED);
      await rateLimit.reset(limits.account.key);
      await attempt.ip.release();
      return opened(
        user,
        open.remember,
        client,
        options,
        byPasskey ? "Signed in with a passkey" : "Signed in with a second factor",
      );
    },

    /**
     * Signs in an account that has just proved itself another way (an
     * accepted invitation), for the browser session only.
     */
    async openSession(userId: number, client: LoginClient): Promise<LoginResult> {
      const user = await repository.findUserById(userId);
      if (!user?.password_hash || user.is_active !== 1) throw new AppError("unauthorized", LOGIN_FAILED_MESSAGE);
      return startSession(user, false, client);
    },

    /**
     * The signed-in user for a token, or null when it is unknown, expired,
     * revoked or idle for longer than its idle timeout (then it ends for good).
     */
    async authenticate(token: string | null | undefined): Promise<Authenticated | null> {
      if (!token || token.length > 200) return null;
      const now = clock();
      const cutoff = deps.membershipCutoff ? await deps.membershipCutoff() : now.toISOString().slice(0, 10);
      const row = await repository.findActive(hashToken(token), now.toISOString(), cutoff);
      if (!row) return null;
      const {
        session_id,
        session_expires_at,
        session_remember,
        session_created_at,
        session_last_seen_at,
        company_id,
        company_name,
        company_primary,
        company_current,
        group_ids,
        chaired_group_ids,
        ...user
      } = row;
      const idleMs = now.getTime() - Date.parse(session_last_seen_at ?? session_created_at);
      // These two writes are housekeeping: when the database cannot write (a full disk) the
      // request still reads as it should, signed out or signed in.
      if (idleMs >= (session_remember === 1 ? idle.remembered : shortIdle(user.role)) * 1000) {
        await repository
          .deleteById(session_id)
          .catch((error) => logger.warn({ err: error }, "idle session not deleted"));
        return null;
      }
      if (idleMs >= TOUCH_INTERVAL_SECONDS * 1000) {
        await repository
          .touch(session_id, now.toISOString())
          .catch((error) => logger.warn({ err: error }, "session activity not recorded"));
      }
      const company: UserCompany | null =
        company_id === null
          ? null
          : {
              id: company_id,
              name: company_name ?? "",
              current: Number(company_current) === 1,
              primary: company_primary === 1,
            };
      const publicUser = toPublicUser(user);
      const chairs = groupIdsFromText(chaired_group_ids);
      // An admin or editor the site asks for two-factor sign-in, without it: sent to set it up
      // (decision 0075); a working group's chair too, who sees the group's registrants (decision
      // 0086), while they have a chair's rights (members' access: a lapsed company's chair has none).
      const asked = managesContent(user.role) || (chairs.length > 0 && hasMembersAccess({ user: publicUser, company }));
      const setupRequired =
        asked && (await deps.adminTwoFactorRequired?.()) === true && !(await deps.twoFactor?.().isEnabled(user.id));
      return {
        ...(setupRequired ? { twoFactorSetupRequired: true } : {}),
        user: publicUser,
        sessionId: session_id,
        expiresAt: session_expires_at,
        remember: session_remember === 1,
        groups: groupIdsFromText(group_ids),
        chairs,
        company,
      };
    },

    async logout(token: string | null | undefined): Promise<void> {
      if (token) await repository.deleteByTokenHash(hashToken(token));
    },

    /**
     * Ends every session of a user (password change, deactivation), optionally
     * keeping one; inside the caller's transaction when it passes one.
     */
    async revokeUserSessions(userId: number, exceptSessionId?: number, trx?: Kysely<Database>): Promise<void> {
      await (trx ? createAuthRepository(trx, repository.dialect) : repository).deleteForUser(userId, exceptSessionId);
    },
  };
  return service;
}
export type AuthService = ReturnType<typeof createAuthService>;
