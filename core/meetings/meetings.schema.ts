import { z } from "zod";
import { pageNumberSchema } from "../../lib/pagination";

/** SPEC §3 'Meeting/event' type values, and how visitors read them. */
export const MEETING_TYPES = ["conference", "workshop", "meeting", "webinar"] as const;
export type MeetingType = (typeof MEETING_TYPES)[number];

export const MEETING_TYPE_LABELS: Record<MeetingType, string> = {
  conference: "Conference",
  workshop: "Workshop",
  meeting: "Meeting",
  webinar: "Webinar",
};

/** The types with a page of their own (/conference, /workshop) showing the featured edition. */
export const FEATURED_PAGES = {
  conference: { path: "/conference", title: "Annual Conference" },
  workshop: { path: "/workshop", title: "Annual Technical Workshop" },
} as const;
export type FeaturedType = keyof typeof FEATURED_PAGES;

export const MEETINGS_PER_PAGE = 12;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD (2026-02-30 is refused). */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

const emptyToNull = (v: unknown) => (v === undefined || v === null || v === "" || v === "all" ? null : v);

/** SPEC §7 'GET /meetings' with page, type and start_date (type and start_date only when set). */
export const meetingsQuerySchema = z.object({
  page: pageNumberSchema,
  type: z.preprocess(
    emptyToNull,
    z.enum(MEETING_TYPES, { error: `The type must be one of: ${MEETING_TYPES.join(", ")}.` }).nullable(),
  ),
  start_date: z.preprocess(
    emptyToNull,
    z
      .string({ error: "The start date must be a date such as 2026-11-22." })
      .refine(isIsoDate, { error: "The start date must be a date such as 2026-11-22." })
      .nullable(),
  ),
});
export type MeetingsQuery = z.output<typeof meetingsQuerySchema>;

export type MeetingImage = {
  id: number;
  url: string;
  srcset: string | null;
  width: number | null;
  height: number | null;
};

export type MeetingSummary = {
  id: number;
  slug: string;
  title: string;
  type: string;
  meeting_type: string | null;
  organization: string | null;
  start_date: string;
  end_date: string | null;
  location: string | null;
  content_title: string | null;
  image: MeetingImage | null;
};

export type Schedule = {
  id: number;
  event_id: number;
  meeting_date: string;
  is_evening: boolean;
  start: string | null;
  finish: string | null;
  meeting_date_info: string | null;
  description: string | null;
};

export type Sponsor = { id: number; name: string; link: string | null; image: string | null };

export type Meeting = Omit<MeetingSummary, "image"> & {
  information: string | null;
  health: string | null;
  registration: string | null;
  content: string | null;
  images: MeetingImage[];
  schedules: Schedule[];
  sponsors: Sponsor[];
};

export function meetingTypeLabel(type: string): string {
  return MEETING_TYPE_LABELS[type as MeetingType] ?? type.charAt(0).toUpperCase() + type.slice(1);
}
