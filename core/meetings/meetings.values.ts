/**
 * The meetings area's plain values and helpers: no Zod, so that public pages
 * can label and link meetings without loading it (decision 0028).
 * meetings.schema.ts re-exports them.
 */
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

export function meetingTypeLabel(type: string): string {
  return MEETING_TYPE_LABELS[type as MeetingType] ?? type.charAt(0).toUpperCase() + type.slice(1);
}

/** A meeting's address on the site: under /events for everyone, under /dashboard/events in the members' area. */
export function meetingUrl(slug: string, area: "public" | "members" = "public"): string {
  return area === "members" ? `/dashboard/events/${slug}` : `/events/${slug}`;
}
