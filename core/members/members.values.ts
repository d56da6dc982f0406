/**
 * Membership's plain values and texts (no Zod, no database): safe for the browser, shared by the
 * schemas, the service and the screens built on them (decision 0044).
 */
export const MEMBERSHIP_TYPES = ["full", "associate"] as const;
export type MembershipType = (typeof MEMBERSHIP_TYPES)[number];
export const COMPANY_STATUSES = ["active", "suspended", "left"] as const;
export type CompanyStatus = (typeof COMPANY_STATUSES)[number];

/** The grace period's default: a company stays current this many days past its renews_on. */
export const DEFAULT_GRACE_DAYS = 30;
/** The renewal reminder's default: primary contacts are reminded this many days before renews_on (decision 0049). */
export const DEFAULT_REMINDER_DAYS = 30;
/**
 * A lapse is announced only while it is this recent (decision 0049): a company found lapsed longer
 * ago (the job was off, or the site took its member list over) is the secretariat's to handle, not
 * a surprise mail on the first run.
 */
export const LAPSE_NOTICE_DAYS = 30;
/** The site search's kind for a member company's entry (its ref_id the company's id). */
export const COMPANY_SEARCH_KIND = "member";
/** A company's page in the directory. */
export const companyUrl = (slug: string) => `/members-list/${slug}`;
/** Public directory and API page size. */
export const MEMBERS_PER_PAGE = 24;
/** The secretariat's list page size (as the users screen). */
export const COMPANIES_PER_PAGE = 25;
/** The admin list's 'renewals due' filter: renews_on within this many days from today (or past it). */
export const RENEWALS_DUE_DAYS = 60;
export const MAX_PRODUCTS = 20;
/** A CSV import reads at most this many rows (an association's whole list, several times over). */
export const IMPORT_MAX_ROWS = 10_000;
/**
 * ... and at most this many bytes: the screen sends the checked text back to apply it as a form
 * field, and a form field may be 2 MB (lib/request-body.ts). 10 000 rows without descriptions fit.
 */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
export const IMPORT_ACTIONS = ["create", "update", "unchanged", "refuse"] as const;
export type ImportAction = (typeof IMPORT_ACTIONS)[number];
export const PRODUCT_LENGTH = 40;

export const COMPANY_NOT_FOUND = "Member company not found.";
export const NO_COMPANY = "You do not represent a member company.";
export const NOT_PRIMARY = "Only the company's primary contacts may do this.";
export const REPRESENTATIVE_NOT_FOUND = "This person is not a representative of the company.";
export const NO_FREE_SEAT = "This company has no free seat.";
export const LAPSED_NOTICE = "Your company's membership has lapsed. Please contact the secretariat.";
export const HAS_REPRESENTATIVES =
  "This company still has representatives: remove them first, or end its membership (status left) to keep its record.";
export const OTHER_COMPANY = "This person already represents another member company. They must be removed there first.";
export const SAME_COMPANY = "This person already represents this company.";
export const ADMIN_ACCOUNT =
  "This address belongs to an administrator's account; representatives are members. Use another address.";
export const DEACTIVATED_ACCOUNT =
  "The account with this address is deactivated. Reactivate it on the users screen first, then add it again.";
export const IMPORT_NO_FILE = "Choose a CSV file to import (its first row names the columns: Name, Country, …).";
export const IMPORT_NO_NAME_COLUMN =
  "The file has no Name column: its first row must name the columns (Name, Country, Website, …).";
export const IMPORT_NOT_UTF8 =
  'The file is not UTF-8 text: save it from your spreadsheet as "CSV UTF-8" and try again.';
export const LAST_PRIMARY =
  "You are the company's only primary contact: make a colleague a primary contact first, or ask the secretariat.";

/** A date as YYYY-MM-DD, checked to be a real day (2026-02-30 is none). */
export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** `day` moved by `days` (negative: back), as YYYY-MM-DD. */
/** 2027-03-01 → "1 March 2027" (a day, not an instant: no zone moves it). */
const longDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
export const formatDay = (day: string) => longDay.format(new Date(`${day}T00:00:00Z`));

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** `day` one year on; 29 February becomes 28 February (a renewal never runs into March). */
export function addYear(day: string): string {
  const [year, month, date] = day.split("-").map(Number);
  const next = new Date(Date.UTC(year + 1, month - 1, date));
  if (next.getUTCMonth() !== month - 1) next.setUTCDate(0);
  return next.toISOString().slice(0, 10);
}

/**
 * The earliest renews_on that is still current on `today` with `graceDays` of grace:
 * renews_on + grace >= today, i.e. renews_on >= today - grace.
 */
export function currentCutoff(today: string, graceDays: number): string {
  return addDays(today, -graceDays);
}
