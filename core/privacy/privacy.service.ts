import type { Readable } from "node:stream";
import type { Kysely } from "kysely";
import type { Database, UserRow } from "../../db/types";
import type { Clock } from "../../lib/clock";
import { AppError, isAppError } from "../../lib/errors";
import { avatarFiles, removeAvatarFiles } from "../../lib/images";
import type { ReadableFileStorage } from "../../lib/storage";
import { uploadKeyOf } from "../../lib/uploads";
import { invalidInput } from "../../lib/validation";
import type { ProfileService } from "../accounts/profile.service";
import type { AuditService } from "../audit/audit.service";
import { CODE_WRONG } from "../auth/auth.values";
import type { TwoFactorService } from "../auth/two-factor.service";
import { waitText } from "../join/join.values";
import type { RegistrationActor, RegistrationsService } from "../join/registrations.service";
import type { RateLimitService } from "../rate-limit/rate-limit.service";
import type { SettingsService } from "../settings/settings.service";
import { anonymiseRequests } from "./anonymise.repository";
import { type ArchiveEntry, dataArchive } from "./data-archive";
import { createPrivacyRepository, type DataSubject } from "./privacy.repository";
import {
  type AccountDelete,
  DELETE_CODE_REQUIRED,
  type Erasure,
  EXPORTS_PER_HOUR,
  LAST_ADMIN_DELETION,
  OWN_ERASURE,
  type PrivacyLookup,
} from "./privacy.schema";

/** Registration states that hold or wait for a seat: cancelled before an erasure, so that the seat is freed. */
const ACTIVE_REGISTRATION = new Set(["pending", "confirmed", "waitlisted"]);
const AUDIT_PAGE = 1000;
const CURRENT_PASSWORD_WRONG = "The password is not right.";

/** An address shown in the audit log once its person is erased: enough to recognise, not to mail. */
export function maskedEmail(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 1)}***@${domain}`;
}

/** What an export is made of, read before the archive starts streaming (so that a failure is still an answer). */
type Gathered = Awaited<ReturnType<ReturnType<typeof createPrivacyRepository>["requests"]>>;

/**
 * A person's data (issue 35, decision 0079): everything the site holds about them as one ZIP, their
 * account deleted at their word, and the secretariat's answer to a request about anyone, found by
 * the address, with or without an account: the same archive, the same erasure.
 */
export function createPrivacyService(deps: {
  db: Kysely<Database>;
  clock: Clock;
  storage: ReadableFileStorage;
  settings: Pick<SettingsService, "getAll">;
  audit: Pick<AuditService, "record">;
  rateLimit: Pick<RateLimitService, "consume">;
  /** Runs work with the active admins' rows locked (the accounts area's users repository): the last admin stays. */
  users: {
    whileAdminsLocked<T>(work: (users: unknown, adminIds: number[], trx: Kysely<Database>) => Promise<T>): Promise<T>;
  };
  profile: Pick<ProfileService, "checkPassword">;
  twoFactor: Pick<TwoFactorService, "isEnabled" | "verify">;
  registrations: Pick<RegistrationsService, "cancel">;
  origin: string;
}) {
  const { db, clock } = deps;
  const repository = createPrivacyRepository(db);

  async function subjectOf(who: { userId: number } | { email: string }): Promise<{
    subject: DataSubject;
    user: UserRow | null;
  }> {
    if ("userId" in who) {
      const user = await repository.userById(who.userId);
      if (!user) throw new AppError("not_found", "User not found.");
      return { subject: { email: user.email, userId: user.id }, user };
    }
    const user = (await repository.userByEmail(who.email)) ?? null;
    return { subject: { email: user?.email ?? who.email.trim(), userId: user?.id ?? null }, user };
  }

  /** The registrations of meetings not yet over that hold or wait for a seat. */
  function upcoming(requests: Gathered) {
    const today = clock().toISOString().slice(0, 10);
    return requests.filter(
      (r) =>
        r.kind === "registration" &&
        r.meeting_id !== null &&
        ACTIVE_REGISTRATION.has(r.registration_status ?? "") &&
        (r.meeting_end ?? r.meeting_start ?? "") >= today,
    );
  }

  /** The archive's files: what was read, and the audit rows, read page by page while the ZIP streams. */
  async function entries(subject: DataSubject, user: UserRow | null): Promise<ArchiveEntry[]> {
    const requests = await repository.requests(subject);
    const ids = requests.map((r) => r.id);
    const [mails, bounce, site] = await Promise.all([
      repository.mails(subject.email, ids),
      repository.bounce(subject.email),
      deps.settings.getAll(),
    ]);
    const files: ArchiveEntry[] = [];
    const listed: string[] = [];
    const add = (entry: ArchiveEntry, what: string) => {
      files.push(entry);
      listed.push(`- ${entry.name}: ${what}`);
    };
    if (user) {
      const [companies, groups, follows, preferences, sessions, twoFactor] = await Promise.all([
        repository.companies(user.id),
        repository.groups(user.id),
        repository.follows(user.id),
        repository.notificationPreferences(user.id),
        repository.sessions(user.id),
        repository.twoFactor(user.id),
      ]);
      add(
        {
          name: "profile.json",
          json: {
            id: user.id,
            first_name: user.first_name,
            last_name: user.last_name,
            email: user.email,
            phone_number: user.phone_number,
            role: user.role,
            active: user.is_active === 1,
            avatar: user.avatar ? `${deps.origin}${user.avatar}` : null,
            private_calendar_address: user.calendar_token_hash !== null,
            private_library_feed: user.library_feed_token_hash !== null,
            two_factor_enabled_at: twoFactor.enabled_at,
            passkeys: twoFactor.passkeys,
            created_at: user.created_at,
            updated_at: user.updated_at,
          },
        },
        "your account: name, address, phone, role, and how you sign in (never the password or secrets themselves)",
      );
      const avatarKey = user.avatar ? avatarFiles(uploadKeyOf(user.avatar)).at(-1) : undefined;
      if (avatarKey && (await deps.storage.stat(avatarKey))) {
        add({ name: "avatar.webp", stream: deps.storage.open(avatarKey) }, "your picture, as the site shows it");
      }
      add(
        {
          name: "companies.json",
          json: companies.map((c) => ({ ...c, is_primary: c.is_primary === 1 })),
        },
        "the member companies you represent",
      );
      add(
        { name: "groups.json", json: groups.map((g) => ({ ...g, is_chair: g.is_chair === 1 })) },
        "the working groups you are in, and those you chair",
      );
      add(
        { name: "notifications.json", json: { settings: preferences ?? null, follows } },
        "what you follow and how you are told of it",
      );
      add(
        { name: "sessions.json", json: sessions.map((s) => ({ ...s, remember: s.remember === 1 })) },
        "your sign-ins still open: when, from which address and browser",
      );
    }
    add(
      { name: "registrations.json", json: requests.filter((r) => r.kind === "registration") },
      "your registrations for meetings",
    );
    add(
      { name: "requests.json", json: requests.filter((r) => r.kind !== "registration") },
      "membership requests and messages sent from this address",
    );
    add(
      { name: "mails.json", json: { mails, refused_for_good: bounce ?? null } },
      "the e-mails the site sent you or is about to send (the outbox), and a permanent refusal of your address if any",
    );
    add({ name: "audit-log.json", rows: auditRows(subject, ids) }, "the audit log's entries about you or made by you");
    const at = clock().toISOString();
    const readme = [
      `Personal data held by ${site["site.name"]} (${deps.origin}) about ${subject.email}`,
      `Exported on ${at} (UTC).`,
      "",
      "Files:",
      ...listed,
      "",
      "Dates and times are in UTC (ISO 8601). Passwords, codes and tokens are stored only as hashes and are not included.",
      site["site.email"]
        ? `To ask for a correction or for erasure, write to ${site["site.email"]}.`
        : "To ask for a correction or for erasure, write to the association's secretariat.",
      "",
    ].join("\n");
    return [{ name: "README.txt", text: readme }, ...files];
  }

  async function* auditRows(subject: DataSubject, ids: readonly number[]): AsyncGenerator<unknown> {
    let after = 0;
    for (;;) {
      const page = await repository.auditPage(subject, ids, after, AUDIT_PAGE);
      for (const row of page) yield { ...row, changes: row.changes ? JSON.parse(row.changes) : null };
      if (page.length < AUDIT_PAGE) return;
      after = page[page.length - 1].id;
    }
  }

  /**
   * The erasure itself: upcoming registrations cancelled (their seats go to the waiting list), then in
   * one transaction the requests anonymised, the mails to the address removed, the bounce mark
   * lifted, the account deleted (its sessions, tokens, feeds, follows, two-factor and company links
   * with it) and the audit row written. The site keeps its last admin.
   */
  async function erase(
    subject: DataSubject,
    user: UserRow | null,
    by: RegistrationActor,
    audit: (counts: Erasure) => Parameters<AuditService["record"]>[0],
  ): Promise<Erasure> {
    if (user) {
      // Refused before anything changes: the last admin stays (checked again, locked, below).
      await deps.users.whileAdminsLocked(async (_users, adminIds) => {
        if (adminIds.length === 1 && adminIds[0] === user.id) throw new AppError("conflict", LAST_ADMIN_DELETION);
      });
    }
    let cancelled = 0;
    for (const registration of upcoming(await repository.requests(subject))) {
      try {
        await deps.registrations.cancel(registration.meeting_id as number, registration.id, by);
        cancelled += 1;
      } catch (error) {
        // Changed meanwhile (cancelled by the secretariat): it is erased all the same.
        if (!isAppError(error)) throw error;
      }
    }
    const counts = await deps.users.whileAdminsLocked(async (_users, adminIds, trx) => {
      if (user && adminIds.length === 1 && adminIds[0] === user.id) throw new AppError("conflict", LAST_ADMIN_DELETION);
      const inTrx = createPrivacyRepository(trx);
      const requests = await inTrx.requests(subject);
      const now = clock().toISOString();
      const erased = await anonymiseRequests(
        trx,
        requests.map((r) => r.id),
        now,
      );
      const mails = await inTrx.removeMailsTo(subject.email);
      await inTrx.removeBounce(subject.email);
      const result: Erasure = {
        account: user !== null,
        requests: erased,
        registrations_cancelled: cancelled,
        mails,
      };
      // Written before the account goes: its actor_id then becomes null, its name stays.
      await deps.audit.record(audit(result), trx);
      if (user) await inTrx.removeUser(user.id);
      return result;
    });
    if (user) await removeAvatarFiles(deps.storage, user.avatar);
    return counts;
  }

  const countsText = (counts: Erasure) =>
    [
      `${counts.requests} ${counts.requests === 1 ? "request" : "requests"} anonymised`,
      ...(counts.registrations_cancelled
        ? [`${counts.registrations_cancelled} upcoming registration(s) cancelled`]
        : []),
      `${counts.mails} ${counts.mails === 1 ? "mail" : "mails"} removed`,
    ].join(", ");

  const service = {
    /** The secretariat's search (issue 35): everything held about an address, with or without an account. */
    async lookup(email: string): Promise<PrivacyLookup> {
      const { subject, user } = await subjectOf({ email });
      const requests = await repository.requests(subject);
      const ids = requests.map((r) => r.id);
      const [mails, bounce, companies, auditEntries] = await Promise.all([
        repository.mails(subject.email, ids),
        repository.bounce(subject.email),
        user ? repository.companies(user.id) : Promise.resolve([]),
        repository.auditCount(subject, ids),
      ]);
      const count = (status: string) => mails.filter((m) => m.status === status).length;
      return {
        email: subject.email,
        account: user
          ? {
              id: user.id,
              name: `${user.first_name} ${user.last_name}`.trim(),
              email: user.email,
              role: user.role,
              created_at: user.created_at,
            }
          : null,
        requests: requests.map((r) => ({
          id: r.id,
          kind: r.kind,
          about: r.meeting_title ?? r.company_name ?? r.subject ?? "",
          state: r.registration_status ?? r.status ?? (r.handled_at ? "handled" : null),
          created_at: r.created_at,
        })),
        mails: {
          waiting: count("pending") + count("sending"),
          sent: count("sent"),
          failed: count("failed"),
          latest: mails
            .slice(-20)
            .reverse()
            .map((m) => ({ id: m.id, subject: m.subject, status: m.status, created_at: m.created_at })),
        },
        bounced: bounce ? { reason: bounce.reason, at: bounce.created_at } : null,
        companies: companies.map((c) => ({ id: c.id, name: c.name })),
        audit_entries: auditEntries,
      };
    },

    /**
     * The ZIP of everything held about a person: their own (`userId`, limited to EXPORTS_PER_HOUR an
     * hour) or anyone's, by address, for the secretariat. Audited; the stream is written as it is read.
     */
    async exportArchive(
      who: { userId: number } | { email: string },
    ): Promise<{ filename: string; stream: Readable; email: string }> {
      const own = "userId" in who;
      if (own) {
        try {
          await deps.rateLimit.consume({
            key: `data-export:${who.userId}`,
            max: EXPORTS_PER_HOUR,
            windowSeconds: 3600,
          });
        } catch (error) {
          if (isAppError(error) && error.code === "rate_limited") {
            const retryAfter = Number(error.details.retryAfter ?? 3600);
            throw new AppError(
              "rate_limited",
              `You downloaded your data ${EXPORTS_PER_HOUR} times in the last hour. Please try again ${waitText(retryAfter)}.`,
              { retryAfter },
            );
          }
          throw error;
        }
      }
      const { subject, user } = await subjectOf(who);
      const files = await entries(subject, user);
      await deps.audit.record({
        action: "data_exported",
        entity: user ? "user" : "person",
        entityId: user?.id ?? null,
        // Masked as the erasure's row is: the log records the request without becoming a copy of the
        // address it was about, which an erasure would otherwise leave behind (a row about an
        // address without an account belongs to nobody the erasure can find).
        summary: own
          ? "Downloaded their personal data"
          : `Exported the personal data held about ${maskedEmail(subject.email)}`,
      });
      const now = clock();
      return {
        filename: `personal-data-${now.toISOString().slice(0, 10)}.zip`,
        stream: dataArchive(files, now),
        email: subject.email,
      };
    },

    /** A member deletes their own account (issue 35): the password, and a second-factor code when it is on. */
    async deleteOwnAccount(userId: number, input: AccountDelete): Promise<Erasure> {
      const { subject, user } = await subjectOf({ userId });
      if (!user) throw new AppError("not_found", "User not found.");
      if (!(await deps.profile.checkPassword(user.id, input.password))) {
        throw invalidInput({ password: [CURRENT_PASSWORD_WRONG] });
      }
      if (await deps.twoFactor.isEnabled(user.id)) {
        if (!input.code) throw invalidInput({ code: [DELETE_CODE_REQUIRED] });
        if (!(await deps.twoFactor.verify(user.id, input.code))) throw invalidInput({ code: [CODE_WRONG] });
      }
      const name = `${user.first_name} ${user.last_name}`.trim();
      return erase(subject, user, { id: user.id, name }, (counts) => ({
        action: "account_deleted",
        entity: "user",
        entityId: user.id,
        summary: `Deleted their own account (${countsText(counts)})`,
        before: { email: maskedEmail(user.email), role: user.role },
        after: null,
      }));
    },

    /**
     * The secretariat erases what is held about an address (issue 35): the account as above when
     * there is one (not the admin's own: their settings page does that), the rest anonymised.
     */
    async eraseFor(email: string, actor: { id: number; name: string }): Promise<Erasure> {
      const { subject, user } = await subjectOf({ email });
      if (user?.id === actor.id) throw new AppError("forbidden", OWN_ERASURE);
      return erase(subject, user, { id: actor.id, name: actor.name }, (counts) => ({
        action: "data_erased",
        entity: user ? "user" : "person",
        entityId: user?.id ?? null,
        summary: `Erased the personal data held about ${maskedEmail(subject.email)}${user ? ", with their account" : ""} (${countsText(counts)})`,
      }));
    },
  };
  return service;
}
export type PrivacyService = ReturnType<typeof createPrivacyService>;
