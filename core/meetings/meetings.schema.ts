import { z } from "zod";
import { DATE_MESSAGE, flag, given, isIsoDate, line, optionalDate, richTextInput } from "../../lib/form-fields";
import { altTextField, decorativeField } from "../../lib/image-text";
import { listSearchSchema, pageNumberSchema } from "../../lib/pagination";
import { cleanLines, cleanTitle } from "../../lib/text";
import { dateIn, isTimeZone } from "../../lib/time-zones";
import { AUDIENCES } from "../access/access";
import { groupIdsInput } from "../groups/groups.schema";
import { MEETING_TYPES } from "./meetings.values";

/** Plain values and helpers (no Zod) live in meetings.values.ts, for the browser (decision 0028). */
export {
  FEATURED_PAGES,
  type FeaturedType,
  MEETING_TYPE_LABELS,
  MEETING_TYPES,
  MEETINGS_PER_PAGE,
  type MeetingType,
  meetingTypeLabel,
  meetingUrl,
} from "./meetings.values";

/** A real calendar date written YYYY-MM-DD (kept here for the meetings' callers). */
export { isIsoDate };

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

/**
 * A setting that is on or off: true/false, "1"/"0", "on"/"off"; absent or empty is the default
 * (the admin's form sends a select, so that "off" is sent and not merely left out).
 */
const onOff = (label: string, fallback: boolean) =>
  z.preprocess(
    given,
    z
      .union([z.boolean(), z.enum(["1", "0", "true", "false", "on", "off"])], {
        error: `${label} must be on or off.`,
      })
      .optional()
      .transform((v) => (v === undefined ? fallback : v === true || v === "1" || v === "true" || v === "on")),
  );

/** A repeated field as a list: absent is none, a single value is one. */
const asList = (v: unknown) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

/** Who may see a meeting: everyone (default) or signed-in members only. */
export const MEETING_VISIBILITIES = ["public", "members"] as const;
export type MeetingVisibility = (typeof MEETING_VISIBILITIES)[number];

/** A meeting's picture: the stored image's address and its resized variants. */
export const meetingImageSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    srcset: z.string().nullable(),
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    alt: z.string().meta({ description: "The picture's alt text; empty when decorative or not described yet." }),
    decorative: z.boolean().meta({ description: 'The picture only decorates: shown with alt="".' }),
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
    timezone: z
      .string()
      .meta({ description: "The IANA time zone the programme's times are in.", example: "Europe/London" }),
    visibility: z.enum(MEETING_VISIBILITIES).meta({ description: "`members`: shown to signed-in users only." }),
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

/** Whether the registration form takes requests for a meeting (issue 13 'Registrations'). */
export const registrationSettingsSchema = z
  .object({
    open: z.boolean(),
    closes_on: isoDate.nullable().meta({ description: "The last day registrations are taken, in the meeting's zone." }),
    capacity: z.number().int().nullable(),
    auto_confirm: z
      .boolean()
      .meta({ description: "New registrations are confirmed at once while seats remain (decision 0052)." }),
    waitlist: z.boolean().meta({
      description:
        "With a capacity: a full meeting puts new registrations on its waiting list instead of refusing them.",
    }),
  })
  .meta({ id: "RegistrationSettings" });
export type RegistrationSettings = z.output<typeof registrationSettingsSchema>;

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
    registration_settings: registrationSettingsSchema,
    audience: z.enum(AUDIENCES).meta({
      description:
        "Who may see it: everyone (`public`), every member (`members`), or the members of `group_ids` (`groups`; a members-only meeting for those groups). Admins and editors see every meeting.",
    }),
    group_ids: z
      .array(z.number().int())
      .meta({ description: "The working groups it is for; empty unless `audience` is `groups`." }),
    sequence: z.number().int().meta({ description: "Raised on every change (the calendar files' SEQUENCE)." }),
    updated_at: z.string(),
  })
  .meta({ id: "Meeting" });
export type Meeting = z.output<typeof meetingSchema>;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * An admin's meeting (SPEC §7 'POST /dashboard/meeting', issue 13): every field of SPEC §3 plus the
 * time zone, visibility and registration settings. An update replaces every field (the admin's form
 * sends them all); images are added, never replaced.
 */
export const meetingInputSchema = z
  .object({
    title: z
      .string({ error: "The title field is required." })
      .overwrite(cleanTitle)
      .min(1, { error: "The title field is required." })
      .max(200, { error: "The title may not be longer than 200 characters." }),
    type: z.enum(MEETING_TYPES, { error: `The type must be one of: ${MEETING_TYPES.join(", ")}.` }),
    meeting_type: line("meeting type", 120),
    organization: line("organization", 200),
    start_date: z
      .string({ error: "The start date field is required." })
      .min(1, { error: "The start date field is required." })
      .refine(isIsoDate, { error: DATE_MESSAGE("start date") }),
    end_date: optionalDate("end date"),
    location: line("location", 200),
    information: richTextInput,
    health: richTextInput,
    registration: richTextInput,
    content_title: line("content title", 200),
    content: richTextInput,
    timezone: z.preprocess(
      given,
      z
        .string()
        .refine(isTimeZone, { error: "The time zone must be a time zone name such as Europe/London." })
        .optional()
        .transform((v) => v ?? null),
    ),
    // Left out: public for a new meeting, unchanged on an update (issue 36: a client that knows
    // nothing of audiences must not open a group's meeting by leaving it out).
    visibility: z.preprocess(
      given,
      z.enum(MEETING_VISIBILITIES, { error: "The visibility must be public or members." }).optional(),
    ),
    // Issue 36: `audience` (with `group_ids` for groups) wins over visibility when sent; without it,
    // `group_ids` alone makes a group's meeting, and visibility keeps SPEC's meaning.
    audience: z.preprocess(
      given,
      z.enum(AUDIENCES, { error: "The audience must be public, members or groups." }).optional(),
    ),
    group_ids: groupIdsInput,
    registration_status: z.preprocess(
      given,
      z.enum(["open", "closed"], { error: "Registration must be open or closed." }).default("open"),
    ),
    registration_closes_on: optionalDate("closing date"),
    capacity: z.preprocess(
      given,
      z.coerce
        .number({ error: "The capacity must be a whole number." })
        .int({ error: "The capacity must be a whole number." })
        .min(1, { error: "The capacity must be at least 1." })
        .max(1_000_000, { error: "The capacity may not be more than 1000000." })
        .optional()
        .transform((v) => v ?? null),
    ),
    auto_confirm: onOff("Automatic confirmation", false).meta({
      description: "true: new registrations are confirmed at once while seats remain. Default false.",
    }),
    waitlist: onOff("The waiting list", true).meta({
      description: "true (the default): when the capacity is reached, new registrations join a waiting list.",
    }),
    // The text of each file in `images[]`, in the same order (decision 0041); meetings-admin.service
    // requires it for each picture that is not decorative.
    images_alt: z
      .preprocess(asList, z.array(altTextField))
      .meta({ description: "One per file in images[], in the same order: its alt text." }),
    images_decorative: z
      .preprocess(asList, z.array(decorativeField))
      .meta({ description: "One per file in images[], in the same order: true for a decorative picture." }),
  })
  .superRefine((value, ctx) => {
    if (value.end_date && value.end_date < value.start_date) {
      ctx.addIssue({ code: "custom", path: ["end_date"], message: "The end date may not be before the start date." });
    }
  });
export type MeetingInput = z.input<typeof meetingInputSchema>;
/** A meeting as the service takes it, parsed by meetingInputSchema. */
export type MeetingData = z.output<typeof meetingInputSchema>;

/** One item of the programme (SPEC §7 '…/schedule'); `id` and `event_id` in the body are ignored (the path says them). */
export const scheduleInputSchema = z
  .object({
    meeting_date: z
      .string({ error: "The date field is required." })
      .min(1, { error: "The date field is required." })
      .refine(isIsoDate, { error: DATE_MESSAGE("date") }),
    is_evening: flag,
    start: z.preprocess(
      given,
      z
        .string()
        .regex(TIME, { error: "The start time must be a time such as 09:30." })
        .optional()
        .transform((v) => v ?? null),
    ),
    finish: z.preprocess(
      given,
      z
        .string()
        .regex(TIME, { error: "The finish time must be a time such as 17:00." })
        .optional()
        .transform((v) => v ?? null),
    ),
    meeting_date_info: line("day's note", 200),
    description: z.preprocess(
      given,
      z
        .string()
        .overwrite(cleanLines)
        .max(2000, { error: "The description may not be longer than 2000 characters." })
        .optional()
        .transform((v) => v || null),
    ),
  })
  .superRefine((value, ctx) => {
    if (value.finish && !value.start) {
      ctx.addIssue({ code: "custom", path: ["start"], message: "A session with a finish time needs a start time." });
    }
    if (value.start && value.finish && value.finish <= value.start) {
      ctx.addIssue({ code: "custom", path: ["finish"], message: "The finish time must be after the start time." });
    }
  });
export type ScheduleData = z.output<typeof scheduleInputSchema>;

/** A sponsor (SPEC §7 '…/sponsor'): name, link and a logo file (read from the body's files). */
export const sponsorInputSchema = z.object({
  name: z
    .string({ error: "The name field is required." })
    .overwrite(cleanTitle)
    .min(1, { error: "The name field is required." })
    .max(200, { error: "The name may not be longer than 200 characters." }),
  link: z.preprocess(
    given,
    z
      .string()
      .trim()
      .max(500, { error: "The link may not be longer than 500 characters." })
      .refine(isWebAddress, { error: "The link must be an http:// or https:// address." })
      .optional()
      .transform((v) => v ?? null),
  ),
});
export type SponsorData = z.output<typeof sponsorInputSchema>;

/** An absolute http(s) address with a host: what a sponsor's link may be. */
export function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** The admin list's query (SPEC §7 'GET /dashboard/meeting with search'). */
export const meetingsAdminQuerySchema = z.object({
  search: listSearchSchema(),
  page: pageNumberSchema,
});
export type MeetingsAdminQuery = z.output<typeof meetingsAdminQuerySchema>;

/** Whether a meeting's registration form takes requests now, and if not, why (issue 13 'Registrations'). */
export type RegistrationState =
  /** `places`: seats left (null without a capacity); `waitlist`: full, new registrations join the waiting list. */
  | { open: true; places: number | null; waitlist: boolean }
  | { open: false; reason: "closed" | "deadline" | "over" | "full"; message: string };

const LONG_DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

type MeetingDays = { start_date: string; end_date: string | null; timezone: string };

/** A meeting's last day (YYYY-MM-DD): its end date, or its start date when it has none (or an earlier one). */
export function lastDayOf(meeting: Pick<MeetingDays, "start_date" | "end_date">): string {
  return meeting.end_date && meeting.end_date > meeting.start_date ? meeting.end_date : meeting.start_date;
}

/** The zone a meeting's days are counted in: its own, or UTC for a stored one this runtime does not know. */
export const zoneOfMeeting = (meeting: Pick<MeetingDays, "timezone">): string =>
  isTimeZone(meeting.timezone) ? meeting.timezone : "UTC";

/** Whether the meeting is over: the day after its last day has begun in its own zone. */
export function isMeetingOver(meeting: MeetingDays, now: Date): boolean {
  return dateIn(now, zoneOfMeeting(meeting)) > lastDayOf(meeting);
}

/**
 * Open, closed by the admin, past its closing day, over, or full: the closing day and the
 * meeting's last day end at midnight in the meeting's own zone.
 */
export function registrationState(
  meeting: {
    registration_settings: RegistrationSettings;
    start_date: string;
    end_date: string | null;
    timezone: string;
  },
  /** Registrations holding a seat: pending and confirmed ones. */
  registrations: number,
  now: Date,
): RegistrationState {
  const settings = meeting.registration_settings;
  const today = dateIn(now, zoneOfMeeting(meeting));
  if (!settings.open) {
    return { open: false, reason: "closed", message: "Registration for this meeting is closed." };
  }
  if (isMeetingOver(meeting, now)) {
    return { open: false, reason: "over", message: "This meeting has taken place: registration is closed." };
  }
  if (settings.closes_on && settings.closes_on < today) {
    const day = LONG_DATE.format(new Date(`${settings.closes_on}T00:00:00Z`));
    return { open: false, reason: "deadline", message: `Registration for this meeting closed on ${day}.` };
  }
  if (settings.capacity === null) return { open: true, places: null, waitlist: false };
  const places = Math.max(0, settings.capacity - registrations);
  if (places === 0 && !settings.waitlist) {
    return { open: false, reason: "full", message: "This meeting is full: registration is closed." };
  }
  return { open: true, places, waitlist: places === 0 };
}
