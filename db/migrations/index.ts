import type { Migration } from "kysely";
import * as m0001 from "./0001_initial";
import * as m0002 from "./0002_content_versions";
import * as m0003 from "./0003_mail_queue";
import * as m0004 from "./0004_casefold";
import * as m0005 from "./0005_write_probe";
import * as m0006 from "./0006_session_last_seen";
import * as m0007 from "./0007_news_excerpt";
import * as m0008 from "./0008_meetings_admin";
import * as m0009 from "./0009_library";
import * as m0010 from "./0010_inbox_messages";
import * as m0011 from "./0011_image_alt_text";
import * as m0012 from "./0012_form_time_secret";
import * as m0013 from "./0013_membership";
import * as m0015 from "./0015_jobs";
import * as m0016 from "./0016_applications";
import * as m0017 from "./0017_membership_notices";
import * as m0018 from "./0018_registrations";
import * as m0019 from "./0019_mail_attachments";
import * as m0020 from "./0020_meeting_reminders";
import * as m0021 from "./0021_registration_links";
import * as m0022 from "./0022_follows";
import * as m0023 from "./0023_notices";
import * as m0024 from "./0024_registration_seats";
import * as m0025 from "./0025_news_drafts";
import * as m0026 from "./0026_own_pages";
import * as m0027 from "./0027_content_revisions";
import * as m0028 from "./0028_audit_log";
import * as m0029 from "./0029_two_factor";
import * as m0030 from "./0030_passkeys";
import * as m0031 from "./0031_audit_log_filters";
import * as m0032 from "./0032_personal_data";
import * as m0033 from "./0033_editor_role";
import * as m0034 from "./0034_working_groups";
import * as m0035 from "./0035_audiences";
import * as m0036 from "./0036_group_names_unique";
import * as m0037 from "./0037_masked_export_rows";

/**
 * Append-only list of migrations, imported statically so that the bundled
 * production server carries them. Never edit one that has landed.
 */
export const migrations: Record<string, Migration> = {
  "0001_initial": m0001,
  "0002_content_versions": m0002,
  "0003_mail_queue": m0003,
  "0004_casefold": m0004,
  "0005_write_probe": m0005,
  "0006_session_last_seen": m0006,
  "0007_news_excerpt": m0007,
  "0008_meetings_admin": m0008,
  "0009_library": m0009,
  "0010_inbox_messages": m0010,
  "0011_image_alt_text": m0011,
  "0012_form_time_secret": m0012,
  "0013_membership": m0013,
  "0015_jobs": m0015,
  "0016_applications": m0016,
  "0017_membership_notices": m0017,
  "0018_registrations": m0018,
  "0019_mail_attachments": m0019,
  "0020_meeting_reminders": m0020,
  "0021_registration_links": m0021,
  "0022_follows": m0022,
  "0023_notices": m0023,
  "0024_registration_seats": m0024,
  "0025_news_drafts": m0025,
  "0026_own_pages": m0026,
  "0027_content_revisions": m0027,
  "0028_audit_log": m0028,
  "0029_two_factor": m0029,
  "0030_passkeys": m0030,
  "0031_audit_log_filters": m0031,
  "0032_personal_data": m0032,
  "0033_editor_role": m0033,
  "0034_working_groups": m0034,
  "0035_audiences": m0035,
  "0036_group_names_unique": m0036,
  "0037_masked_export_rows": m0037,
};
