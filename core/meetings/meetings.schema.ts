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

/** A meeting's picture: the stored image's address and its resized variants. */
export const meetingImageSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    srcset: z.string().nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
  })
  .meta({ id: "MeetingImage" });
export type MeetingImage = z.output<typeof meetingImageSchema>;

const isoDate = z.string().meta({ description: "A date, YYYY-MM-DD.", example: "2026-11-22" });

/** A meeting in a list, as every adapter answers it: with its first image. */
export const meetingSummarySchema = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    title: z.string(),
    type: z.string().meta({ description: `Usually one of: ${MEETING_TYPES.join(", ")}.` }),
    meeting_type: z.string().nullable(),
    organization: z.string().nullable(),
    start_date: isoDate,
    end_date: isoDate.nullable(),
    location: z.string().nullable(),
    content_title: z.string().nullable(),
    // A union, not .nullable(): zod-to-openapi 9 would mark the MeetingImage component itself nullable.
    image: z.union([meetingImageSchema, z.null()]),
  })
  .meta({ id: "MeetingSummary" });
export type MeetingSummary = z.output<typeof meetingSummarySchema>;

/** One item of a meeting's programme. */
export const scheduleSchema = z
  .object({
    id: z.number().int(),
    event_id: z.number().int(),
    meeting_date: isoDate,
    is_evening: z.boolean(),
    start: z.string().nullable(),
    finish: z.string().nullable(),
    meeting_date_info: z.string().nullable(),
    description: z.string().nullable(),
  })
  .meta({ id: "Schedule" });
export type Schedule = z.output<typeof scheduleSchema>;

export const sponsorSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    link: z.string().nullable().meta({ description: "An absolute http(s) address, or null." }),
    image: z.string().nullable(),
  })
  .meta({ id: "Sponsor" });
export type Sponsor = z.output<typeof sponsorSchema>;

const richText = z.string().nullable().meta({ description: "Sanitized HTML; null when empty." });

/** A whole meeting: the summary's fields without its first image, with its texts, images, programme and sponsors. */
export const meetingSchema = meetingSummarySchema
  .omit({ image: true })
  .extend({
    information: richText,
    health: richText,
    registration: richText,
    content: richText,
    images: z.array(meetingImageSchema),
    schedules: z.array(scheduleSchema),
    sponsors: z.array(sponsorSchema),
  })
  .meta({ id: "Meeting" });
export type Meeting = z.output<typeof meetingSchema>;

export function meetingTypeLabel(type: string): string {
  return MEETING_TYPE_LABELS[type as MeetingType] ?? type.charAt(0).toUpperCase() + type.slice(1);
}
