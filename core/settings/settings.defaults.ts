import type { SiteSettings } from "./settings.schema";

/**
 * The settings before an admin has saved any: a module of its own, without
 * Zod, because every page's header and footer fall back to it in the browser
 * (decision 0028). settings.schema.ts re-exports it.
 */
export const DEFAULT_SETTINGS: SiteSettings = {
  "site.name": "Masthead",
  "site.tagline": "International association of marine electronics companies",
  "site.email": "",
  "site.phone": "",
  "site.address": "",
  "site.twitter": "",
  "site.youtube": "",
  "site.linkedin": "",
  "site.timezone": "Europe/London",
  "members.grace_days": "30",
  "members.reminder_days": "30",
  "meetings.reminder_days": "2",
  "mail.announcements_per_second": "5",
  "security.admin_two_factor": "0",
  "audit.retention_days": "730",
  "privacy.retention_months": "24",
};
