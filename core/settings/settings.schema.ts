import { z } from "zod";
import { isTimeZone } from "../../lib/time-zones";

const optionalUrl = (network: string) =>
  z
    .string()
    .trim()
    .max(300)
    .refine((v) => v === "" || /^https:\/\/[^\s"'<>]+$/.test(v), {
      error: `Enter the full https:// address of the ${network} page.`,
    });

export const PRIVACY_RETENTION_MESSAGE =
  "Keep join requests and registrations for 1 to 120 months after they were handled or the meeting ended (a whole number).";
const GRACE_DAYS_MESSAGE = "The grace period must be a whole number of days from 0 to 365.";
export const AUDIT_RETENTION_MESSAGE = "Keep the audit log for 30 to 3650 days (a whole number).";
const ANNOUNCEMENT_RATE_MESSAGE =
  "Enter how many announcement e-mails may leave each second: a whole number from 1 to 100.";
const MEETING_REMINDER_DAYS_MESSAGE =
  "The meeting reminder must be sent a whole number of days from 0 (no reminder) to 60 before the meeting.";
const REMINDER_DAYS_MESSAGE = "The reminder must be sent a whole number of days from 1 to 365 before the renewal date.";

/** The site settings an admin edits (SPEC §1, §3 'Contact data'); an empty value hides that link. */
export const settingsUpdateSchema = z
  .object({
    "site.name": z
      .string({ error: "The company name is required." })
      .trim()
      .min(1, { error: "The company name is required." })
      .max(120, { error: "The company name may not be longer than 120 characters." }),
    "site.tagline": z.string().trim().max(200, { error: "The tagline may not be longer than 200 characters." }),
    "site.email": z
      .string()
      .trim()
      .max(254)
      .refine((v) => v === "" || z.email().safeParse(v).success, { error: "Enter a valid e-mail address." }),
    "site.phone": z
      .string()
      .trim()
      .max(40, { error: "The phone number is too long." })
      .regex(/^[\d\s+().-]*$/, { error: "Enter a valid phone number." }),
    "site.address": z
      .string()
      .trim()
      .max(300, { error: "The postal address may not be longer than 300 characters." })
      .refine((v) => !/[\r\n]/.test(v), { error: "Write the postal address on one line, parts separated by commas." }),
    "site.twitter": optionalUrl("Twitter"),
    "site.youtube": optionalUrl("YouTube"),
    "site.linkedin": optionalUrl("LinkedIn"),
    "site.timezone": z
      .string()
      .trim()
      .refine(isTimeZone, { error: "The time zone must be a time zone name such as Europe/London." }),
    "members.grace_days": z
      .string({ error: GRACE_DAYS_MESSAGE })
      .trim()
      .regex(/^\d{1,3}$/, { error: GRACE_DAYS_MESSAGE })
      .refine((v) => Number(v) <= 365, { error: GRACE_DAYS_MESSAGE })
      .transform((v) => String(Number(v))),
    "members.reminder_days": z
      .string({ error: REMINDER_DAYS_MESSAGE })
      .trim()
      .regex(/^\d{1,3}$/, { error: REMINDER_DAYS_MESSAGE })
      .refine((v) => Number(v) >= 1 && Number(v) <= 365, { error: REMINDER_DAYS_MESSAGE })
      .transform((v) => String(Number(v))),
    "meetings.reminder_days": z
      .string({ error: MEETING_REMINDER_DAYS_MESSAGE })
      .trim()
      .regex(/^\d{1,2}$/, { error: MEETING_REMINDER_DAYS_MESSAGE })
      .refine((v) => Number(v) <= 60, { error: MEETING_REMINDER_DAYS_MESSAGE })
      .transform((v) => String(Number(v))),
    "mail.announcements_per_second": z
      .string({ error: ANNOUNCEMENT_RATE_MESSAGE })
      .trim()
      .regex(/^\d{1,3}$/, { error: ANNOUNCEMENT_RATE_MESSAGE })
      .refine((v) => Number(v) >= 1 && Number(v) <= 100, { error: ANNOUNCEMENT_RATE_MESSAGE })
      .transform((v) => String(Number(v))),
    "security.admin_two_factor": z
      .union([z.boolean(), z.string()], { error: "Say 1 (on) or 0 (off)." })
      .transform((v) => (v === true || v === "1" || v === "on" || v === "true" ? "1" : "0")),
    "audit.retention_days": z
      .string({ error: AUDIT_RETENTION_MESSAGE })
      .trim()
      .regex(/^\d{2,4}$/, { error: AUDIT_RETENTION_MESSAGE })
      .refine((v) => Number(v) >= 30 && Number(v) <= 3650, { error: AUDIT_RETENTION_MESSAGE })
      .transform((v) => String(Number(v))),
    "privacy.retention_months": z
      .string({ error: PRIVACY_RETENTION_MESSAGE })
      .trim()
      .regex(/^\d{1,3}$/, { error: PRIVACY_RETENTION_MESSAGE })
      .refine((v) => Number(v) >= 1 && Number(v) <= 120, { error: PRIVACY_RETENTION_MESSAGE })
      .transform((v) => String(Number(v))),
  })
  .partial();
export type SettingsUpdate = z.input<typeof settingsUpdateSchema>;

/** The site settings as every adapter answers them: the keys of SPEC §1 and §3 plus the site's name and tagline. */
export const siteSettingsSchema = z
  .object({
    "site.name": z.string(),
    "site.tagline": z.string(),
    "site.email": z.string(),
    "site.phone": z.string(),
    "site.address": z.string().meta({
      description: "The association's postal address, on one line; the footer of every e-mail shows it.",
    }),
    "site.twitter": z.string(),
    "site.youtube": z.string(),
    "site.linkedin": z.string(),
    "site.timezone": z.string().meta({
      description: "The site's time zone (IANA name): new meetings start in it, and membership dates are days in it.",
    }),
    "members.grace_days": z.string().meta({
      description:
        "Days a member company stays current after its renews_on date (a whole number, 0-365; decision 0044).",
    }),
    "members.reminder_days": z.string().meta({
      description:
        "Days before its renews_on date a member company's primary contacts are reminded to renew (a whole number, 1-365; decision 0049).",
    }),
    "meetings.reminder_days": z.string().meta({
      description:
        "Days before a meeting starts its confirmed attendees get a reminder (a whole number, 0-60; 0: no reminders; the meeting-reminders job).",
    }),
    "mail.announcements_per_second": z.string().meta({
      description:
        "How many announcement e-mails leave each second at most, whatever the number of processes (a whole number, 1-100; issue 33).",
    }),
    "security.admin_two_factor": z.string().meta({
      description:
        "1: admins, editors and working groups' chairs must use two-factor sign-in; one without it is sent to set it up before any other admin page or admin API call (403), and a chair manages nothing of the group's until then. 0: it is their choice (decisions 0075, 0086).",
    }),
    "audit.retention_days": z.string().meta({
      description:
        "Days the audit log keeps a row before the audit-retention job removes it (a whole number, 30-3650; default 730, two years).",
    }),
    "privacy.retention_months": z.string().meta({
      description:
        "Months after a join request was handled, or a registration's meeting ended, before the retention job erases the person's details (a whole number, 1-120; default 24; issue 35).",
    }),
  })
  .meta({ id: "SiteSettings" });
export type SiteSettings = z.output<typeof siteSettingsSchema>;
export const SETTING_KEYS = siteSettingsSchema.keyof().options;
export type SettingKey = (typeof SETTING_KEYS)[number];

/** What header and footer show (SPEC §1): the contact keys and the company name. */
export const CONTACT_KEYS = [
  "site.email",
  "site.phone",
  "site.twitter",
  "site.youtube",
  "site.linkedin",
  "site.name",
] as const;

export { DEFAULT_SETTINGS } from "./settings.defaults";
