import { data } from "react-router";
import { meetingsQuerySchema } from "../../../core/meetings/meetings.schema";
import type { Viewer } from "../../../core/meetings/meetings.service";
import type { RequestContext } from "../../../core/request-context";
import { validate } from "../../../lib/validation";
import type { CalendarData, CalendarFilters } from "../../components/events/calendar-view";
import { isMonth, monthGrid } from "../../components/events/month-grid";

/**
 * The events calendar's data, for /events (visitors) and /dashboard/events (signed-in users):
 * everything is read from the URL, so every view and filter is a link that works without JavaScript.
 *
 * - list (default): without a start date, the meetings not yet over and a page of past ones;
 *   with one, the meetings starting on or after it in calendar order, a page at a time;
 * - `view=month&month=YYYY-MM`: the month grid (the start date's month, else this month).
 */
export async function loadCalendar(
  context: Pick<RequestContext, "services" | "origin">,
  url: URL,
  viewer: Viewer,
  now: Date = new Date(),
): Promise<CalendarData> {
  const { services } = context;
  const params = url.searchParams;
  const input = validate(meetingsQuerySchema, {
    type: params.get("type"),
    start_date: params.get("start_date"),
    page: params.get("page") ?? undefined,
  });
  const view = params.get("view") ?? "list";
  const month = params.get("month");
  if (!input.success || (view !== "list" && view !== "month") || (month !== null && !isMonth(month))) {
    throw data("That filter is not valid: choose a type from the list, a date such as 2026-11-22 or a month.", {
      status: 400,
    });
  }
  const { type, start_date: startDate, page } = input.data;
  const today = now.toISOString().slice(0, 10);
  const filters: CalendarFilters = { type, startDate };
  // Members' meetings are not in the public feed: members subscribe to their own, made on their settings page.
  const feed = { ...feedLinks(context.origin), personal: viewer.signedIn ? "/dashboard/user-settings#calendar" : null };

  if (view === "month") {
    const shown = month ?? (startDate ?? today).slice(0, 7);
    const meetings = await services.meetings.month(shown, type, viewer);
    return { view: "month", filters, feed, today, grid: monthGrid(shown, meetings, today) };
  }
  if (startDate) {
    const from = await services.meetings.list({ type, start_date: startDate, page }, viewer);
    return { view: "list", filters, feed, today, mode: "from", upcoming: [], moreUpcoming: false, page: from };
  }
  const calendar = await services.meetings.calendar({ type, page }, viewer);
  return {
    view: "list",
    filters,
    feed,
    today,
    mode: "calendar",
    upcoming: calendar.upcoming,
    moreUpcoming: calendar.more_upcoming,
    page: calendar.past,
  };
}

/** The public feed, to subscribe to (webcal://) or to download. */
export function feedLinks(origin: string) {
  const https = `${origin}/events.ics`;
  return { webcal: https.replace(/^https?:/, "webcal:"), https };
}
