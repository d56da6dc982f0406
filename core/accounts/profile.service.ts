import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { removeAvatarFiles, storeAvatar } from "../../lib/images";
import { hashPassword, verifyPassword } from "../../lib/password";
import type { FileStorage } from "../../lib/storage";
import { hashToken, newToken } from "../../lib/tokens";
import { uploadUrl } from "../../lib/uploads";
import { invalidInput, validate } from "../../lib/validation";
import type { RateLimitService } from "../rate-limit/rate-limit.service";
import type { PublicUser } from "./accounts.schema";
import { toPublicUser } from "./accounts.schema";
import { newPasswordSchema } from "./password-rules";
import { CURRENT_PASSWORD_WRONG, EMAIL_TAKEN, type ProfileInput } from "./profile.schema";
import type { UsersRepository } from "./users.repository";

const CHECK_LIMIT = { max: 10, windowSeconds: 15 * 60 };

/** A member's own profile and password (SPEC §4 'Profile update', §7 'Profile'). */
export function createProfileService(deps: {
  users: UsersRepository;
  storage: FileStorage;
  rateLimit: RateLimitService;
  revokeOtherSessions: (userId: number, keepSessionId: number) => Promise<void>;
  clock: Clock;
}) {
  const { users, clock } = deps;

  const checkLimit = (userId: number) =>
    deps.rateLimit.consume(
      { key: `check-password:${userId}`, ...CHECK_LIMIT },
      "Too many attempts. Please try again later.",
    );

  async function currentUser(userId: number) {
    const row = await users.findById(userId);
    if (!row) throw new AppError("unauthorized", "Unauthenticated.");
    return row;
  }

  return {
    /**
     * Changes the non-empty fields; a new password needs the current one and
     * ends the user's other sessions.
     */
    async update(userId: number, sessionId: number, input: ProfileInput): Promise<PublicUser> {
      const row = await currentUser(userId);
      const email = input.email?.toLowerCase();
      if (email && email !== row.email) {
        const other = await users.findByEmail(email);
        if (other && other.id !== row.id) throw invalidInput({ email: [EMAIL_TAKEN] });
      }
      let passwordHash: string | undefined;
      if (input.new_password || input.confirm_new_password) {
        // The same budget as checkValidPass: otherwise this route would be the way to guess.
        await checkLimit(userId);
        if (!input.password || !(await verifyPassword(row.password_hash ?? "", input.password))) {
          throw invalidInput({ password: [CURRENT_PASSWORD_WRONG] });
        }
        const rules = validate(newPasswordSchema(email ?? row.email), {
          password: input.new_password,
          password_confirmation: input.confirm_new_password,
        });
        if (!rules.success) {
          throw invalidInput(
            Object.fromEntries(
              Object.entries(rules.errors).map(([field, messages]) => [
                field === "password" ? "new_password" : "confirm_new_password",
                messages,
              ]),
            ),
          );
        }
        passwordHash = await hashPassword(input.new_password);
      }
      const updated = await users.update(row.id, {
        ...(input.first_name ? { first_name: input.first_name } : {}),
        ...(input.last_name ? { last_name: input.last_name } : {}),
        ...(email ? { email } : {}),
        ...(input.phone_number ? { phone_number: input.phone_number } : {}),
        ...(passwordHash ? { password_hash: passwordHash } : {}),
        updated_at: clock().toISOString(),
      });
      if (passwordHash) await deps.revokeOtherSessions(row.id, sessionId);
      return toPublicUser(updated);
    },

    /** A new avatar (answers its address); the previous one's files are removed. */
    async setAvatar(userId: number, data: Uint8Array | undefined): Promise<string> {
      if (!data) throw invalidInput({ avatar: ["Choose an image."] });
      const row = await currentUser(userId);
      const stored = await storeAvatar(deps.storage, "avatars", data);
      const avatar = uploadUrl(stored.key);
      try {
        await users.update(row.id, { avatar, updated_at: clock().toISOString() });
      } catch (error) {
        // The account went away during the upload: its new files go too.
        await removeAvatarFiles(deps.storage, avatar);
        throw error;
      }
      await removeAvatarFiles(deps.storage, row.avatar);
      return avatar;
    },

    /** Back to initials. */
    async removeAvatar(userId: number): Promise<void> {
      const row = await currentUser(userId);
      await users.update(row.id, { avatar: null, updated_at: clock().toISOString() });
      await removeAvatarFiles(deps.storage, row.avatar);
    },

    /** Whether the current password is right; rate limited per user, and says nothing more. */
    /**
     * A new secret address for the member's private calendar feed (issue 13): only its hash is
     * kept, so the address is shown once, when made; making a new one ends the old one.
     */
    async renewCalendarToken(userId: number): Promise<string> {
      await currentUser(userId);
      const token = newToken();
      await users.update(userId, { calendar_token_hash: hashToken(token), updated_at: clock().toISOString() });
      return token;
    },

    /** Ends the private calendar feed: its address stops working. */
    async endCalendarFeed(userId: number): Promise<void> {
      await currentUser(userId);
      await users.update(userId, { calendar_token_hash: null, updated_at: clock().toISOString() });
    },

    /** Whether the member has a private calendar feed (its address cannot be shown again). */
    async hasCalendarFeed(userId: number): Promise<boolean> {
      return (await currentUser(userId)).calendar_token_hash !== null;
    },

    /** The signed-in-like reader of a private feed: the active user whose token it is, or null. */
    async calendarFeedOwner(token: string): Promise<{ id: number } | null> {
      if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
      const row = await users.findByCalendarToken(hashToken(token));
      return row ? { id: row.id } : null;
    },

    async checkPassword(userId: number, password: string): Promise<boolean> {
      await checkLimit(userId);
      if (password === "" || password.length > 200) return false;
      const row = await currentUser(userId);
      return verifyPassword(row.password_hash ?? "", password);
    },
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
