import type { Kysely } from "kysely";
import type { Dialect } from "../../db/connect";
import type { Database, UserRow } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { AppError } from "../../lib/errors";
import { removeAvatarFiles, storeAvatar } from "../../lib/images";
import { hashPassword, verifyPassword } from "../../lib/password";
import type { FileStorage } from "../../lib/storage";
import { hashToken, newToken } from "../../lib/tokens";
import { uploadUrl } from "../../lib/uploads";
import { invalidInput, validate } from "../../lib/validation";
import type { AuditService } from "../audit/audit.service";
import type { MailService } from "../mail/mail.service";
import type { RateLimitService } from "../rate-limit/rate-limit.service";
import type { SettingsService } from "../settings/settings.service";
import type { PublicUser } from "./accounts.schema";
import { toPublicUser } from "./accounts.schema";
import { newPasswordSchema } from "./password-rules";
import { CURRENT_PASSWORD_REQUIRED, CURRENT_PASSWORD_WRONG, EMAIL_TAKEN, type ProfileInput } from "./profile.schema";
import { createTokensRepository } from "./tokens.repository";
import { createUsersRepository, type FeedTokenColumn, type UsersRepository } from "./users.repository";

const CHECK_LIMIT = { max: 10, windowSeconds: 15 * 60 };

/** A saved profile change: the user as it now is, and whether a new password ended their private calendar address. */
export type ProfileUpdate = { user: PublicUser; endedCalendarFeed: boolean };

/**
 * A member's own profile and password (SPEC §4 'Profile update', §7 'Profile'). What would let
 * someone holding only a session or a Bearer token take the account over (the e-mail address,
 * the password, a private calendar address) needs the current password too (decision 0035).
 */
export function createProfileService(deps: {
  users: UsersRepository;
  storage: FileStorage;
  rateLimit: RateLimitService;
  mail: MailService;
  settings: SettingsService;
  /** Ends the user's sessions but one, inside the caller's transaction. */
  revokeOtherSessions: (userId: number, keepSessionId: number, trx: Kysely<Database>) => Promise<void>;
  /** Runs work in one transaction (a profile change with its ended sessions and its notice). */
  transaction: <T>(work: (trx: Kysely<Database>) => Promise<T>) => Promise<T>;
  dialect: Dialect;
  clock: Clock;
  /** Password and e-mail changes are security events (decision 0074); a profile change is a write. */
  audit?: AuditService;
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

  /**
   * The current password, for a change that needs it: a 422 on `password` when it is missing
   * or wrong. Counted against the same budget as checkValidPass, else this would be the way to guess.
   */
  async function requireCurrentPassword(row: UserRow, password: string | undefined): Promise<void> {
    if (!password) throw invalidInput({ password: [CURRENT_PASSWORD_REQUIRED] });
    await checkLimit(row.id);
    if (password.length > 200 || !(await verifyPassword(row.password_hash ?? "", password))) {
      throw invalidInput({ password: [CURRENT_PASSWORD_WRONG] });
    }
  }

  /**
   * A private feed at a secret address (the calendar's, issue 13; the library's, issue 33): only
   * the token's hash is kept in its column, a new one needs the current password and ends the old
   * one, and the owner is the active user it belongs to (a new password or a deactivation clears it).
   */
  function privateFeed(column: FeedTokenColumn) {
    return {
      async renew(userId: number, currentPassword: string | undefined): Promise<string> {
        await requireCurrentPassword(await currentUser(userId), currentPassword);
        const token = newToken();
        await users.update(userId, { [column]: hashToken(token), updated_at: clock().toISOString() });
        return token;
      },
      async end(userId: number): Promise<void> {
        await currentUser(userId);
        await users.update(userId, { [column]: null, updated_at: clock().toISOString() });
      },
      async has(userId: number): Promise<boolean> {
        return (await currentUser(userId))[column] !== null;
      },
      async owner(token: string): Promise<{ id: number; role: UserRow["role"] } | null> {
        if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
        const row = await users.findByFeedToken(column, hashToken(token));
        return row ? { id: row.id, role: row.role } : null;
      },
    };
  }
  const calendarFeed = privateFeed("calendar_token_hash");
  const libraryFeed = privateFeed("library_feed_token_hash");

  /** The new password's rules, as the profile's fields name them; empty when it keeps them. */
  function newPasswordErrors(input: ProfileInput, email: string): Record<string, string[]> {
    const rules = validate(newPasswordSchema(email), {
      password: input.new_password,
      password_confirmation: input.confirm_new_password,
    });
    if (rules.success) return {};
    return Object.fromEntries(
      Object.entries(rules.errors).map(([field, messages]) => [
        field === "password" ? "new_password" : "confirm_new_password",
        messages,
      ]),
    );
  }

  /**
   * The notice to the address an account had, queued in the transaction that changes it; the site's
   * settings are read before it (on SQLite the transaction holds the one connection).
   */
  async function emailChangedNotice(
    row: UserRow,
    newEmail: string,
    site: Awaited<ReturnType<SettingsService["getAll"]>>,
    trx: Kysely<Database>,
  ) {
    const contact = site["site.email"] ? ` at ${site["site.email"]}` : "";
    await deps.mail.enqueue(
      [
        {
          join_request_id: null,
          purpose: "email_changed",
          to_address: row.email,
          reply_to: site["site.email"] || null,
          subject: `The e-mail address of your account at ${site["site.name"]} was changed`,
          body_text: `Dear ${row.first_name},\n\nThe e-mail address of your account at ${site["site.name"]} was changed from ${row.email} to ${newEmail} on ${clock().toISOString().slice(0, 16).replace("T", " ")} UTC. Mail for the account, password reset links included, now goes to the new address.\n\nIf you made this change, there is nothing more to do. If you did not, someone else knows your password: contact us${contact} at once, and we will give the account back to you.\n\nKind regards,\n${site["site.name"]}`,
        },
      ],
      trx,
    );
  }

  return {
    /**
     * Changes the fields sent (an empty name or e-mail address is left as it is, an empty phone
     * number removed). A new e-mail address or password needs the current password; a new
     * password ends the user's other sessions and their private calendar address, and a new
     * e-mail address is told to the old one, in the same transaction as the change.
     */
    async update(userId: number, sessionId: number, input: ProfileInput): Promise<ProfileUpdate> {
      const row = await currentUser(userId);
      const email = input.email?.toLowerCase();
      const emailChanges = email !== undefined && email !== row.email;
      const passwordChanges = Boolean(input.new_password || input.confirm_new_password);
      // A new password that breaks the rules is refused before the current one is checked: the cheaper
      // refusal first, no Argon2 work (nor a try of the per-user budget) for a change that cannot happen.
      if (passwordChanges) {
        const errors = newPasswordErrors(input, email ?? row.email);
        if (Object.keys(errors).length > 0) {
          // Every field to fix at once: a missing current password is known without any hashing.
          throw invalidInput(input.password ? errors : { ...errors, password: [CURRENT_PASSWORD_REQUIRED] });
        }
      }
      if (emailChanges || passwordChanges) await requireCurrentPassword(row, input.password);
      if (emailChanges) {
        const other = await users.findByEmail(email);
        if (other && other.id !== row.id) throw invalidInput({ email: [EMAIL_TAKEN] });
      }
      const passwordHash = passwordChanges ? await hashPassword(input.new_password) : undefined;
      const now = clock().toISOString();
      // The site's settings for the notice are read before the transaction (on SQLite it holds the one connection).
      const notice = emailChanges ? { email, site: await deps.settings.getAll() } : null;
      const updated = await deps.transaction(async (trx) => {
        const changed = await createUsersRepository(trx, deps.dialect).update(row.id, {
          ...(input.first_name ? { first_name: input.first_name } : {}),
          ...(input.last_name ? { last_name: input.last_name } : {}),
          ...(notice ? { email: notice.email } : {}),
          ...(input.phone_number !== undefined ? { phone_number: input.phone_number } : {}),
          // A new password ends what the old one let anyone open: the other sessions and the private feeds.
          ...(passwordHash
            ? { password_hash: passwordHash, calendar_token_hash: null, library_feed_token_hash: null }
            : {}),
          updated_at: now,
        });
        if (passwordHash) await deps.revokeOtherSessions(row.id, sessionId, trx);
        const fields = (u: typeof row) => ({
          first_name: u.first_name,
          last_name: u.last_name,
          email: u.email,
          phone_number: u.phone_number,
        });
        const action = passwordHash ? "password_changed" : notice ? "email_changed" : "update";
        const what = {
          password_changed: "changed their password",
          email_changed: "changed their e-mail address",
          update: "changed their profile",
        }[action];
        await deps.audit?.record(
          {
            action,
            entity: "user",
            entityId: row.id,
            summary: `${[row.first_name, row.last_name, what].filter(Boolean).join(" ")}`,
            before: fields(row),
            after: { ...fields(changed), ...(passwordHash ? { password: "(new)" } : {}) },
          },
          trx,
        );
        if (notice) {
          await emailChangedNotice(row, notice.email, notice.site, trx);
          // A reset link mailed to the old address before the change stops working.
          await createTokensRepository(trx).retireForUser(row.id, "password_reset", now);
        }
        return changed;
      });
      if (notice) deps.mail.deliverSoon();
      return {
        user: toPublicUser(updated),
        endedCalendarFeed: passwordHash !== undefined && row.calendar_token_hash !== null,
      };
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

    /**
     * A new secret address for the member's private calendar feed (issue 13): only its hash is
     * kept, so the address is shown once, when made; making a new one ends the old one. It needs the
     * current password: the address reads members-only meetings without any session.
     */
    renewCalendarToken: calendarFeed.renew,
    /** Ends the private calendar feed: its address stops working. */
    endCalendarFeed: calendarFeed.end,
    /** Whether the member has a private calendar feed (its address cannot be shown again). */
    hasCalendarFeed: calendarFeed.has,
    /** The signed-in-like reader of a private feed: the active user whose token it is, or null. */
    calendarFeedOwner: calendarFeed.owner,

    /**
     * A new secret address for the member's private feed of the library categories they follow
     * (issue 33), as the calendar's: only its hash is kept, it needs the current password, and a new
     * one (or a new password) ends the old one.
     */
    renewLibraryFeedToken: libraryFeed.renew,
    endLibraryFeed: libraryFeed.end,
    hasLibraryFeed: libraryFeed.has,
    /** The reader of a private library feed: the active user whose token it is, or null. */
    libraryFeedOwner: libraryFeed.owner,

    /** Whether the current password is right; rate limited per user, and says nothing more. */
    async checkPassword(userId: number, password: string): Promise<boolean> {
      await checkLimit(userId);
      if (password === "" || password.length > 200) return false;
      const row = await currentUser(userId);
      return verifyPassword(row.password_hash ?? "", password);
    },
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
