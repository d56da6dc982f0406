import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from "kysely";

/**
 * Table shapes shared by both dialects. Timestamps are ISO-8601 UTC strings
 * (e.g. 2026-11-22T15:04:05.000Z) and dates are YYYY-MM-DD strings, so that
 * ordering and month filters behave the same on SQLite and PostgreSQL.
 * Booleans are 0/1 integers on both dialects for the same reason.
 */
type Timestamp = string;
type Flag = number;

export interface UsersTable {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string | null;
  avatar: string | null;
  role: "admin" | "editor" | "member";
  password_hash: string | null;
  is_active: Flag;
  /** SHA-256 of the secret in the member's private calendar feed URL (migration 0008). */
  calendar_token_hash: string | null;
  /** SHA-256 of the secret in the member's private feed of followed categories (migration 0023). */
  library_feed_token_hash: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A working group, committee or board (issue 36, migration 0034). */
export interface WorkingGroupsTable {
  id: Generated<number>;
  name: string;
  slug: string;
  description: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Who is in a group; a chair manages its members (and, with audiences, its papers and meetings). */
export interface GroupMembersTable {
  group_id: number;
  user_id: number;
  is_chair: Generated<Flag>;
  created_at: Timestamp;
}

/** A library category for these groups' members (issue 36, migration 0035). */
export interface CategoryGroupsTable {
  category_id: number;
  group_id: number;
}

/** A meeting for these groups' members (issue 36, migration 0035). */
export interface MeetingGroupsTable {
  meeting_id: number;
  group_id: number;
}

/** A members' search entry found only by these groups' members (issue 36, migration 0035). */
export interface SearchDocumentGroupsTable {
  document_id: number;
  group_id: number;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  remember: Flag;
  expires_at: Timestamp;
  created_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
  /** Last request with this session, updated at most once a minute; null: not since created_at. */
  last_seen_at: Timestamp | null;
}

export interface OneTimeTokensTable {
  id: Generated<number>;
  user_id: number;
  kind: "password_reset" | "invitation";
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  reset_at: Timestamp;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: Timestamp;
}

export interface PagesTable {
  id: Generated<number>;
  url: string;
  title: string;
  content: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** 'draft' or 'published' (migration 0026). */
  status: Generated<PageStatus>;
  /** When a published page appears; null: since ever. */
  published_at: string | null;
  /** A page of the association's own: 'about', 'services', or null standing alone. */
  section: PageSection | null;
  in_menu: Generated<number>;
  in_footer: Generated<number>;
  position: Generated<number>;
}
export type PageStatus = "draft" | "published";

/** Two-factor sign-in (migration 0029). */
export interface UserTwoFactorTable {
  user_id: number;
  totp_secret: string;
  enabled_at: string | null;
  last_step: number | null;
  /** A passkey being added (migration 0030): its WebAuthn challenge, single use, and until when. */
  passkey_challenge: string | null;
  passkey_challenge_expires_at: string | null;
  created_at: string;
  updated_at: string;
}
export interface TwoFactorRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: string | null;
  created_at: string;
}
export interface TwoFactorChallengesTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  remember: number;
  expires_at: string;
  used_at: string | null;
  /** The WebAuthn challenge of this step, for a user with passkeys (migration 0030). */
  passkey_challenge: string | null;
  created_at: string;
}

/** A user's passkey, a second factor (migration 0030, decision 0076). */
export interface UserPasskeysTable {
  id: Generated<number>;
  user_id: number;
  /** base64url, as the browser names it. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The signature counter (bigint: PostgreSQL answers it as a string). */
  counter: ColumnType<number | string, number, number>;
  /** JSON array of the transports the browser named, or null. */
  transports: string | null;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** The audit log (migration 0028): append-only. */
export interface AuditLogTable {
  id: Generated<number>;
  created_at: string;
  actor_id: number | null;
  actor_name: string;
  ip: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  summary: string;
  /** JSON { field: [before, after] }; never a secret. */
  changes: string | null;
}

/** What keeps revisions (migration 0027). */
export type RevisionEntity = "news" | "page" | "meeting" | "category";

export interface ContentRevisionsTable {
  id: Generated<number>;
  entity: RevisionEntity;
  entity_id: number;
  actor_id: number | null;
  actor_name: string;
  /** The fields as saved, JSON: { title: "…", content: "<p>…</p>" }. */
  fields: string;
  restored_from: number | null;
  created_at: string;
}
export type PageSection = "about" | "services";

export interface PaperCategoriesTable {
  id: Generated<number>;
  parent_id: number | null;
  slug: string;
  name: string;
  title: string | null;
  title_description: string | null;
  description: string | null;
  content: string | null;
  view_type: string | null;
  is_active: Flag;
  is_root: Flag;
  image: string | null;
  position: number;
  /** 1 public, 0 members-only, null: as its parent (a root: members-only). */
  is_public: Flag | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PapersTable {
  id: Generated<number>;
  papers_category_id: number;
  name: string;
  meeting: string | null;
  description: string | null;
  number: string | null;
  organization: string | null;
  reference: string | null;
  revision: string | null;
  version: string | null;
  date: string | null;
  publication_date: string | null;
  forecast_date: string | null;
  uploaded_file: string | null;
  file_type: string | null;
  file_size: number | null;
  file_name: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PaperRevisionsTable {
  id: Generated<number>;
  paper_id: number;
  uploaded_file: string;
  file_type: string | null;
  file_size: number | null;
  file_name: string | null;
  revision: string | null;
  version: string | null;
  date: string | null;
  /** When this file was replaced. */
  created_at: Timestamp;
}

export interface PaperPagesTable {
  id: Generated<number>;
  paper_id: number;
  page: number;
  text: string;
}

export interface MeetingsTable {
  id: Generated<number>;
  slug: string;
  title: string;
  type: string;
  meeting_type: string | null;
  organization: string | null;
  start_date: string;
  end_date: string | null;
  location: string | null;
  information: string | null;
  health: string | null;
  registration: string | null;
  content_title: string | null;
  content: string | null;
  /** IANA zone (migration 0008); schedule times are wall-clock times in it. */
  timezone: Generated<string>;
  visibility: Generated<"public" | "members">;
  registration_open: Generated<Flag>;
  /** The last day (YYYY-MM-DD, in the meeting's zone) registrations are taken; null: until the meeting starts. */
  registration_closes_on: string | null;
  capacity: number | null;
  /** New registrations are confirmed at once while seats remain (migration 0018). */
  registration_auto_confirm: Generated<Flag>;
  /** A full meeting puts new registrations on its waiting list (on by default; only with a capacity). */
  registration_waitlist: Generated<Flag>;
  /**
   * Registrations holding a seat (pending, confirmed), kept by triggers on join_requests in the
   * change's own transaction (migration 0024): read it, never write it.
   */
  registration_seats: Generated<number>;
  /** ICS SEQUENCE: raised on every change to the meeting, its schedule or sponsors. */
  sequence: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MeetingImagesTable {
  id: Generated<number>;
  meeting_id: number;
  path: string;
  width: number | null;
  height: number | null;
  position: number;
  /** The picture's alt text; '' when decorative or not described yet (migration 0011). */
  alt: Generated<string>;
  decorative: Generated<Flag>;
  created_at: Timestamp;
}

export interface SchedulesTable {
  id: Generated<number>;
  event_id: number;
  meeting_date: string;
  is_evening: Flag;
  start: string | null;
  finish: string | null;
  meeting_date_info: string | null;
  description: string | null;
}

export interface SponsorsTable {
  id: Generated<number>;
  event_id: number;
  name: string;
  link: string | null;
  image: string | null;
  position: number;
}

export interface NewsPostsTable {
  id: Generated<number>;
  slug: string;
  title: string;
  content: string;
  /** Plain text for lists, written with the post (migration 0007). */
  excerpt: string;
  author_name: string | null;
  image: string | null;
  image_width: number | null;
  image_height: number | null;
  /** The image's alt text; '' when decorative, without an image or not described yet (migration 0011). */
  image_alt: Generated<string>;
  image_decorative: Generated<Flag>;
  /** A draft is seen by the admins alone (migration 0025); a published post once published_at has come. */
  status: Generated<NewsPostStatus>;
  /** When those following the news were told of it (a notice event); null until it is first visible. */
  announced_at: Timestamp | null;
  published_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A news post's stored state (migration 0025). */
export type NewsPostStatus = "draft" | "published";

export interface JoinRequestsTable {
  id: Generated<number>;
  kind: "join" | "registration" | "message";
  meeting_id: number | null;
  /** Null for a message (kind 'message'), which asks for neither (migration 0010). */
  company_name: string | null;
  representative_name: string;
  email: string;
  phone_number: string | null;
  page_path: string | null;
  ip: string | null;
  handled_at: Timestamp | null;
  created_at: Timestamp;
  /** A message's subject and text; null for the other kinds. */
  subject: string | null;
  message: string | null;
  /** Why the request was judged probable spam (kept, never dropped; decision 0039), null otherwise. */
  spam_reason: "honeypot" | "too_fast" | "no_form_time" | null;
  /** A membership application's state (migration 0016); null for registrations and messages. */
  status: "new" | "approved" | "declined" | null;
  /** A registration's state (migration 0018, decision 0052); null for the other kinds. */
  registration_status: RegistrationStatus | null;
  /** The e-mail folded while the registration holds or waits for a seat: unique per meeting; null otherwise. */
  registration_email: string | null;
  /** The registrant's note (dietary needs, accessibility). */
  note: string | null;
  /** The signed-in sender; null for a visitor or once the account is deleted. */
  user_id: number | null;
  /** When the registrant was checked in at the door. */
  attended_at: Timestamp | null;
  /** The Privacy Policy page's revision the form showed, and when it was shown (issue 35). */
  privacy_revision: number | null;
  privacy_shown_at: Timestamp | null;
  /** When the person's details were erased (a request, or the retention job); null while kept. */
  anonymised_at: Timestamp | null;
  /** The SEQUENCE of the registration's latest calendar invitation (migration 0019): raised with each one sent. */
  invitation_sequence: Generated<number>;
}

export type RegistrationStatus = "pending" | "confirmed" | "waitlisted" | "declined" | "cancelled";

/** See migration 0021: a registrant's link to their registration (only the token's hash is kept). */
export interface RegistrationLinksTable {
  id: Generated<number>;
  join_request_id: number;
  token_hash: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

/** See migration 0022: a member's notification choices, once they have made any. */
export interface NotificationPreferencesTable {
  user_id: number;
  digest: "daily" | "weekly" | "never";
  /** 1: announcements by e-mail; 0: none. */
  announcements: number;
  updated_at: Timestamp;
}

/** See migration 0022: one thing a member follows, and how they hear of it. */
export interface FollowsTable {
  id: Generated<number>;
  user_id: number;
  kind: "category" | "news" | "meetings";
  /** The library category followed (kind 'category'); null for the news and the meetings. */
  category_id: number | null;
  delivery: "instant" | "digest";
  created_at: Timestamp;
}

/** See migration 0023: something worth telling the members who follow it. */
export interface NotificationEventsTable {
  id: Generated<number>;
  kind: "paper" | "revision" | "news" | "meeting" | "meeting_changed";
  /** The paper, news post or meeting. */
  ref_id: number;
  /** The paper's category when it was recorded (kinds 'paper' and 'revision'). */
  category_id: number | null;
  created_at: Timestamp;
}

/** See migration 0023: one channel's run over a range of events. */
export interface NotificationBatchesTable {
  id: Generated<number>;
  channel: "instant" | "daily" | "weekly";
  /** Which period it is for: the digest's day or ISO week; the instant batch's last event id. */
  period: string;
  from_event_id: number;
  to_event_id: number;
  created_at: Timestamp;
  done_at: Timestamp | null;
}

/** See migration 0023: a member a batch has settled (their mail queued, or nothing for them). */
export interface NotificationDeliveriesTable {
  batch_id: number;
  user_id: number;
  /** How many items their mail listed (0: nothing they follow and may see). */
  items: number;
  created_at: Timestamp;
}

/** See migration 0020: a meeting reminder sent to a registration, once per meeting start. */
export interface MeetingRemindersTable {
  id: Generated<number>;
  join_request_id: number;
  /** The meeting's start_date the reminder was for (YYYY-MM-DD). */
  meeting_start: string;
  created_at: Timestamp;
}

/** See migration 0016: what happened to a join request after it arrived (decision 0047). */
export interface JoinRequestEventsTable {
  id: Generated<number>;
  join_request_id: number;
  event:
    | "approved"
    | "declined"
    | `registration_${RegistrationStatus}`
    | "registration_attended"
    | "registration_not_attended";
  /** Who did it; null once their account is deleted (user_name stays). */
  user_id: number | null;
  user_name: string;
  /** The company an application was approved into (created or linked); its name as it was then. */
  company_id: number | null;
  company_name: string | null;
  /** Why an application was declined, as mailed to the applicant. */
  reason: string | null;
  created_at: Timestamp;
}

/** Keys the site makes for itself on first use, shared by its processes (migration 0012). */
export interface AppSecretsTable {
  /** What the key is for, e.g. 'form-time' (the HMAC key of the public forms' shown-at time). */
  name: string;
  /** The key, base64url. */
  value: string;
  created_at: Timestamp;
}

export type MembershipType = "full" | "associate";
export type CompanyStatus = "active" | "suspended" | "left";

/** A member company (migration 0013, decision 0044). */
export interface MemberCompaniesTable {
  id: Generated<number>;
  name: string;
  /** From the name when created, kept when renamed (links keep working). */
  slug: string;
  /** ISO 3166-1 alpha-2 ('NO'). */
  country: string;
  website: string | null;
  /** The logo's storage key (the largest WebP variant, as news images), or null. */
  logo: string | null;
  logo_width: number | null;
  logo_height: number | null;
  /** Sanitized rich text ('' when none). */
  description: Generated<string>;
  membership_type: Generated<MembershipType>;
  /** YYYY-MM-DD. */
  member_since: string;
  /** YYYY-MM-DD, or null: no renewal date (current while active). */
  renews_on: string | null;
  /** How many representatives it may have; null: no limit. */
  seats: number | null;
  status: Generated<CompanyStatus>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A company's product tags (migration 0013): `tag` is the folded form filters compare, `name` the one shown. */
export interface MemberCompanyProductsTable {
  company_id: number;
  position: number;
  name: string;
  tag: string;
}

/** Which company a user represents (at most one), and whether as a primary contact (migration 0013). */
export interface CompanyRepresentativesTable {
  user_id: number;
  company_id: number;
  is_primary: Generated<Flag>;
  created_at: Timestamp;
}

export interface SearchDocumentsTable {
  id: Generated<number>;
  kind: string;
  ref_id: string;
  url: string;
  title: string;
  body: string;
  /** Who may find it: 'members' entries are only searched for signed-in users (migration 0008). */
  audience: Generated<"public" | "members">;
  updated_at: Timestamp;
  /** Shown instead of title when set (a page of a document). */
  display_title: string | null;
}

/** See migration 0002: one row per counter; "site" covers every public page. */
export interface ContentVersionsTable {
  name: string;
  version: number;
}

/** See migration 0003: mail waiting to be sent, sent or given up on. */
export interface MailQueueTable {
  id: Generated<number>;
  join_request_id: number | null;
  purpose: string;
  to_address: string;
  reply_to: string | null;
  subject: string;
  body_text: string;
  /** JSON of the mail's attachments (lib/mail.ts MailAttachment[]), null without any (migration 0019). */
  attachments: string | null;
  status: "pending" | "sending" | "sent" | "failed";
  attempts: number;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  last_error: string | null;
  sent_at: Timestamp | null;
  created_at: Timestamp;
  /** The one-click unsubscribe address of a notice, digest or announcement (migration 0023), else null. */
  list_unsubscribe: string | null;
  /** The announcement this mail is part of (migration 0023), else null. */
  announcement_id: number | null;
}

/** See migration 0023: a news post sent to the members by e-mail. */
export interface AnnouncementsTable {
  id: Generated<number>;
  post_id: number;
  /** 'all', or a membership type ('full', 'associate'). */
  audience: string;
  recipients: number;
  sent_by: number | null;
  created_at: Timestamp;
}

/** See migration 0015: a scheduled job's lease (decision 0045). */
/** A solved proof-of-work challenge (ALTCHA), kept until it expires so that it is good once. */
export interface SpentChallengesTable {
  signature_hash: string;
  expires_at: Timestamp;
}

/** An address a mail server refused for good: nothing more is sent to it (issue 35). */
export interface MailBouncesTable {
  /** Lower-cased. */
  address: string;
  reason: string;
  mail_id: number | null;
  created_at: Timestamp;
}

export interface JobsTable {
  name: string;
  /** The due time of the run most recently taken. */
  claimed_due: Timestamp | null;
  /** The latest due time whose run ended (ok or failed); a later one is owed. */
  completed_due: Timestamp | null;
  leased_until: Timestamp | null;
  leased_by: string | null;
  created_at: Timestamp;
}

/** See migration 0015: one run of a job, scheduled (due_at) or started by hand (due_at null). */
export interface JobRunsTable {
  id: Generated<number>;
  job_name: string;
  due_at: Timestamp | null;
  runner: string;
  started_at: Timestamp;
  finished_at: Timestamp | null;
  outcome: "ok" | "failed" | null;
  summary: string | null;
  error: string | null;
}

/** See migration 0017: a renewal reminder or lapse notice sent, once per company, kind and renews_on (decision 0049). */
export interface MembershipNoticesTable {
  id: Generated<number>;
  company_id: number;
  kind: "reminder" | "lapse";
  /** The company's renews_on (YYYY-MM-DD) the notice was about. */
  renews_on: string;
  /** How many primary contacts it was queued to. */
  recipients: number;
  created_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  working_groups: WorkingGroupsTable;
  group_members: GroupMembersTable;
  category_groups: CategoryGroupsTable;
  meeting_groups: MeetingGroupsTable;
  search_document_groups: SearchDocumentGroupsTable;
  sessions: SessionsTable;
  one_time_tokens: OneTimeTokensTable;
  rate_limits: RateLimitsTable;
  settings: SettingsTable;
  pages: PagesTable;
  content_revisions: ContentRevisionsTable;
  audit_log: AuditLogTable;
  user_two_factor: UserTwoFactorTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  two_factor_challenges: TwoFactorChallengesTable;
  user_passkeys: UserPasskeysTable;
  paper_categories: PaperCategoriesTable;
  papers: PapersTable;
  paper_revisions: PaperRevisionsTable;
  paper_pages: PaperPagesTable;
  meetings: MeetingsTable;
  meeting_images: MeetingImagesTable;
  schedules: SchedulesTable;
  sponsors: SponsorsTable;
  news_posts: NewsPostsTable;
  join_requests: JoinRequestsTable;
  join_request_events: JoinRequestEventsTable;
  member_companies: MemberCompaniesTable;
  member_company_products: MemberCompanyProductsTable;
  company_representatives: CompanyRepresentativesTable;
  membership_notices: MembershipNoticesTable;
  search_documents: SearchDocumentsTable;
  content_versions: ContentVersionsTable;
  mail_queue: MailQueueTable;
  meeting_reminders: MeetingRemindersTable;
  registration_links: RegistrationLinksTable;
  notification_preferences: NotificationPreferencesTable;
  follows: FollowsTable;
  notification_events: NotificationEventsTable;
  announcements: AnnouncementsTable;
  notification_batches: NotificationBatchesTable;
  notification_deliveries: NotificationDeliveriesTable;
  spent_challenges: SpentChallengesTable;
  mail_bounces: MailBouncesTable;
  jobs: JobsTable;
  job_runs: JobRunsTable;
  app_secrets: AppSecretsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;

/** What a repository runs on: the database, or the transaction of the write it belongs to. */
export type Executor = Kysely<Database> | Transaction<Database>;
