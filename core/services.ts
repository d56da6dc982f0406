import type SQLite from "better-sqlite3";
import type { Kysely } from "kysely";
import type { Dialect, Notifications } from "../db/connect";
import type { Database } from "../db/types";
import type { Clock } from "../lib/clock";
import { systemClock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { MailTransport } from "../lib/mail";
import type { ReadableFileStorage } from "../lib/storage";
import { createAccountsService } from "./accounts/accounts.service";
import { createInvitationService } from "./accounts/invitation.service";
import { createPasswordResetService } from "./accounts/password-reset.service";
import { createProfileService } from "./accounts/profile.service";
import { createTokensRepository } from "./accounts/tokens.repository";
import { createUsersRepository } from "./accounts/users.repository";
import { createAuditService } from "./audit/audit.service";
import { createAuthRepository } from "./auth/auth.repository";
import { createAuthService, type IdleSeconds } from "./auth/auth.service";
import { createPasskeysService } from "./auth/passkeys.service";
import { createTwoFactorService } from "./auth/two-factor.service";
import { createContentSchedule } from "./content-version/content-schedule";
import { createContentVersionRepository } from "./content-version/content-version.repository";
import { createContentVersionService } from "./content-version/content-version.service";
import { createGroupsRepository } from "./groups/groups.repository";
import { createGroupsService } from "./groups/groups.service";
import { createApplicationsService } from "./join/applications.service";
import { createJoinRepository } from "./join/join.repository";
import { type CaptchaCheck, createJoinService } from "./join/join.service";
import { createMeetingRemindersService } from "./join/meeting-reminders.service";
import { createProofOfWork } from "./join/proof-of-work";
import { createRegistrationInvitations } from "./join/registration-invitations";
import { createRegistrationLinks } from "./join/registration-links";
import { createRegistrationsService } from "./join/registrations.service";
import { pruneSpentChallenges } from "./join/spent-challenges.repository";
import { createLibraryRepository } from "./library/library.repository";
import { createLibraryService } from "./library/library.service";
import { createLibraryAdminService } from "./library/library-admin.service";
import { createMailRepository } from "./mail/mail.repository";
import { createMailService } from "./mail/mail.service";
import { mailParts, mailReason } from "./mail/mail-html";
import { createMediaService } from "./media/media.service";
import { createMeetingsRepository } from "./meetings/meetings.repository";
import { createMeetingsService } from "./meetings/meetings.service";
import { createMeetingsAdminService } from "./meetings/meetings-admin.service";
import { createCompaniesCsvService } from "./members/companies-csv.service";
import { isCurrentCompany } from "./members/current";
import { createMembersService } from "./members/members.service";
import { COMPANY_SEARCH_KIND } from "./members/members.values";
import { createMembershipDay } from "./members/membership-day";
import { createRenewalsService } from "./members/renewals.service";
import { isPublishedPost } from "./news/news.repository";
import { createNewsService } from "./news/news.service";
import { postUrl } from "./news/news.values";
import { createAnnouncementsService } from "./notifications/announcements.service";
import { createNoticesService, PREFERENCES_PATH } from "./notifications/notices.service";
import { createNotificationsRepository } from "./notifications/notifications.repository";
import { createNotificationsService } from "./notifications/notifications.service";
import { UNSUBSCRIBE_KEY } from "./notifications/unsubscribe";
import { PRIVACY_POLICY_PAGE } from "./pages/fixed-pages";
import { isVisiblePage } from "./pages/pages.repository";
import { createPagesService } from "./pages/pages.service";
import { createPrivacyService } from "./privacy/privacy.service";
import { createRetentionService } from "./privacy/retention.service";
import { createRateLimitRepository } from "./rate-limit/rate-limit.repository";
import { createRateLimitService } from "./rate-limit/rate-limit.service";
import { createRevisionsService } from "./revisions/revisions.service";
import { createSearchService } from "./search/search.service";
import { createSecretsRepository } from "./secrets/secrets.repository";
import { createSecretsService } from "./secrets/secrets.service";
import { createSettingsRepository } from "./settings/settings.repository";
import { createSettingsService } from "./settings/settings.service";

/** Wires repositories into services once per process (or per test). */
export function createServices(deps: {
  db: Kysely<Database>;
  dialect: Dialect;
  /** SQLite's raw connection (DatabaseHandle.sqlite): the content version is then read synchronously. */
  sqlite?: SQLite.Database;
  /** PostgreSQL's LISTEN/NOTIFY (DatabaseHandle.notifications): every process hears of a content change as it commits. */
  notifications?: Notifications;
  /** Public uploads (readable: a person's data export includes their picture). */
  storage: ReadableFileStorage;
  /** Members-only files (paper files), served through an access check (decision 0024). */
  privateStorage: ReadableFileStorage;
  sessionTtlSeconds: number;
  /** SESSION_IDLE_TIMEOUT, SESSION_ADMIN_IDLE_TIMEOUT and SESSION_REMEMBER_IDLE_TIMEOUT; the defaults without. */
  sessionIdleSeconds?: IdleSeconds;
  /** Where services log security events (sign-in failures); silent without one. */
  logger?: Logger;
  clock?: Clock;
  /** Where queued mail goes; without one (CLI tools), mails stay queued for the server to send. */
  mailTransport?: MailTransport;
  /** Join and registration requests accepted per IP address and hour. */
  joinRatePerHour?: number;
  /** NOTIFY_BATCH_SECONDS: the longest an instant notice waits for more to come with it (decision 0065). */
  notifyBatchSeconds?: number;
  onMailError?: (error: unknown, mailId: number) => void;
  /** reCAPTCHA's server check for the join form, when configured. */
  captcha?: CaptchaCheck;
  /** The site's public address (BASE_URL's origin): links in the mails services build are absolute. */
  origin: string;
  /** MAIL_FROM: a calendar invitation's organizer when the site has no e-mail of its own. */
  mailFrom?: string;
}) {
  const clock = deps.clock ?? systemClock;
  /** One transaction for a service's writes: the repositories it makes from `trx` commit or roll back together. */
  const transaction = <T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> =>
    deps.db.transaction().execute(work);
  const revokeSessions = (userId: number, trx?: Kysely<Database>) => auth.revokeUserSessions(userId, undefined, trx);
  const users = createUsersRepository(deps.db, deps.dialect);
  const tokens = createTokensRepository(deps.db);
  const rateLimit = createRateLimitService({ repository: createRateLimitRepository(deps.db), clock });
  const search = createSearchService({
    db: deps.db,
    dialect: deps.dialect,
    clock,
    // A member company's entry is found while the company is current (decisions 0044, 0046).
    shownWhen: async () => {
      const { cutoff } = await membershipDay();
      // A draft's or a scheduled post's or page's entry waits in the index, found once it is visible (decisions 0070–0072).
      const now = clock().toISOString();
      return {
        [COMPANY_SEARCH_KIND]: (id) => isCurrentCompany(id, cutoff),
        news: (id) => isPublishedPost(id, now),
        page: { text: (url) => isVisiblePage(url, now) },
      };
    },
  });
  /** Who did what, when, from where (decision 0074): append-only. */
  const audit = createAuditService({ db: deps.db, clock, settings: () => settings.getAll() });
  /** Each save of a post, a page, a meeting's texts or a category, kept (decision 0073), and audited. */
  const revisions = createRevisionsService({ db: deps.db, clock, audit });
  const contentVersion = createContentVersionService({
    repository: createContentVersionRepository(deps.db, { sqlite: deps.sqlite, notifications: deps.notifications }),
    onError: (error) => deps.logger?.warn({ err: error }, "content version announcements not heard; polling meanwhile"),
  });
  const settings = createSettingsService({
    repository: createSettingsRepository(deps.db),
    clock,
    version: () => contentVersion.known(),
    audit: () => audit,
  });
  const secrets = createSecretsService({ repository: createSecretsRepository(deps.db), clock });
  /** Today and the grace period: what "current" is measured against (decision 0044). */
  const membershipDay = createMembershipDay({ settings, clock });
  const auth = createAuthService({
    audit,
    twoFactor: () => twoFactor,
    adminTwoFactorRequired: async () => (await settings.getAll())["security.admin_two_factor"] === "1",
    repository: createAuthRepository(deps.db, deps.dialect),
    rateLimit,
    clock,
    sessionTtlSeconds: deps.sessionTtlSeconds,
    idleSeconds: deps.sessionIdleSeconds,
    logger: deps.logger,
    membershipCutoff: async () => (await membershipDay()).cutoff,
  });
  const library = createLibraryService({
    repository: createLibraryRepository(deps.db),
    files: deps.privateStorage,
    search,
  });
  const meetings = createMeetingsService({ repository: createMeetingsRepository(deps.db), clock });
  const mail = createMailService({
    repository: createMailRepository(deps.db),
    db: deps.db,
    transport: deps.mailTransport ?? {
      describe: "none",
      send: async () => {
        throw new Error("No mail transport in this process.");
      },
    },
    clock,
    onError: deps.onMailError,
    async parts(mail) {
      const site = await settings.getAll();
      return mailParts(
        { subject: mail.subject, text: mail.body_text },
        {
          siteName: site["site.name"],
          address: site["site.address"],
          origin: deps.origin,
          reason: mailReason(mail.purpose, site["site.name"]),
          // What a member follows or is sent as a member: the footer says where to change it and how to stop it.
          manage: mail.list_unsubscribe
            ? { preferences: `${deps.origin}${PREFERENCES_PATH}`, unsubscribe: mail.list_unsubscribe }
            : undefined,
        },
      );
    },
  });
  /** Two-factor sign-in (decision 0075). */
  const passkeys = createPasskeysService({
    db: deps.db,
    clock,
    origin: deps.origin,
    siteName: async () => (await settings.getAll())["site.name"],
    audit,
  });
  const twoFactor = createTwoFactorService({ db: deps.db, clock, settings, mail, audit, passkeys });
  const notices = createNoticesService({
    db: deps.db,
    dialect: deps.dialect,
    repository: createNotificationsRepository(deps.db),
    mail,
    settings: () => settings.getAll(),
    clock,
    origin: deps.origin,
    batchSeconds: deps.notifyBatchSeconds ?? 300,
    unsubscribeKey: () => secrets.key(UNSUBSCRIBE_KEY),
    membershipCutoff: async () => (await membershipDay()).cutoff,
    lineage: (id) => library.categoryLineage(id),
    papers: (ids, viewer) => library.noticePapers(ids, viewer),
    posts: (ids) => news.noticePosts(ids),
    meeting: (id, viewer, origin) => meetings.noticeMeeting(id, viewer, origin),
  });
  const notify = notices.record;
  const announcements = createAnnouncementsService({
    db: deps.db,
    dialect: deps.dialect,
    mail,
    settings: () => settings.getAll(),
    clock,
    origin: deps.origin,
    unsubscribeKey: () => secrets.key(UNSUBSCRIBE_KEY),
    membershipCutoff: async () => (await membershipDay()).cutoff,
    post: (id) => news.getById(id),
    postUrl,
    audit,
  });
  const news = createNewsService({
    revisions,
    db: deps.db,
    dialect: deps.dialect,
    search,
    storage: deps.storage,
    clock,
    notify,
    previewKey: () => secrets.key("news-preview"),
  });
  const pages = createPagesService({
    db: deps.db,
    search,
    clock,
    revisions,
    // The same key as the posts' links; the signed purpose keeps a post's link from opening a page.
    previewKey: () => secrets.key("news-preview"),
    version: () => contentVersion.known(),
  });
  /** When content next changes by itself (a scheduled post or page): the caches' bound (decisions 0071, 0072). */
  const contentSchedule = createContentSchedule({
    next: async () => earliest(await Promise.all([news.nextAppearance(), pages.nextAppearance()])),
    latest: async () => latest(await Promise.all([news.latestAppearance(), pages.latestAppearance()])),
    clock,
    onError: (error) =>
      deps.logger?.warn({ err: error }, "scheduled posts not read; cached pages not served meanwhile"),
  });
  const invitations = createInvitationService({
    users,
    tokens,
    mail,
    settings,
    transaction,
    dialect: deps.dialect,
    clock,
    audit,
  });
  const accounts = createAccountsService({
    users,
    tokens,
    storage: deps.storage,
    revokeSessions,
    clock,
    audit,
  });
  const members = createMembersService({
    db: deps.db,
    dialect: deps.dialect,
    storage: deps.storage,
    clock,
    day: membershipDay,
    search,
    invitations,
    mail,
    settings,
    audit,
    groupIdsOf: (userId) => createGroupsRepository(deps.db).idsOf(userId),
  });
  const joinRepository = createJoinRepository(deps.db);
  /** The public forms' proof-of-work challenge (ALTCHA, decision 0077), keyed like the forms' times. */
  const proofOfWork = createProofOfWork({ db: deps.db, clock, key: () => secrets.key("altcha") });
  // Each mail to a registrant carries its own link to the registration, absolute from BASE_URL.
  const registrationLinks = createRegistrationLinks({ db: deps.db, clock, origin: deps.origin });
  // A confirmation carries the meeting as a calendar invitation; a confirmed registration ended, its cancellation.
  const registrationInvitations = createRegistrationInvitations({
    entry: (meetingId, origin) => meetings.invitationEntry(meetingId, origin),
    origin: deps.origin,
    mailFrom: deps.mailFrom ?? "",
    clock,
    logger: deps.logger,
  });
  const registrations = createRegistrationsService({
    db: deps.db,
    dialect: deps.dialect,
    mail,
    settings,
    clock,
    links: registrationLinks,
    invitations: registrationInvitations,
    audit,
    // A meeting's page shows its places: any registration's change moves it, whoever made it (decision 0052).
    published: () =>
      contentVersion.changed().catch((error: unknown) => {
        deps.logger?.error({ err: error }, "content version not moved after a registration");
      }),
  });
  const profile = createProfileService({
    audit,
    users,
    storage: deps.storage,
    rateLimit,
    mail,
    settings,
    revokeOtherSessions: (userId, keepSessionId, trx) => auth.revokeUserSessions(userId, keepSessionId, trx),
    transaction,
    dialect: deps.dialect,
    clock,
  });
  return {
    audit,
    /** Personal data kept only as long as it serves (issue 35, decision 0078): the retention job calls it. */
    retention: createRetentionService({
      db: deps.db,
      clock,
      settings: () => settings.getAll(),
      pruneSpentChallenges: (nowIso) => pruneSpentChallenges(deps.db, nowIso),
      outbox: deps.mailTransport,
    }),
    twoFactor,
    passkeys,
    accounts,
    groups: createGroupsService({
      db: deps.db,
      clock,
      audit,
      findAccount: (ref) => accounts.findActive(ref),
      hasMembersAccess: (user) => members.hasMembersAccess(user),
      // A group's page: what of the library and the calendar is for it (issue 36).
      content: async (groupId) => {
        const [own, upcoming] = await Promise.all([
          library.groupLibrary(groupId, GROUP_PAGE_PAPERS),
          meetings.groupMeetings(groupId, GROUP_PAGE_MEETINGS),
        ]);
        return { ...own, meetings: upcoming };
      },
    }),
    invitations,
    notifications: createNotificationsService({
      repository: createNotificationsRepository(deps.db),
      transaction,
      canSeeCategory: (id, viewer) => library.canSeeCategory(id, viewer),
      clock,
      unsubscribeKey: () => secrets.key(UNSUBSCRIBE_KEY),
    }),
    auth,
    profile,
    /** A person's data: their export, their account's deletion, the secretariat's erasure (issue 35). */
    privacy: createPrivacyService({
      db: deps.db,
      clock,
      storage: deps.storage,
      settings,
      audit,
      rateLimit,
      users,
      profile,
      twoFactor,
      registrations,
      origin: deps.origin,
    }),
    passwordReset: createPasswordResetService({
      audit,
      users,
      tokens,
      mail,
      settings,
      rateLimit,
      revokeSessions,
      transaction,
      dialect: deps.dialect,
      clock,
    }),
    contentVersion,
    contentSchedule,
    rateLimit,
    search,
    news,
    notices,
    announcements,
    media: createMediaService({ storage: deps.storage, db: deps.db }),
    meetings,
    meetingsAdmin: createMeetingsAdminService({
      revisions,
      audit,
      db: deps.db,
      search,
      storage: deps.storage,
      clock,
      defaultTimeZone: async () => (await settings.getAll())["site.timezone"],
      read: (row) => meetings.whole(row),
      dialect: deps.dialect,
      origin: deps.origin,
      // A confirmed meeting moved in time or place: its confirmed attendees get the updated invitation (decision 0058).
      invitationUpdates: registrations.invitationUpdates,
      notify,
    }),
    members,
    companiesCsv: createCompaniesCsvService({ db: deps.db, dialect: deps.dialect, members }),
    /** Renewal reminders and lapse notices (decision 0049): the membership-renewals job calls it. */
    renewals: createRenewalsService({ db: deps.db, clock, day: membershipDay, settings, mail }),
    /** Reminders to confirmed attendees before their meeting (issue 32): the meeting-reminders job calls it. */
    meetingReminders: createMeetingRemindersService({ db: deps.db, clock, settings, mail }),
    pages,
    library,
    libraryAdmin: createLibraryAdminService({
      revisions,
      db: deps.db,
      search,
      storage: deps.storage,
      files: deps.privateStorage,
      clock,
      read: library,
      onTextProblem: (problem, paperName) =>
        deps.logger?.warn({ ...problem, paper: paperName }, "document text not read whole"),
      notify,
      audit,
    }),
    settings,
    mail,
    applications: createApplicationsService({
      db: deps.db,
      repository: joinRepository,
      members,
      mail,
      settings,
      clock,
      audit,
    }),
    join: createJoinService({
      repository: joinRepository,
      transaction,
      mail,
      settings,
      rateLimit,
      clock,
      ratePerHour: deps.joinRatePerHour ?? 30,
      captcha: deps.captcha,
      proofOfWork,
      privacyRevisionAt: (at) => pages.revisionNumberAt(PRIVACY_POLICY_PAGE, at),
      formKey: () => secrets.key("form-time"),
      meetingFor: (pagePath, viewer) => meetings.forRegistrationPath(pagePath, viewer),
      registrations,
      registrationLinks,
      registrationInvitations,
      audit,
    }),
    /** The challenges of the public forms' proof-of-work check (decision 0077). */
    proofOfWork,
    /** A meeting's registrations and their states (issue 32, decision 0052). */
    registrations,
    /** Registrants' links: see and cancel a registration without an account (issue 32). */
    registrationLinks,
  };
}
export type Services = ReturnType<typeof createServices>;

/** What a working group's page lists: its latest papers, and its meetings to come (issue 36). */
const GROUP_PAGE_PAPERS = 10;
const GROUP_PAGE_MEETINGS = 10;

/** The earliest and the latest of ISO times (same form, so they sort as text), null for none. */
const earliest = (times: (string | null)[]) => times.filter((t) => t !== null).sort()[0] ?? null;
const latest = (times: (string | null)[]) =>
  times
    .filter((t) => t !== null)
    .sort()
    .at(-1) ?? null;
