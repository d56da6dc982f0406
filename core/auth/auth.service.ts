import type { UserRow } from "../../db/types";
import { addSeconds, type Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { hashToken, newToken } from "../../lib/tokens";
import { parseOrThrow } from "../../lib/validation";
import type { PublicUser } from "../accounts/accounts.schema";
import { toPublicUser } from "../accounts/accounts.service";
import type { RateLimitService } from "../rate-limit/rate-limit.service";
import type { AuthRepository } from "./auth.repository";
import { LOGIN_FAILED_MESSAGE, type LoginInput, loginSchema } from "./auth.schema";
import { dummyPasswordHash, verifyPassword } from "./password";

/** A session without 'Remember me' ends with the browser and, server-side, after 12 hours. */
export const SHORT_SESSION_SECONDS = 12 * 3600;
export const LOGIN_LIMITS = {
  perAccount: { max: 5, windowSeconds: 15 * 60 },
  perIp: { max: 30, windowSeconds: 15 * 60 },
};

export type Authenticated = {
  user: PublicUser;
  sessionId: number;
  expiresAt: string;
  remember: boolean;
};

export type LoginResult = Authenticated & { token: string };

export function createAuthService(deps: {
  repository: AuthRepository;
  rateLimit: RateLimitService;
  clock: Clock;
  sessionTtlSeconds: number;
}) {
  const { repository, rateLimit, clock } = deps;

  const loginLimits = (email: string, ip: string) => [
    { key: `login:account:${email}`, ...LOGIN_LIMITS.perAccount },
    { key: `login:ip:${ip}`, ...LOGIN_LIMITS.perIp },
  ];

  async function startSession(
    user: UserRow,
    remember: boolean,
    client: { ip: string; userAgent?: string | null },
  ): Promise<LoginResult> {
    const now = clock();
    const expiresAt = addSeconds(now, remember ? deps.sessionTtlSeconds : SHORT_SESSION_SECONDS).toISOString();
    const token = newToken();
    await repository.deleteExpiredForUser(user.id, now.toISOString());
    const session = await repository.insertSession({
      user_id: user.id,
      token_hash: hashToken(token),
      remember: remember ? 1 : 0,
      expires_at: expiresAt,
      created_at: now.toISOString(),
      ip: client.ip,
      user_agent: client.userAgent?.slice(0, 400) ?? null,
    });
    return { token, user: toPublicUser(user), sessionId: session.id, expiresAt, remember };
  }

  return {
    /**
     * Checks the credentials and opens a session. An unknown e-mail, a wrong
     * password and a deactivated account all give the same 401 after the same
     * amount of work, so that the answer reveals nothing about accounts.
     */
    async login(input: LoginInput, client: { ip: string; userAgent?: string | null }): Promise<LoginResult> {
      const parsed = parseOrThrow(loginSchema, input);
      const email = parsed.email.toLowerCase();
      const limits = loginLimits(email, client.ip);
      await rateLimit.assertNotLimited(limits, "Too many login attempts. Please try again later.");

      const user = await repository.findUserByEmail(email);
      const passwordOk = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), parsed.password);
      if (!user?.password_hash || !passwordOk || user.is_active !== 1) {
        await rateLimit.record(limits);
        throw new AppError("unauthorized", LOGIN_FAILED_MESSAGE);
      }
      await rateLimit.reset(limits[0].key);

      return startSession(user, parsed.remember, client);
    },

    /**
     * Signs in an account that has just proved itself another way (an
     * accepted invitation), for the browser session only.
     */
    async openSession(userId: number, client: { ip: string; userAgent?: string | null }): Promise<LoginResult> {
      const user = await repository.findUserById(userId);
      if (!user?.password_hash || user.is_active !== 1) throw new AppError("unauthorized", LOGIN_FAILED_MESSAGE);
      return startSession(user, false, client);
    },

    /** The signed-in user for a token, or null when it is unknown, expired or revoked. */
    async authenticate(token: string | null | undefined): Promise<Authenticated | null> {
      if (!token || token.length > 200) return null;
      const row = await repository.findActive(hashToken(token), clock().toISOString());
      if (!row) return null;
      const { session_id, session_expires_at, session_remember, ...user } = row;
      return {
        user: toPublicUser(user),
        sessionId: session_id,
        expiresAt: session_expires_at,
        remember: session_remember === 1,
      };
    },

    async logout(token: string | null | undefined): Promise<void> {
      if (token) await repository.deleteByTokenHash(hashToken(token));
    },

    /** Ends every session of a user (password change, deactivation), optionally keeping one. */
    async revokeUserSessions(userId: number, exceptSessionId?: number): Promise<void> {
      await repository.deleteForUser(userId, exceptSessionId);
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
